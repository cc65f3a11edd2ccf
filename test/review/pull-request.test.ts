// The pure core of PR review, table-driven from fixtures/prs/cases.yml, plus the properties a
// table cannot show: member order does not matter, and caps are said.
import { describe, expect, it } from "@jest/globals";
import { load } from "js-yaml";
import { markedReviewState, reviewPullRequest } from "../../src/render/review.js";
import { decidePullRequest, manifestReads, type PrSnapshot } from "../../src/review/pull-request.js";
import { fixture } from "../helpers/fixtures.js";
import { caseSnapshot, HEAD } from "../support/review-surfaces.js";

interface Case {
  name: string;
  changed: PrSnapshot["changed"];
  base: Record<string, string>;
  head: Record<string, string>;
  tree: string[];
  evidence: PrSnapshot["evidence"];
  options?: Partial<PrSnapshot["options"]>;
  expect: {
    review: boolean;
    /** The conclusion of each check run written, by rule id. */
    checks: Record<string, string>;
    body_contains?: string[];
    body_lacks?: string[];
    comment_contains?: string[];
    comment_lacks?: string[];
    check_contains?: string[];
    comments?: number;
  };
}

const cases = load(fixture("prs/cases.yml")) as Case[];

describe("reviewPullRequest over real-style PRs", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const a = reviewPullRequest(caseSnapshot(c));
    expect(a.review !== null).toBe(c.expect.review);
    expect(Object.fromEntries(a.checks.map((x) => [x.name.replace("burn-triage / ", ""), x.conclusion]))).toEqual(
      c.expect.checks,
    );
    for (const s of c.expect.body_contains ?? []) expect(a.review?.body).toContain(s);
    for (const s of c.expect.body_lacks ?? []) expect(a.review?.body).not.toContain(s);
    for (const s of c.expect.comment_contains ?? [])
      expect(a.review?.comments.map((x) => x.body).join("\n")).toContain(s);
    for (const s of c.expect.comment_lacks ?? [])
      expect(a.review?.comments.map((x) => x.body).join("\n")).not.toContain(s);
    // The summary, and the annotations on the lines (where a manifest's failure is said).
    for (const s of c.expect.check_contains ?? [])
      expect(
        a.checks.map((x) => `${x.output.summary}\n${JSON.stringify(x.output.annotations ?? [])}`).join("\n"),
      ).toContain(s);
    if (c.expect.comments !== undefined) expect(a.review?.comments).toHaveLength(c.expect.comments);
    if (a.review) expect(markedReviewState(a.review.body)).toMatchObject({ sha: HEAD, state: "open" });
  });
});

/** A root change that turns autodiff off for two members: one trains, one only infers. */
function twoMembers(trainer: string, infer: string): PrSnapshot {
  const root = (off: boolean) =>
    `[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2"${off ? ", default-features = false" : ""}, features = ["std"] }\n`;
  const member = (name: string) =>
    `[package]\nname = "${name}"\nversion = "0.1.0"\n\n[dependencies]\nburn = { workspace = true, features = ["wgpu"] }\n`;
  const files = (off: boolean) => ({
    "Cargo.toml": root(off),
    [`crates/${trainer}/Cargo.toml`]: member(trainer),
    [`crates/${infer}/Cargo.toml`]: member(infer),
  });
  return caseSnapshot({
    changed: [
      {
        path: "Cargo.toml",
        status: "modified",
        patch:
          '@@ -4,2 +4,2 @@\n [workspace.dependencies]\n-burn = { version = "0.22.0-pre.2", features = ["std"] }\n+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }',
      },
    ],
    base: files(false),
    head: files(true),
    tree: Object.keys(files(true)),
    evidence: {
      autodiff: {
        [`crates/${trainer}/Cargo.toml`]: { path: `crates/${trainer}/src/train.rs`, line: 4, what: ".backward()" },
        [`crates/${infer}/Cargo.toml`]: null,
      },
    },
  });
}

describe("properties", () => {
  it("members ordered either way give the same review: the one that trains is the regression", () => {
    const a = reviewPullRequest(twoMembers("a-trainer", "z-infer"));
    const b = reviewPullRequest(twoMembers("z-trainer", "a-infer"));
    const norm = (s: string | undefined) => s?.replace(/[az]-(trainer|infer)/g, "$1");
    expect(a.review).not.toBeNull();
    expect(norm(a.review?.body)).toBe(norm(b.review?.body));
    expect(norm(a.review?.comments[0]?.body)).toBe(norm(b.review?.comments[0]?.body));
    expect(a.review?.body).toContain("crates/a-trainer/Cargo.toml");
    expect(b.review?.body).not.toContain("crates/a-infer/Cargo.toml");
    expect([a.checks.map((c) => c.conclusion), b.checks.map((c) => c.conclusion)]).toEqual([["neutral"], ["neutral"]]);
  });

  it("both members training are both named, in one suggestion on the root's line", () => {
    const s = twoMembers("trainer", "viz");
    s.evidence.autodiff!["crates/viz/Cargo.toml"] = { path: "crates/viz/src/lib.rs", line: 2, what: "AutodiffBackend" };
    const a = reviewPullRequest(s);
    expect(a.review?.comments).toHaveLength(1);
    expect(a.review?.body).toContain(
      "for `crates/trainer/Cargo.toml` and `crates/viz/Cargo.toml`, which inherit `burn` from this workspace",
    );
  });

  it("the reads a root change needs are its members, in a stable order", () => {
    expect(manifestReads(twoMembers("z-trainer", "a-infer"))).toEqual([
      "crates/a-infer/Cargo.toml",
      "crates/z-trainer/Cargo.toml",
    ]);
  });

  it("a cap that was hit is said in the review and in the check", () => {
    const s = twoMembers("trainer", "infer");
    s.notices = ["this PR changes 12 Cargo.toml files; I reviewed the first 10 (2 not checked)"];
    const a = reviewPullRequest(s);
    expect(a.review?.body).toContain("> **Note:** this PR changes 12 Cargo.toml files");
    expect(a.checks[0]?.output.summary).toContain("2 not checked");
  });

  it("the decision is data: problems, the check's conclusion, the review's transitions, no words", () => {
    const s = twoMembers("trainer", "infer");
    const d = decidePullRequest({
      ...s,
      previous: {
        review: { id: 7, sha: "c".repeat(40), state: "open", rules: ["autodiff"] },
        checkRuns: { autodiff: 3 },
      },
    });
    expect(d).toMatchObject({
      silent: null,
      review: true,
      checks: [{ rule: "autodiff", existingId: 3, conclusion: "neutral" }],
      previous: { id: 7, state: "superseded", rules: ["autodiff"] },
    });
    expect(d.problems.map((p) => p.kind)).toEqual(["regression"]);
    expect(d.suggestions).toHaveLength(1);
    // Nothing in it is Markdown the renderer would have to parse back.
    const facts = JSON.stringify(d, (k, v) =>
      k === "nodes" || k === "parent" || k === "ast" || k === "text" || k === "before" || k === "after" || k === "diff"
        ? undefined
        : v,
    );
    expect(facts).not.toMatch(/\*\*|<!--|```|`/);
    const fixed = decidePullRequest({
      ...s,
      head: { ...s.head, ...s.base },
      previous: { review: { id: 7, sha: HEAD, state: "open", rules: ["autodiff"] }, checkRuns: {} },
    });
    expect(fixed).toMatchObject({ review: false, previous: { id: 7, state: "fixed" } });
  });

  it("a redelivery for a reviewed head posts no second review; a new head supersedes the open one", () => {
    const s = twoMembers("trainer", "infer");
    expect(
      reviewPullRequest({
        ...s,
        previous: { review: { id: 7, sha: HEAD, state: "open", rules: ["autodiff"] }, checkRuns: { autodiff: 3 } },
      }),
    ).toMatchObject({ review: null, updateReview: null, checks: [{ existingId: 3 }] });
    const next = reviewPullRequest({
      ...s,
      previous: { review: { id: 7, sha: "c".repeat(40), state: "open", rules: ["autodiff"] }, checkRuns: {} },
    });
    expect(next.review).not.toBeNull();
    expect(next.updateReview?.id).toBe(7);
    expect(markedReviewState(next.updateReview?.body)).toEqual({ sha: HEAD, state: "superseded", rules: ["autodiff"] });
  });
});
