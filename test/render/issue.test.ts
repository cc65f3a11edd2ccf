import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { ISSUE_MARKER } from "../../src/render/issue.js";
import { fixture, issueCases } from "../helpers/fixtures.js";

const render = (text: string) => renderIssueComment(analyze({ text }));

describe("why", () => {
  it("says when a member's default-features = false is ignored by cargo", async () => {
    const { diagnose } = await import("../../src/cargo/judge/diagnose.js");
    const { parseManifest } = await import("../../src/cargo/manifest/manifest.js");
    const { why } = await import("../../src/render/why.js");
    const root = parseManifest('[workspace]\n[workspace.dependencies]\nburn = "0.22.0-pre.2"\n');
    const member = parseManifest("[dependencies]\nburn = { workspace = true, default-features = false }\n");
    const d = diagnose(member, { root });
    expect(d.verdict).toBe("on");
    expect(why(d)).toBe(
      "This manifest does turn `burn-dispatch/autodiff` on (`burn/default` → `burn/optim` → `burn/burn-optim` → `burn-core/autodiff` → `burn-tensor/autodiff` → `burn-dispatch/autodiff`) (this member's `default-features = false` is ignored: cargo honours it only in `[workspace.dependencies]`, and edition 2024 rejects it).",
    );
    const off = diagnose(parseManifest("[dependencies]\nburn = { workspace = true, default-features = false }\n"), {
      root: parseManifest(
        '[workspace]\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false }\n',
      ),
    });
    expect(why(off)).not.toContain("ignored");
  });
});

describe("issue comment", () => {
  const body = render(fixture("issues/pos-registry-backtrace.md"))!;
  it("has the marker, the permalink, the cfg gate, the why and the verified diff", () => {
    expect(body.startsWith(`${ISSUE_MARKER}\n### \`burn-dispatch\` was built without its \`autodiff\` feature`)).toBe(
      true,
    );
    expect(body).toContain(
      "[`burn-dispatch 0.22.0-pre.2 · src/backend.rs:824`](https://github.com/tracel-ai/burn/blob/v0.22.0-pre.2/crates/burn-dispatch/src/backend.rs#L824)",
    );
    expect(body).toContain('`#[cfg(not(feature = "autodiff"))]`');
    expect(body).toContain(
      '**Why it is off here:** `burn` is declared with `default-features = false` and `features = ["std", "wgpu", "dataset"]`. In `burn` 0.22.0-pre.2 `autodiff` comes from `autodiff`, `optim` or `train` (`optim` is in the default set you turned off).',
    );
    expect(body).toContain(
      '+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "dataset", "autodiff"] }',
    );
    expect(body).toContain("**Fix** — `Cargo.toml`, line 7:");
    expect(body).toContain("<details><summary>Why this panics; other ways out</summary>");
    expect(body).toContain("from the crate path in your backtrace");
  });

  it("says which version it assumed when nothing names one", () => {
    const b = render("not implemented: Requires `autodiff` feature")!;
    expect(b).toContain("assumed: nothing in the issue names a version");
    expect(b).toContain("If your `burn` dependency looks like this");
  });

  it("renders nothing for every hard negative", () => {
    for (const [file, c] of issueCases())
      if (c.finding === null && !c.compile) expect(render(fixture(`issues/${file}`))).toBeNull();
    // 0.21's `Dispatch: AutodiffBackend` bound is the compile-time twin of the stub's panic.
    for (const [file, c] of issueCases())
      if (c.compile) expect(render(fixture(`issues/${file}`))).toContain(" sits under `#[cfg(");
  });

  it("explains misuse panics without a manifest diff", () => {
    const b = render(fixture("issues/pos-misuse-wrong-backend.md"))!;
    expect(b).toContain("not a missing Cargo feature");
    expect(b).not.toContain("```diff");
  });

  it("user text cannot inject mentions, HTML or break the fence", () => {
    const text = [
      "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:",
      "not implemented: Requires `autodiff` feature",
      "```toml",
      "[dependencies]",
      'burn = { version = "0.22.0-pre.2", default-features = false } # @maintainers <script>x</script> ````',
      'evil = "1" # ``` <!-- burn-triage:issue -->',
      "```",
    ].join("\n");
    const b = render(text)!;
    const fenceOpen = /^(`{3,})diff$/m.exec(b)![1]!;
    expect(fenceOpen.length).toBeGreaterThan(4);
    const diff = b.slice(b.indexOf(`${fenceOpen}diff`) + fenceOpen.length + 4, b.lastIndexOf(fenceOpen));
    expect(diff).toContain("<script>");
    // Outside the fence, nothing from the user appears raw.
    const outside = b.replace(diff, "");
    expect(outside).not.toContain("<script>");
    expect(outside).not.toMatch(/(^|[^\u200b`])@maintainers/);
    expect(b.split(ISSUE_MARKER)).toHaveLength(2);
  });

  it("a feature name with a backtick cannot break its code span", () => {
    const b = render(
      'not implemented: Requires `autodiff` feature\n```toml\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["a`b @x"] }\n```\n',
    )!;
    // No release of burn has that feature: cargo's refusal names it, in a span it cannot close.
    expect(b).toContain("for feature ``a`b @x``, which it does not have");
    expect(b).not.toContain("**Fix**");
  });

  it("reports malformed TOML with its line and column", () => {
    const b = render(
      'not implemented: Requires `autodiff` feature\n```toml\n[dependencies]\nburn = { version = "0.22.0-pre.2" features = [] }\n```',
    )!;
    expect(b).toMatch(/I could not read your Cargo.toml:\*\* line 2, column \d+/);
    expect(b).not.toContain("```diff");
  });
});
