// The maintainer's review (findings 7, 8, 11, 13, 14): sentences that said more than the input
// shows. Each case is the input the finding quoted, and fails when its rule is removed.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { answerIssue } from "../../src/answer/answer.js";
import { chainSteps, manifestAnswer } from "../../src/answer/answer-edit.js";
import { planFix } from "../../src/cargo/fix/fix.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { assumptionText } from "../../src/render/manifest.js";
import { why } from "../../src/render/why.js";
import { fixture } from "../helpers/fixtures.js";

// pos-experiment-log's workspace: `train` reaches burn-core/autodiff through burn-optim, not burn-train.
const ROOT = parseManifest(
  '[workspace]\nmembers = ["trainer"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "train"] }\n',
);
const MEMBER = parseManifest(
  '[package]\nname = "trainer"\nversion = "0.1.0"\nedition = "2024"\n\n[dependencies]\nburn = { workspace = true, features = ["cuda"] }\n',
);

describe("finding 7: the why-chain summary and the causes it offers", () => {
  const d = diagnose(MEMBER, { root: ROOT });

  it("names every crate on the way: burn-train reaches burn-core/autodiff only through burn-optim", () => {
    expect(d.verdict).toBe("on");
    expect(chainSteps(d.state.chain)).toEqual([
      "burn/train",
      "burn/burn-train",
      "burn-optim",
      "burn-core/autodiff",
      "burn-tensor/autodiff",
      "burn-dispatch/autodiff",
    ]);
  });

  it("a crate activated by name is not said twice (`burn/burn-optim`, then `burn-optim`)", () => {
    const root = parseManifest('[workspace]\n[workspace.dependencies]\nburn = "0.22.0-pre.2"\n');
    const member = parseManifest("[dependencies]\nburn = { workspace = true }\n");
    const steps = chainSteps(diagnose(member, { root }).state.chain);
    expect(steps).toEqual([
      "burn/default",
      "burn/optim",
      "burn/burn-optim",
      "burn-core/autodiff",
      "burn-tensor/autodiff",
      "burn-dispatch/autodiff",
    ]);
  });

  it("`why` and `fix` (no panic given) speak of no binary", () => {
    expect(why(d)).toBe(
      "This manifest does turn `burn-dispatch/autodiff` on (`burn/train` → `burn/burn-train` → `burn-optim` → `burn-core/autodiff` → `burn-tensor/autodiff` → `burn-dispatch/autodiff`).",
    );
  });

  it("an issue's panic: `--no-default-features` is offered only when the crate's own feature is a link", () => {
    const text = why(d, { about: "panic" });
    expect(text).toContain(
      "The binary that panicked was built another way: another manifest or a different crate of the workspace.",
    );
    expect(text).not.toContain("--no-default-features");
    const forwards = parseManifest(
      '[features]\ndefault = ["training"]\ntraining = ["burn/train"]\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }\n',
    );
    const viaOwn = diagnose(forwards);
    expect(viaOwn.verdict).toBe("on");
    expect(why(viaOwn, { about: "panic" })).toContain(
      "another manifest, `--no-default-features`, or a different crate of the workspace.",
    );
  });

  it("the issue comment says the chain through burn-optim", () => {
    const body = renderIssueComment(analyze({ text: fixture("issues/pos-experiment-log.md") }))!;
    expect(body).toContain("`burn/burn-train` → `burn-optim` → `burn-core/autodiff`");
    expect(body).not.toContain("--no-default-features");
  });
});

describe("finding 14: a pre-dispatch manifest, as written, with no panic", () => {
  const d = diagnose(parseManifest(fixture("manifests/pre-dispatch-013.toml")));

  it("quotes the requirement as the manifest writes it, and invents no panic", () => {
    expect(d.verdict).toBe("pre-dispatch");
    const text = why(d);
    expect(text).toContain('`burn` with `version = "0.13.2"` has no `burn-dispatch`');
    expect(text).not.toContain('`burn = "0.13.2"`');
    expect(text).not.toContain("panicked");
  });

  it("a one-string requirement is quoted whole", () => {
    const text = why(diagnose(parseManifest('[dependencies]\nburn = "0.13.2"\n')));
    expect(text).toContain('`burn = "0.13.2"` has no `burn-dispatch`');
  });

  it("an issue's panic still says where the newer burn is", () => {
    expect(why(d, { about: "panic" })).toContain("The binary that panicked was built against a newer burn");
  });
});

describe("finding 11: an impl's E0277 is not an import", () => {
  const body = renderIssueComment(analyze({ text: fixture("issues/neg-compile-error-021.md") }))!;

  it("says no import sentence for a trait bound", () => {
    expect(body).toContain("The impl `<burn::Dispatch as burn::tensor::backend::AutodiffBackend>` sits under");
    expect(body).not.toContain("import");
  });

  it("says one list once when it is the same with and without default features, in no internal name", () => {
    expect(body.split('`features = ["autodiff", "dispatch"]`').length - 1).toBe(1);
    expect(body).toContain(
      'add `features = ["autodiff", "dispatch"]` to `burn`, with or without its default features.',
    );
    expect(body).not.toContain("burn-data");
  });
});

describe("finding 8: max_pool3d's dtype is quoted, and no conversion is asserted", () => {
  const a = analyze({ text: fixture("issues/pos-max-pool3d.md") });
  const body = renderIssueComment(a)!;

  it("keeps the printed dtype in the quote (the message's trailing placeholder)", () => {
    expect(body).toContain("`max_pool3d_backward: unsupported index dtype I16` is raised by");
  });

  it("a value with spaces after the message is not cut into the quote", () => {
    const text = fixture("issues/pos-max-pool3d.md").replace("dtype I16", "dtype QFloat(Scheme { x })");
    expect(renderIssueComment(analyze({ text }))).toContain("`max_pool3d_backward: unsupported index dtype` is raised");
  });

  it("says no conversion happened: only that the dtype is not one the backward handles", () => {
    expect(body).not.toContain("was converted");
    expect(body).toContain("If you converted the indices the forward op returned");
  });
});

describe('finding 13: version = "*" is judged at an assumed release, said once, and no removed feature is added', () => {
  const text = fixture("manifests/version-star.toml");
  const plan = planFix({ path: "Cargo.toml", text });

  it("the release is assumed, in the answer and in the words", () => {
    const d = plan.kind === "invalid-toml" ? null : plan.diagnosis;
    expect(d?.assumed.version).toEqual({ kind: "floating", key: "burn", requirement: "*", assumed: "0.21.0" });
    expect(assumptionText(d!.assumed.version!)).toContain("I assumed burn 0.21.0");
    if (plan.kind === "invalid-toml") return;
    expect(manifestAnswer(plan).assumed).toEqual([{ about: "version", kind: "floating", used: "0.21.0" }]);
  });

  it("offers no edit adding `dispatch`, which burn removed at a release `*` admits", () => {
    expect(plan.kind).toBe("no-fix");
    if (plan.kind !== "no-fix") return;
    expect(plan.reason).toContain("`dispatch`, which burn removed at 0.22.0-pre.1");
    expect(plan.reason).toContain('pin the version (`version = "0.21.0"`)');
  });

  it("a requirement with an upper bound is not assumed, and keeps its verified edit", () => {
    const bounded = planFix({ path: "Cargo.toml", text: text.replace('version = "*"', 'version = "0.21"') });
    expect(bounded.kind).toBe("fixed");
    if (bounded.kind === "invalid-toml") return;
    expect(bounded.diagnosis.assumed).toEqual({});
  });
});

describe("finding 18: a stub method the issue names is used, as the issue's words", () => {
  it.each(["pos-title-only", "pos-markdown-escaped", "pos-escaped-backticks", "pos-diff-snippet"])("%s", (name) => {
    const a = analyze({ text: fixture(`issues/${name}.md`) });
    const body = renderIssueComment(a)!;
    expect(body).toContain("your output shows no location, and the issue names `backward`, one of them.");
    expect(body).not.toContain("I cannot tell which one");
    expect(body).not.toContain("In your output it was `backward`");
    // The answer object says the same, with the issue's words as its evidence.
    const answer = answerIssue(a);
    const reached = answer.claims.find((c) => c.about === "reached-by");
    expect(reached?.subject).toBe("backward");
    expect(reached?.evidence[0]?.kind).toBe("issue-text");
  });

  it("two methods named, or none: still cannot tell", () => {
    const text = fixture("issues/pos-diff-snippet.md").replace(/backward\(\)/g, "x()");
    expect(renderIssueComment(analyze({ text }))).toContain("so I cannot tell which one");
    const both = `${fixture("issues/pos-diff-snippet.md")}\n\nAlso \`grad()\` fails.\n`;
    expect(renderIssueComment(analyze({ text: both }))).toContain("so I cannot tell which one");
  });
});
