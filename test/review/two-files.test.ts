// One edit over two files: a workspace root's `[workspace.dependencies]` burn entry and a member's
// own `{ workspace = true, features = [...] }` both naming a feature the bumped release removed.
// Neither file's change alone gets past cargo, so the edit covers both, is verified on the two
// together, and every surface shows both halves: the PR review a suggestion per file it can
// comment on (the other file's change in the body when the PR does not change that file), the
// issue comment, `fix` and `--json` one diff with a header per file. Real cargo agrees.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { manifestAnswer } from "../../src/answer/answer-edit.js";
import type { ReviewResult } from "../../src/answer/review-answer.js";
import { planFix } from "../../src/cargo/fix/fix.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { renderPrActions, reviewAnswer, reviewPullRequest } from "../../src/render/review.js";
import type { PrSnapshot } from "../../src/review/pull-request.js";
import { applySuggestions, cargoSays } from "../helpers/cargo-workspace.js";
import { requireOrSkip, which } from "../helpers/services.js";

const RELEASE = "0.22.0-pre.2";
const rootText = (v: string, f: string) =>
  `[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n\n[workspace.dependencies]\nburn = { version = "${v}", default-features = false, features = ["std", "wgpu", "${f}"] }\n`;
const memberText = (f: string) =>
  `[package]\nname = "node"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nburn = { workspace = true, features = ["${f}"] }\n`;
const ROOT = rootText(RELEASE, "server");
const MEMBER = memberText("server");
const rootPatch = `@@ -5,2 +5,2 @@\n [workspace.dependencies]\n-burn = { version = "0.21.0", default-features = false, features = ["std", "wgpu", "server"] }\n+burn = { version = "${RELEASE}", default-features = false, features = ["std", "wgpu", "server"] }\n`;
const memberPatch = `@@ -6,2 +6,2 @@\n [dependencies]\n-burn = { workspace = true }\n+burn = { workspace = true, features = ["server"] }\n`;

/** The Renovate bump of the root; with `member`, the PR adds `server` to the member's entry too. */
function pr(member: boolean): PrSnapshot {
  const changed = [
    { path: "Cargo.toml", status: "modified", patch: rootPatch },
    ...(member ? [{ path: "crates/node/Cargo.toml", status: "modified", patch: memberPatch }] : []),
  ];
  const base = {
    "Cargo.toml": rootText("0.21.0", "server"),
    "crates/node/Cargo.toml": member ? memberText("x").replace(', features = ["x"]', "") : MEMBER,
  };
  return {
    repo: { owner: "alice", repo: "node" },
    headSha: "b".repeat(40),
    changed,
    base,
    head: { "Cargo.toml": ROOT, "crates/node/Cargo.toml": MEMBER },
    tree: ["Cargo.toml", "crates/node/Cargo.toml", "crates/node/src/lib.rs"],
    evidence: { autodiff: { "crates/node/Cargo.toml": null } },
    previous: { review: null, checkRuns: {} },
    notices: [],
    options: { checkRun: true, conclusion: "neutral", reviewBurnRepo: false },
  } as PrSnapshot;
}

const refusedOf = (results: ReviewResult[]) => results.find((r) => r.kind === "refused")!;

/** The root's bump alone, with two members (`a`, `b`) each naming `server` in their own entry. */
function twoMembers(): PrSnapshot {
  const s = pr(false);
  const named = (n: string) => memberText("server").replace('name = "node"', `name = "${n}"`);
  const members = { "crates/a/Cargo.toml": named("a"), "crates/b/Cargo.toml": named("b") };
  return {
    ...s,
    base: { "Cargo.toml": s.base["Cargo.toml"]!, ...members },
    head: { "Cargo.toml": ROOT, ...members },
    tree: ["Cargo.toml", ...Object.keys(members)],
    evidence: {},
  };
}
const headers = (diff: string) => [...diff.matchAll(/^\+\+\+ (\S+)/gm)].map((m) => m[1]);
const ONLY_ON_DIFF = "GitHub accepts suggestions only on lines of the PR's diff";

describe("a removed feature in the root's entry and in the member's own", () => {
  it("the root alone in the PR: a suggestion on the root's line, the member's change in the body, said once", () => {
    const s = pr(false);
    const r = refusedOf(reviewAnswer(s).results);
    expect([r.edit!.path, r.edit!.suggestions.map((x) => x.startLine), r.onLines]).toEqual(["Cargo.toml", [6], true]);
    expect(r.edit!.others!.map((o) => [o.path, o.onLines, o.suggestions.map((x) => x.startLine)])).toEqual([
      ["crates/node/Cargo.toml", false, [7]],
    ]);
    expect(headers(r.edit!.diff)).toEqual(["Cargo.toml", "crates/node/Cargo.toml"]);
    const review = reviewPullRequest(s).review!;
    expect(review.comments.map((c) => [c.path, c.line])).toEqual([["Cargo.toml", 6]]);
    expect(review.comments[0]!.body).toContain('"remote-websocket"] }');
    expect(review.comments[0]!.body).toContain("Its change to `crates/node/Cargo.toml` is in the review's body.");
    // The comment sits on the root's line: the member's place is named with its file, not as "line 7".
    expect(review.comments[0]!.body).toContain(
      "Cargo would refuse `crates/node/Cargo.toml` before building anything. Your workspace root's `burn` entry (which `crates/node/Cargo.toml` inherits) and line 7 of `crates/node/Cargo.toml` ask",
    );
    expect(review.body.split(ONLY_ON_DIFF).length - 1).toBe(1);
    expect(review.body).toContain(
      "The suggestion on line 6 and the change to `crates/node/Cargo.toml` below get past it together.",
    );
    expect(review.body).toContain(
      '+++ crates/node/Cargo.toml\n@@ -6,2 +6,2 @@\n [dependencies]\n-burn = { workspace = true, features = ["server"] }\n+burn = { workspace = true, features = ["remote-websocket"] }',
    );
  });

  it("two members naming it too: one edit, the root's line with both members' changes (cargo builds the workspace whole)", () => {
    const s = twoMembers();
    const refused = reviewAnswer(s).results.filter((r) => r.kind === "refused" && r.reported);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.edit!.path).toBe("Cargo.toml");
    expect(refused[0]!.edit!.others!.map((o) => [o.path, o.onLines])).toEqual([
      ["crates/a/Cargo.toml", false],
      ["crates/b/Cargo.toml", false],
    ]);
    const review = reviewPullRequest(s).review!;
    expect(review.comments[0]!.body).toContain(
      "Its changes to `crates/a/Cargo.toml` and `crates/b/Cargo.toml` are in the review's body.",
    );
    expect(review.body).toContain("+++ crates/b/Cargo.toml");
    // Each member's own line is a refused item: said in the bullet and annotated in its file.
    expect(refused[0]!.refused!.map((x) => [x.path, x.line])).toEqual([
      ["Cargo.toml", 6],
      ["crates/a/Cargo.toml", 7],
      ["crates/b/Cargo.toml", 7],
    ]);
    expect(review.body).toContain(
      "- `Cargo.toml`: the workspace's `burn` entry, `crates/a/Cargo.toml` line 7 and `crates/b/Cargo.toml` line 7 ask `burn` 0.22.0-pre.2 for `server`, which it does not have.",
    );
    const checks = renderPrActions(reviewAnswer(s)).checks;
    const failures = checks.flatMap((c) => c.output.annotations ?? []).filter((n) => n.annotation_level === "failure");
    expect(new Set(failures.map((n) => `${n.path}:${n.start_line}`))).toEqual(
      new Set(["Cargo.toml:6", "crates/a/Cargo.toml:7", "crates/b/Cargo.toml:7"]),
    );
  });

  it("both files in the PR: one suggestion per file, 'commit them together' said once", () => {
    const review = reviewPullRequest(pr(true)).review!;
    expect(review.comments.map((c) => [c.path, c.line])).toEqual([
      ["crates/node/Cargo.toml", 7],
      ["Cargo.toml", 6],
    ]);
    const together = review.comments.filter((c) => c.body.includes("commit them together"));
    expect(together.map((c) => c.path)).toEqual(["crates/node/Cargo.toml"]);
    expect(together[0]!.body).toContain("2 suggestions, on `crates/node/Cargo.toml` line 7 and `Cargo.toml` line 6");
    expect(review.body).not.toContain(ONLY_ON_DIFF);
    expect(review.body).toContain(
      "The suggestions on `crates/node/Cargo.toml` line 7 and `Cargo.toml` line 6 get past it.",
    );
  });

  it("the issue path (`fix`, --json): one edit whose diff has a header per file, the other file named", () => {
    const plan = planFix(
      { path: "crates/node/Cargo.toml", text: MEMBER },
      { root: { path: "Cargo.toml", text: ROOT } },
    );
    if (plan.kind !== "fixed") throw new Error(`${plan.kind}: ${plan.kind === "no-fix" ? plan.reason : ""}`);
    const edit = manifestAnswer(plan).edits[0]!;
    expect([edit.path, edit.line, edit.others]).toEqual([
      "crates/node/Cargo.toml",
      7,
      [{ path: "Cargo.toml", line: 6 }],
    ]);
    expect(headers(edit.diff)).toEqual(["Cargo.toml", "crates/node/Cargo.toml"]);
    // `server` written in both files is one rename of the edit, said once.
    const renames = edit.changes.filter((c) => c.op === "rename");
    expect(renames.map((c) => [c.feature, c.to])).toEqual([["server", "remote-websocket"]]);
  });

  it("the issue comment: both pasted manifests' changes in one diff, each patch with its header, said which is which", () => {
    const toml = (t: string) => `\n\n\`\`\`toml\n${t}\`\`\`\n`;
    const text = `After bumping burn cargo fails:\n\n\`\`\`\nerror: failed to select a version for \`burn\`.\npackage \`node\` depends on \`burn\` with feature \`server\` but \`burn\` does not have that feature.\n\`\`\`\n\nThe root:${toml(ROOT)}\nThe member:${toml(MEMBER)}`;
    const body = renderIssueComment(analyze({ text }))!;
    expect(body).toContain(
      "**Fix** — the member's `Cargo.toml` (the first patch) and the workspace root `Cargo.toml` (the second patch), together (either change alone is still refused):",
    );
    const diff = /```diff\n([\s\S]*?)```/.exec(body)![1]!;
    expect(diff.match(/^\+\+\+ Cargo.toml$/gm)).toHaveLength(2);
    expect(diff).toMatch(
      /\+burn = \{ workspace = true, features = \["remote-websocket"\] \}\n--- Cargo.toml\n\+\+\+ Cargo.toml\n@@ -5,2 \+5,2 @@/,
    );
  });
});

const dir = mkdtempSync(join(tmpdir(), "burn-triage-two-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

requireOrSkip(which("cargo"), "cargo")("cargo on the whole workspace", () => {
  it("accepts the two-file edit and refuses either half alone", async () => {
    const r = refusedOf(reviewAnswer(pr(false)).results);
    const rootFixed = applySuggestions(ROOT, r.edit!.suggestions);
    const memberFixed = applySuggestions(MEMBER, r.edit!.others![0]!.suggestions);
    const ws = (root: string, member: string) => ({ "Cargo.toml": root, "crates/node/Cargo.toml": member });
    expect(await cargoSays(dir, ws(ROOT, MEMBER), RELEASE)).toMatch(/with feature `server`/);
    expect(await cargoSays(dir, ws(rootFixed, memberFixed), RELEASE)).toBeNull();
    expect(await cargoSays(dir, ws(rootFixed, MEMBER), RELEASE)).toMatch(/with feature `server`/);
    expect(await cargoSays(dir, ws(ROOT, memberFixed), RELEASE)).toMatch(/with feature `server`/);
    // Two members naming it: the root's change with one member's is still refused; with both, accepted.
    const e = refusedOf(reviewAnswer(twoMembers()).results).edit!;
    const h = twoMembers().head;
    const three = (...which: string[]) =>
      Object.fromEntries(
        Object.entries(h as Record<string, string>).map(([p, t]) => {
          const o = e.others!.find((x) => x.path === p);
          const edited = p === "Cargo.toml" ? applySuggestions(t, e.suggestions) : applySuggestions(t, o!.suggestions);
          return [p, which.includes(p) ? edited : t];
        }),
      );
    expect(await cargoSays(dir, three("Cargo.toml", "crates/a/Cargo.toml"), RELEASE)).toMatch(/with feature `server`/);
    expect(await cargoSays(dir, three("Cargo.toml", "crates/a/Cargo.toml", "crates/b/Cargo.toml"), RELEASE)).toBeNull();
    // The issue path's edit (the member's text and the root's) is the one cargo accepts too.
    const plan = planFix(
      { path: "crates/node/Cargo.toml", text: MEMBER },
      { root: { path: "Cargo.toml", text: ROOT } },
    );
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(await cargoSays(dir, ws(plan.change.others![0]!.after, plan.change.after), RELEASE)).toBeNull();
  }, 60_000);
});
