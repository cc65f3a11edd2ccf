// Issue 53's reading of the comments as a burn maintainer would: no sentence said twice, no claim
// without its evidence, no two sentences that disagree. One test per wording fixed.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { answerIssue } from "../../src/answer/answer.js";
import { renderAnswerComment } from "../../src/render/issue.js";
import { fixture } from "../helpers/fixtures.js";

const comment = (path: string) => renderAnswerComment(answerIssue(analyze({ text: fixture(path) })))!;
const count = (s: string, part: string) => s.split(part).length - 1;

describe("what a comment says of the build, each with its evidence", () => {
  it("a git rev at main's snapshot: the enablers are main's commit's, not said as the release main calls itself", () => {
    const c = comment("issues/pos-git-rev-manifest.md");
    expect(c).toContain(
      "In `burn` at main-branch commit `2c06be3` `autodiff` comes from `autodiff`, `optim` or `train`",
    );
    expect(c).not.toContain("In `burn` 0.22.0-pre.2");
  });

  it("a commit the data has no sites at: the line is said unchecked, not 'not one of its sites there'", () => {
    const c = comment("issues/pos-qtensor-windows-git.md");
    expect(c).toContain("and my data has none of its sites at `d16f7ba` to check that line against.");
    expect(c).not.toContain("not one of its sites in my data at `d16f7ba`");
    // The fold says the same thing its own way: the two agree.
    expect(c).toContain("I do not have burn's lines at `d16f7ba`");
    // A release the data has sites at is still said to lack that line, named as a release, not a tag.
    const tracing = comment("issues/pos-tracing-panic.md");
    expect(tracing).toContain("which is not one of its sites in my data at `0.22.0-pre.1`.");
    expect(tracing).toContain("`src/backend.rs:859` is none of its methods at `0.22.0-pre.1`.");
    expect(tracing).not.toContain("`v0.22.0-pre.1`");
  });

  it("an excerpt at a commit that could not be read: no 'judged on the part shown' (nothing was judged)", () => {
    const c = comment("issues/pos-unfenced-local-checkout.md");
    expect(c).toContain("I cannot tell whether `burn-dispatch/autodiff` is on there");
    expect(c).not.toContain("Judged on the part of your Cargo.toml");
    // An excerpt that was judged keeps the note.
    expect(comment("issues/pos-git-rev-manifest.md")).toContain("Judged on the part of your Cargo.toml");
  });

  it("cargo's refusal of another burn crate: the footer names that crate's release, not burn's", () => {
    const c = comment("cargo/refusal-history-burn-cubecl-burn-autodiff-build.txt");
    expect(c).toContain("<sub>`burn-cubecl` `0.20.0-pre.6` (the release cargo tried, from its message).");
    expect(c).not.toContain("burn `0.20.0-pre.6`");
    expect(comment("cargo/refusal-server-0.22-build.txt")).toContain(
      "<sub>burn `0.22.0-pre.2` (the release cargo tried, from its message).",
    );
  });

  it("the backends 'Which backend?' lists are not listed again in the sentence on the edits", () => {
    const c = comment("issues/pos-prose-pasted.md");
    expect(c).toContain("With your Cargo.toml, adding any one of them to `burn`'s features is verified to turn it on.");
    for (const f of ["cuda", "metal", "rocm", "tch", "vulkan", "webgpu", "wgpu"]) {
      expect(count(c, `\`${f}\``)).toBe(1);
      expect(c).not.toContain(`\`"${f}"\``);
    }
  });
});

describe("what to add when no manifest was read and burn's defaults meet the gate", () => {
  it("says the defaults meet it and what to add without them, in one readable sentence", () => {
    const text = `\`\`\`\n${fixture("compile/rustc-1.95/e0599-tensor-backward-grad-0.22.txt")}\`\`\`\n`;
    const c = renderAnswerComment(answerIssue(analyze({ text })))!;
    expect(c).toContain(
      'At burn `0.22.0-pre.2`, `burn`\'s default features meet the gate above; with `default-features = false`, add `features = ["autodiff"]`.',
    );
    expect(c).not.toContain("add nothing");
  });

  it("paths under one #[cfg] at one line are one item, behind one feature; several gates keep the plural", () => {
    const text = `\`\`\`\n${fixture("compile/rustc-1.95/e0599-tensor-backward-grad-0.22.txt")}\`\`\`\n`;
    const c = renderAnswerComment(answerIssue(analyze({ text })))!;
    expect(c).toContain("### These `burn` items are behind a cargo feature that is off");
    expect(c).toContain(
      '- `burn::Tensor::backward` and `burn::Tensor::grad` sit under `#[cfg(feature = "autodiff")]` in `burn-tensor` (',
    );
    expect(count(c, "src/tensor/api/autodiff.rs:48`]")).toBe(1);
    const two = `\`\`\`\n${fixture("evidence/rustc-1.95-e0432-group-0.22.1.txt")}\`\`\`\n`;
    const both = renderAnswerComment(answerIssue(analyze({ text: two })))!;
    expect(both).toContain("### These `burn` items are behind cargo features that are off");
    expect(both).toContain("This is what the gates name at that release");
  });
});
