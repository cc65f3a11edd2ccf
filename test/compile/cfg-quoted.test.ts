// A gate is quoted as burn's source writes it, with its crate: never the resolver's
// crate-qualified form (`feature = "burn-tensor/autodiff"`, which no cfg can say: a feature name
// has no `/`), and never a rewrite of the `#[cfg]` the user's own rustc printed.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { fixture } from "../helpers/fixtures.js";

const LOCK = (v: string) => `\n\`\`\`\n[[package]]\nname = "burn"\nversion = "${v}"\n\`\`\`\n`;

/** Every `#[cfg(…)]` the comment quotes. */
const quoted = (body: string) => [...body.matchAll(/`#\[cfg\((.*?)\)\]`/g)].map((m) => m[1]!);

function body(text: string): string {
  const b = renderIssueComment(analyze({ text }));
  if (!b) throw new Error("no comment");
  return b;
}

describe("a gate quoted as written", () => {
  it("a method behind burn-tensor's autodiff: its own cfg, in burn-tensor (gated-path data)", () => {
    const b = body(
      `\`\`\`\n${fixture("compile/rustc-1.95/e0599-device-autodiff-0.22.txt")}\n\`\`\`\n${LOCK("0.22.0-pre.2")}`,
    );
    expect(b).toContain('`burn::tensor::Device::autodiff` sits under `#[cfg(feature = "autodiff")]` in `burn-tensor`');
    expect(b).not.toContain("burn-tensor/autodiff");
  });

  it("a compound gate across crates: the gating line's cfg in its crate, no made-up all(…)", () => {
    const text = [
      "```",
      "error[E0432]: unresolved import `burn::backend::Autodiff`",
      " --> src/main.rs:1:5",
      "  |",
      "1 | use burn::backend::Autodiff;",
      "  |     ^^^^^^^^^^^^^^^^^^^^^^^ no `Autodiff` in `backend`",
      "```",
      LOCK("0.22.0-pre.2"),
    ].join("\n");
    const b = body(text);
    expect(b).toContain('`burn::backend::Autodiff` sits under `#[cfg(feature = "autodiff")]` in `burn-dispatch`');
    expect(b).not.toMatch(/all\(feature = "burn-core\/extension"/);
  });

  it("rustc's own note is quoted as printed, not 'corrected' to a crate-qualified name", () => {
    const text =
      'error[E0432]: unresolved import `burn::backend::Wgpu`\n --> src/main.rs:1:5\n  |\nnote: found an item that was configured out\n --> /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/lib.rs:71:9\n  |\n70 | #[cfg(feature = "wgpu")]\n   |       ---------------- the item is gated behind the `wgpu` feature\n';
    const b = body(text);
    expect(b).toContain('sits under `#[cfg(feature = "wgpu")]` in `burn-dispatch`');
    expect(b).not.toContain("burn-dispatch/wgpu`");
  });

  it.each([
    "evidence/rustc-1.95-e0432-group-0.22.1.txt",
    "evidence/rustc-1.95-e0433-train.txt",
    "evidence/rustc-1.95-e0432-group-color.txt",
  ])("%s: no quoted cfg names a feature with a `/`", (file) => {
    const q = quoted(body(fixture(file)));
    expect(q.length).toBeGreaterThan(0);
    for (const c of q) expect(c).not.toMatch(/feature = "[^"]*\//);
  });
});
