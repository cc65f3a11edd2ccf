// Issue 53, the issue comment's part (the maintainer's findings 10 and 17, a typo near two names,
// and the folded verification said once). Each case is a real-shaped fixture and fails when its
// rule is removed.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { answerIssue } from "../../src/answer/answer.js";
import { planFix } from "../../src/cargo/fix/fix.js";
import { renderAnswerComment } from "../../src/render/issue.js";
import { fixture } from "../helpers/fixtures.js";

const answerOf = (name: string) => answerIssue(analyze({ text: fixture(`issues/${name}`) }));
const commentOf = (name: string) => renderAnswerComment(answerOf(name))!;

/** The first words of each `<summary>` and of the paragraph folded under it. */
function foldedOpenings(body: string): Array<{ summary: string; next: string }> {
  return [...body.matchAll(/<details><summary>([^<]*)<\/summary>\n\n([^\n]*)/g)].map((m) => ({
    summary: m[1]!,
    next: m[2]!.replace(/^<sub>/, ""),
  }));
}

describe("the folded verification says its graph once", () => {
  it("the line under `Verified on burn X` does not start with the same words", () => {
    const body = commentOf("pos-html-entities.md");
    const folds = foldedOpenings(body).filter((f) => f.summary.startsWith("Verified on"));
    expect(folds.length).toBe(1);
    for (const f of folds) expect(f.next.split(" ").slice(0, 3)).not.toEqual(f.summary.split(" ").slice(0, 3));
    expect(body).toContain("Its feature graph from the bundled data");
  });
});

describe("finding 10: a backend already on is no way out, and the GPU the issue asks for narrows the choice", () => {
  const GPU = ["cuda", "metal", "rocm", "tch", "vulkan", "webgpu", "wgpu"];

  it("pos-prose-pasted: `flex` (on through `train`) leaves the choice; the GPU backends remain, in text and JSON", () => {
    const answer = answerOf("pos-prose-pasted.md");
    expect(answer.target.choices).toEqual(GPU);
    expect(answer.edits.map((e) => e.forFeature)).toEqual(GPU);
    const detail = answer.detail?.kind === "panic" ? answer.detail : null;
    expect(detail?.alreadyOn.map((o) => o.feature)).toEqual(["flex"]);
    expect(detail?.alreadyOn[0]?.chain[0]).toBe("burn/train");
    expect(detail?.alreadyOn[0]?.chain.at(-1)).toBe("burn-dispatch/flex");
    expect(answer.claims.find((c) => c.about === "already-on")?.subject).toBe("burn-dispatch/flex");
    expect(answer.claims.find((c) => c.about === "gpu-backends")?.evidence[0]?.detail).toBe(
      "I expected it to pick the GPU.",
    );
    const body = renderAnswerComment(answer)!;
    expect(body.split("already turns on `flex`").length - 1).toBe(1);
    expect(body).not.toMatch(/any one of [^.]*`"?flex"?`[^.]*(is a way out|is verified)/i);
    expect(body).toContain("The issue says the GPU");
    expect(body).not.toContain("Nothing in the issue says which one");
    expect(body).not.toContain("The data records no");
  });

  const withoutGpu = fixture("issues/pos-prose-pasted.md").replace(" I expected it to pick the GPU.", "");

  it("without the GPU in the prose, every backend but the one already on stays a choice", () => {
    const answer = answerIssue(analyze({ text: withoutGpu }));
    expect(answer.target.choices).toEqual([
      "cpu",
      "cuda",
      "metal",
      "ndarray",
      "remote",
      "rocm",
      "tch",
      "vulkan",
      "webgpu",
      "wgpu",
    ]);
    const body = renderAnswerComment(answer)!;
    expect(body).toContain("Nothing in the issue says which one");
    expect(body.split("already turns on `flex`").length - 1).toBe(1);
  });

  it("a GPU the prose says the machine lacks narrows nothing", () => {
    const text = withoutGpu.replace("exits with code 101.", "exits with code 101. There is no GPU on this box.");
    expect(answerIssue(analyze({ text })).target.choices).toContain("cpu");
  });
});

describe("finding 17: the hypothetical Cargo.toml line has the features the issue names", () => {
  const cases = [
    { name: "pos-html-entities.md", feature: "cuda" },
    { name: "pos-wrapped-message.md", feature: "wgpu" },
  ];
  for (const { name, feature } of cases)
    it(`${name}: the line has \`${feature}\`, said once as the issue's, in text and JSON`, () => {
      const answer = answerOf(name);
      const m = answer.detail?.kind === "panic" ? answer.detail.manifest : null;
      expect(m?.origin).toBe("assumed");
      expect(m?.named?.features).toEqual([feature]);
      const body = renderAnswerComment(answer)!;
      expect(body).toContain(
        `-burn = { version = "0.22.0-pre.2", default-features = false, features = ["${feature}"] }\n+burn = { version = "0.22.0-pre.2", default-features = false, features = ["${feature}", "autodiff"] }`,
      );
      expect(body.split("as the issue says").length - 1).toBe(1);
      expect(answer.edits[0]?.verification.status).toBe("verified");
      expect(answer.claims.find((c) => c.about === "manifest-verdict")?.evidence.at(-1)?.kind).toBe("issue-text");
    });

  const stub = fixture("issues/pos-html-entities.md");
  const lineOf = (text: string) => {
    const m = answerIssue(analyze({ text })).detail;
    return m?.kind === "panic" ? m.manifest : null;
  };

  it("a feature the prose says is off is not put on the line", () => {
    const text = stub.replace("with `cuda` only.", "with `cuda`, and I did not enable `std`.");
    expect(lineOf(text)?.named).toBeNull();
  });

  it("a name burn does not have at that release is left out; with none left, the usual `std` line", () => {
    expect(lineOf(stub.replace("`cuda` only", "`cuda` and `fast-math` only"))?.named?.features).toEqual(["cuda"]);
    const none = lineOf(stub.replace("`cuda` only", "`fast-math` only"));
    expect(none?.named).toBeNull();
    expect(none?.plan.kind === "fixed" && none.plan.change.diff).toContain('features = ["std"]');
  });
});

describe("a typo near two feature names (`rocn`: `rocm` or `doc`): each is its own verified edit", () => {
  const text = `\`\`\`\n${fixture("cargo/refusal-typo-rocn-0.22-build.txt")}\`\`\`\n\n\`\`\`toml\n[package]\nname = "myapp"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "rocn"] }\n\`\`\`\n`;
  const line = (f: string) =>
    `+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "${f}"] }`;

  it("two diffs, the nearer (`rocm`) first, each verified; the typo said once, none chosen", () => {
    const answer = answerIssue(analyze({ text }));
    expect(answer.edits.map((e) => e.changes[0]?.to)).toEqual(["rocm", "doc"]);
    expect(answer.edits.map((e) => e.verification.status)).toEqual(["verified", "verified"]);
    const body = renderAnswerComment(answer)!;
    expect(body.indexOf(line("rocm"))).toBeGreaterThan(0);
    expect(body.indexOf(line("doc"))).toBeGreaterThan(body.indexOf(line("rocm")));
    expect(body).toContain("**Fix** — `Cargo.toml`, line 5, if you meant `rocm`:");
    expect(body).toContain("**Or** — `Cargo.toml`, line 5, if you meant `doc`:");
    expect(body.split("taken as a typo of one of the names").length - 1).toBe(1);
    expect(body).not.toContain("the one name of that release near it");
    expect(body).not.toContain("I found no verified one-line fix");
  });

  it("without the issue's choice of a name, the plan still picks none (a PR review's edit is unchanged)", () => {
    const plan = (typos?: Record<string, string>) =>
      planFix(
        { path: "Cargo.toml", text: '[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["rocn"] }\n' },
        typos ? { typos } : {},
      );
    expect(plan().kind).toBe("no-fix");
    const doc = plan({ rocn: "doc" });
    expect(doc.kind === "fixed" ? doc.change.resolves?.renamed : null).toEqual([
      { feature: "rocn", to: "doc", others: ["rocm"], typo: true },
    ]);
    // A name that is not near it is never taken.
    expect(plan({ rocn: "cuda" }).kind).toBe("no-fix");
  });
});
