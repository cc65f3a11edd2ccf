// The comment states only what the input shows: no single line presented as the place when no
// location was printed, the call that really reached the stub, messages as they were printed,
// nothing the user "turned off" in a manifest the bot assumed, the right thing to edit.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { versionFromProse } from "../../src/evidence/version.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { detect } from "../../src/panics/detect.js";
import { parseLocation } from "../../src/panics/location.js";
import { commandMarker } from "../../src/render/command.js";
import { analyzePanic } from "../helpers/analysis.js";
import { fixture, issueCases } from "../helpers/fixtures.js";

const STUB = "not implemented: Requires `autodiff` feature";

describe("no invented facts", () => {
  it("without a printed location, links the stub block and names its methods instead of one line", () => {
    const a = analyzePanic({ text: fixture("issues/pos-markdown-escaped.md") });
    expect(a.link?.lineEnd).toBeGreaterThan(a.link!.line);
    expect(a.link?.url).toMatch(/#L\d+-L\d+$/);
    const body = renderIssueComment(a)!;
    expect(body).toContain("your output shows no location, and the issue names `backward`, one of them");
    expect(body).toContain("`backward`, `grad`");
  });

  it("with a printed location, links that one line", () => {
    const a = analyzePanic({ text: fixture("issues/pos-registry-backtrace.md") });
    expect(a.link?.lineEnd).toBeNull();
  });

  it("blames the method the location or the backtrace shows, not always backward()", () => {
    expect(analyzePanic({ text: fixture("issues/pos-cargo-vendor.md") }).firstCall?.method).toBe("grad");
    // 859 is `from_inner` at 0.22.0-pre.2, but the report's 0.22.0-pre.1 has no stub on that line.
    expect(analyzePanic({ text: fixture("issues/pos-tracing-panic.md") }).firstCall).toMatchObject({ method: null });
    const traced = analyzePanic({
      text: `${STUB}\nstack backtrace:\n   2: <burn_dispatch::backend::Dispatch as burn_backend::backend::autodiff::AutodiffBackend>::inner\n`,
    });
    expect(traced.firstCall?.method).toBe("inner");
    expect(renderIssueComment(traced)).toContain("In your output it was `inner` that reached the stub.");
    expect(analyzePanic({ text: STUB }).firstCall).toBeNull();
  });

  it("quotes related messages as printed, with their values", () => {
    const [f] = detect("Autodiff float tensor is on the wrong backend (expected Cuda(0)).");
    expect(f?.printed).toBe("Autodiff float tensor is on the wrong backend (expected Cuda(0)).");
  });

  it("does not say the user turned defaults off in a manifest it assumed", () => {
    const a = analyzePanic({ text: STUB });
    expect(a.manifest?.origin).toBe("assumed");
    expect(renderIssueComment(a)).not.toContain("default set you turned off");
  });

  it("an /explain-panic reply asks to edit the comment, an issue comment to edit the issue", () => {
    const a = analyzePanic({ text: STUB });
    expect(renderIssueComment(a, commandMarker(1), "command")).toContain(
      "edit your comment and I will update this reply",
    );
    expect(renderIssueComment(a)).toContain("edit the issue and I will update this comment");
  });

  it.each(issueCases().filter(([, c]) => c.finding !== null))("%s: no sentence twice", (file) => {
    const body = renderIssueComment(analyze({ text: fixture(`issues/${file}`) }))!;
    const sentences = body
      .replace(/```[\s\S]*?```/g, "")
      .split(/(?<=[.!?])\s+|\n+/)
      .map((s) => s.trim())
      .filter((s) => s.length > 20 && !s.startsWith("-"));
    expect(sentences.filter((s, i) => sentences.indexOf(s) !== i)).toEqual([]);
  });
});

describe("more real locations and clues", () => {
  it("reads color-eyre's Location: line and tracing-panic's panic.location", () => {
    expect(detect(fixture("issues/pos-color-eyre.md"))[0]?.location).toMatchObject({
      origin: "registry",
      version: "0.22.0-pre.2",
      line: 829,
    });
    expect(detect(fixture("issues/pos-tracing-panic.md"))[0]?.location).toMatchObject({
      version: "0.22.0-pre.1",
      line: 859,
    });
  });
  it("reads cargo vendor trees and Nix store paths", () => {
    expect(parseLocation("vendor/burn-dispatch/src/backend.rs:824:9")).toMatchObject({
      origin: "vendor",
      crate: "burn-dispatch",
      repoPath: "crates/burn-dispatch/src/backend.rs",
    });
    expect(
      parseLocation("/nix/store/0a1b2c3d4e5f6g7h8i9j0k1l2m3n4p5q-burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9"),
    ).toMatchObject({ origin: "registry", crate: "burn-dispatch", version: "0.22.0-pre.2" });
  });
  it("recognises a message backslash-escaped in Markdown", () => {
    expect(detect("not implemented: Requires \\`autodiff\\` feature")).toHaveLength(1);
  });
  it.each([
    ["on burn 0.22 pre 2", "0.22.0-pre.2"],
    ["burn 0.22.0-pre.2", "0.22.0-pre.2"],
    ["v0.22.0-pre.1 here", "0.22.0-pre.1"],
    ["0.22-pre.2", "0.22.0-pre.2"],
    ["burn 0.21", "0.21.0"],
    ["rustc 1.85.0", null],
  ])("prose %j → %s", (text, v) => expect(versionFromProse(text)).toBe(v));
  it("a git rev in the manifest is a commit, not a requirement", () => {
    const a = analyzePanic({ text: fixture("issues/pos-git-rev-manifest.md") });
    expect(a.version).toMatchObject({ commit: "2c06be3", version: null, source: "git" });
    expect(a.link?.ref).toBe("2c06be3");
  });
});

describe("quoted source is not a printed panic", () => {
  it.each(["neg-quoted-source-api.md", "neg-quoted-source-diff.md", "neg-grep-output.md", "neg-review-qtensor.md"])(
    "%s is silent",
    (file) => {
      expect(detect(fixture(`issues/${file}`))).toEqual([]);
    },
  );
  it("a printed panic next to quoted source still counts", () => {
    expect(
      detect(`burn has \`unimplemented!("Requires \`autodiff\` feature")\`, and my run printed:\n${STUB}`),
    ).toHaveLength(1);
  });
});
