// Where the review says a refused feature is, and what its suggestions do, judged by real cargo
// (1.95 here) on the whole workspace: a feature written on two lines of one file gets a suggestion
// on each line, and cargo accepts the manifest only with all of them; a member's inherited
// dev-dependency (`{ workspace = true, features = [...] }`) is checked at the root's release, on
// the PR review and on the issue path alike.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import type { ReviewResult } from "../../src/answer/review-answer.js";
import { planFix } from "../../src/cargo/fix/fix.js";
import { dirSnapshot } from "../../src/cli/review-dirs.js";
import { reviewAnswer, reviewPullRequest } from "../../src/render/review.js";
import { refusedText } from "../../src/render/review-words.js";
import { applySuggestions, cargoSays } from "../helpers/cargo-workspace.js";
import { root } from "../helpers/fixtures.js";
import { requireOrSkip, which } from "../helpers/services.js";

const RELEASE = "0.22.0-pre.2";
const repo = (name: string, side: "base" | "head") => join(root, "fixtures/repos", name, side);
const text = (name: string, path: string) => readFileSync(join(repo(name, "head"), path), "utf8");
const quiet = { stdout: () => {}, stderr: () => {} } as never;

/** The PR of a fixture's two checkouts, as the App sees it (a commit, check runs on). */
async function pr(name: string) {
  const s = await dirSnapshot(repo(name, "base"), repo(name, "head"), quiet);
  return { ...s, headSha: "b".repeat(40), options: { ...s.options, checkRun: true } };
}

const refusedOf = (results: ReviewResult[]) => results.find((r) => r.kind === "refused")!;

describe("the review's lines (fixtures/repos)", () => {
  it("renovate-two-lines: a suggestion on each line `server` is written on, an annotation on each", async () => {
    const s = await pr("renovate-two-lines");
    const r = refusedOf(reviewAnswer(s).results);
    expect(r.edit!.suggestions.map((x) => [x.startLine, x.endLine])).toEqual([
      [7, 7],
      [16, 16],
    ]);
    expect(r.refused!.map((x) => [x.path, x.line])).toEqual([
      ["Cargo.toml", 7],
      ["Cargo.toml", 16],
    ]);
    const actions = reviewPullRequest(s);
    expect(actions.review!.comments.map((c) => [c.start_line ?? c.line, c.line])).toEqual([
      [7, 7],
      [16, 16],
    ]);
    for (const c of actions.checks) expect(c.output.annotations!.map((a) => a.start_line)).toEqual([7, 16]);
  });

  it("renovate-two-lines: the review's summary says the refusal once for both lines", async () => {
    const r = refusedOf(reviewAnswer(await pr("renovate-two-lines")).results);
    expect(refusedText(r)).toBe("lines 7 and 16 ask `burn` 0.22.0-pre.2 for `server`, which it does not have");
  });

  it("workspace-dev-server: the member's inherited dev-dependency is refused on its own line, with the edit past it", async () => {
    const s = await pr("workspace-dev-server");
    const a = reviewAnswer(s);
    const r = refusedOf(a.results);
    expect(r).toMatchObject({ path: "crates/node/Cargo.toml", reported: true });
    expect(r.refused!.map((x) => [x.path, x.line, x.feature])).toEqual([["crates/node/Cargo.toml", 11, "server"]]);
    expect(r.edit!.suggestions.map((x) => x.lines)).toEqual([
      ['burn = { workspace = true, features = ["remote-websocket"] }'],
    ]);
    // The member is not in the PR's diff: the edit is a diff in the body, the check fails on its line.
    const actions = reviewPullRequest(s);
    expect(actions.review!.comments).toEqual([]);
    expect(actions.checks.map((c) => c.conclusion)).toEqual(actions.checks.map(() => "failure"));
    for (const c of actions.checks)
      expect(c.output.annotations).toEqual([
        expect.objectContaining({ path: "crates/node/Cargo.toml", start_line: 11, end_line: 11 }),
      ]);
  });

  it("workspace-dev-server on the issue path: `fix` on the member gets past cargo's refusal, `why` says it", () => {
    const member = { path: "crates/node/Cargo.toml", text: text("workspace-dev-server", "crates/node/Cargo.toml") };
    const rootFile = { path: "Cargo.toml", text: text("workspace-dev-server", "Cargo.toml") };
    const plan = planFix(member, { root: rootFile });
    expect(plan.kind === "invalid-toml" ? null : plan.diagnosis.verdict).toBe("refused");
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(plan.change.resolves?.renamed.map((x) => [x.feature, x.to])).toEqual([["server", "remote-websocket"]]);
  });
});

const dir = mkdtempSync(join(tmpdir(), "burn-triage-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

requireOrSkip(which("cargo"), "cargo")("cargo agrees with the review's lines", () => {
  it("renovate-two-lines: cargo refuses the head, accepts it with every suggestion, refuses it with the first alone", async () => {
    const head = text("renovate-two-lines", "Cargo.toml");
    const edit = refusedOf(reviewAnswer(await pr("renovate-two-lines")).results).edit!;
    expect(await cargoSays(dir, { "Cargo.toml": head }, RELEASE)).toMatch(/with feature `server`/);
    expect(await cargoSays(dir, { "Cargo.toml": applySuggestions(head, edit.suggestions) }, RELEASE)).toBeNull();
    const first = applySuggestions(head, edit.suggestions.slice(0, 1));
    expect(await cargoSays(dir, { "Cargo.toml": first }, RELEASE)).toMatch(/with feature `server`/);
  }, 60_000);

  it("workspace-dev-server: cargo refuses what the bot calls refused, and accepts the edit", async () => {
    const files = {
      "Cargo.toml": text("workspace-dev-server", "Cargo.toml"),
      "crates/node/Cargo.toml": text("workspace-dev-server", "crates/node/Cargo.toml"),
    };
    expect(await cargoSays(dir, files, RELEASE)).toMatch(/package `node` depends on `burn` with feature `server`/);
    const edit = refusedOf(reviewAnswer(await pr("workspace-dev-server")).results).edit!;
    const fixed = { ...files, [edit.path]: applySuggestions(files[edit.path as keyof typeof files], edit.suggestions) };
    expect(await cargoSays(dir, fixed, RELEASE)).toBeNull();
    // The issue path's edit (which also turns autodiff on in the member) is one cargo accepts too.
    const plan = planFix(
      { path: "crates/node/Cargo.toml", text: files["crates/node/Cargo.toml"] },
      {
        root: { path: "Cargo.toml", text: files["Cargo.toml"] },
      },
    );
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(await cargoSays(dir, { ...files, [plan.change.path]: plan.change.after }, RELEASE)).toBeNull();
  }, 60_000);
});

/** A Renovate-bumped manifest naming `server` in the given tables (0.21.0 → 0.22.0-pre.2). */
function bumped(tables: string[], v: string): string {
  const decl = (t: string) =>
    `[${t}]\nburn = { version = "${v}", default-features = false, features = ["std", "server"] }\n`;
  return `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n${tables.map(decl).join("\n")}`;
}

requireOrSkip(which("cargo"), "cargo")("cargo agrees on every table burn is bumped in", () => {
  it.each([
    [["dependencies", "dev-dependencies"]],
    [["dev-dependencies"]],
    [["build-dependencies"]],
    [["dependencies", "target.'cfg(unix)'.dependencies", "build-dependencies"]],
  ])(
    "%j: refused by both, each line a suggestion, accepted by cargo with all of them",
    async (tables) => {
      const base = bumped(tables, "0.21.0");
      const head = bumped(tables, RELEASE);
      const s = {
        repo: { owner: "alice", repo: "app" },
        headSha: "b".repeat(40),
        changed: [{ path: "Cargo.toml", status: "modified", patch: wholeDiff(head) }],
        base: { "Cargo.toml": base },
        head: { "Cargo.toml": head },
        tree: ["Cargo.toml", "src/lib.rs"],
        evidence: {},
        previous: { review: null, checkRuns: {} },
        notices: [],
        options: { checkRun: true, conclusion: "neutral" as const, reviewBurnRepo: false },
      };
      const r = refusedOf(reviewAnswer(s).results);
      expect(await cargoSays(dir, { "Cargo.toml": head }, RELEASE)).toMatch(/with feature `server`/);
      expect(r.edit!.suggestions).toHaveLength(tables.length);
      expect(await cargoSays(dir, { "Cargo.toml": applySuggestions(head, r.edit!.suggestions) }, RELEASE)).toBeNull();
    },
    60_000,
  );
});

/** A patch that shows every head line (the review may comment anywhere). */
function wholeDiff(head: string): string {
  const lines = head.split("\n");
  return `@@ -1,${lines.length} +1,${lines.length} @@\n${lines.map((l) => ` ${l}`).join("\n")}`;
}

requireOrSkip(which("cargo"), "cargo")("a feature in the root's entry and in the member's inherited one", () => {
  it("is refused by cargo until both lines are edited (why the review names both and offers no one-file edit)", async () => {
    const rootText = (f: string) =>
      `[workspace]\nmembers = ["crates/node"]\nresolver = "2"\n\n[workspace.dependencies]\nburn = { version = "${RELEASE}", default-features = false, features = ["std", "${f}"] }\n`;
    const member = (f: string) =>
      `[package]\nname = "node"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nburn = { workspace = true, features = ["${f}"] }\n`;
    const at = (r: string, m: string) => ({ "Cargo.toml": rootText(r), "crates/node/Cargo.toml": member(m) });
    const plan = planFix(
      { path: "crates/node/Cargo.toml", text: member("server") },
      { root: { path: "Cargo.toml", text: rootText("server") } },
    );
    expect(
      plan.kind === "invalid-toml"
        ? []
        : plan.diagnosis.refused?.map((r) => [r.line, r.where.kind === "dependency" && r.where.inRoot]),
    ).toEqual([
      [6, true],
      [7, false],
    ]);
    expect(await cargoSays(dir, at("server", "server"), RELEASE)).toMatch(/with feature `server`/);
    expect(await cargoSays(dir, at("remote-websocket", "server"), RELEASE)).toMatch(/with feature `server`/);
    expect(await cargoSays(dir, at("server", "remote-websocket"), RELEASE)).toMatch(/with feature `server`/);
    expect(await cargoSays(dir, at("remote-websocket", "remote-websocket"), RELEASE)).toBeNull();
  }, 60_000);
});
