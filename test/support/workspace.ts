// A Renovate-shaped pull request on a generated Cargo workspace, for the tests and the benchmark of
// PR reads: the root's `[workspace.dependencies]` moves burn 0.21.0 → 0.22.0-pre.2, one member is
// edited, and (optionally) one member deep in the list forwards `burn/collective`, which burn
// removed at 0.22.0-pre.1.
import { readdirSync } from "node:fs";
import type { FakeRepo, PrFile } from "./fake-github.js";
import { BASE_SHA, fixturesDir, fixtureText, HEAD_SHA, webhook } from "./scenario.js";

const root = (version: string) =>
  `[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n\n[workspace.dependencies]\nburn = { version = "${version}" }\n`;

export const memberName = (i: number) => `m${String(i).padStart(4, "0")}`;

function member(i: number, collective: boolean, edited: boolean): string {
  const features = collective ? `\n[features]\ndistributed = ["burn/collective"]\n` : "";
  const extra = edited ? `\nserde = "1"\n` : "";
  return `[package]\nname = "${memberName(i)}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nburn = { workspace = true }\n${extra}${features}`;
}

const rootPatch =
  '@@ -5,2 +5,2 @@\n [workspace.dependencies]\n-burn = { version = "0.21.0" }\n+burn = { version = "0.22.0-pre.2" }';

/** The workspace of `n` members as the fake serves it, and PR 12's file list. */
export function workspaceRepo(n: number, opts: { collectiveAt?: number; edited?: number } = {}): FakeRepo {
  const files: Record<string, string> = {
    [`${BASE_SHA}:Cargo.toml`]: root("0.21.0"),
    [`${HEAD_SHA}:Cargo.toml`]: root("0.22.0-pre.2"),
  };
  for (let i = 1; i <= n; i++) {
    const dir = `crates/${memberName(i)}`;
    const collective = i === opts.collectiveAt;
    files[`${BASE_SHA}:${dir}/Cargo.toml`] = member(i, collective, false);
    files[`${HEAD_SHA}:${dir}/Cargo.toml`] = member(i, collective, i === opts.edited);
    files[`${HEAD_SHA}:${dir}/src/lib.rs`] = `pub fn ${memberName(i)}() {}\n`;
  }
  const prFiles = [{ filename: "Cargo.toml", status: "modified", patch: rootPatch }];
  if (opts.edited !== undefined)
    prFiles.push({
      filename: `crates/${memberName(opts.edited)}/Cargo.toml`,
      status: "modified",
      patch: '@@ -7,1 +7,3 @@\n burn = { workspace = true }\n+\n+serde = "1"',
    });
  return { files, prFiles: { 12: prFiles } };
}

/**
 * burn's own PR #4717 as the fake serves it: its 628 changed files (patches of the Cargo.toml
 * ones), the head's tree (1,987 paths; files other than manifests are empty), every Cargo.toml of
 * burn's repository at the PR's base and head (fixtures/repos/burn-4717), and the base's tree as
 * the file list implies it (a file the PR modifies differs there, one it removes or renames is
 * there), so that comparing the trees finds what GitHub lists.
 */
export function burnPrRepo(opts: { reviewBurnRepo?: boolean } = {}): FakeRepo {
  const dir = "repos/burn-4717";
  const files: Record<string, string> = {};
  const manifests = { head: new Map<string, string>(), base: new Map<string, string>() };
  for (const side of ["head", "base"] as const)
    for (const p of readdirSync(`${fixturesDir}${dir}/${side}`, { recursive: true, encoding: "utf8" }))
      if (p.endsWith("Cargo.toml")) manifests[side].set(p, fixtureText(`${dir}/${side}/${p}`));
  const prFiles = JSON.parse(fixtureText(`${dir}/files.json`)) as PrFile[];
  const listed = new Map(prFiles.map((f) => [f.filename, f]));
  const baseText = (p: string, modified: boolean) => manifests.base.get(p) ?? (modified ? "(base)\n" : "");
  for (const p of fixtureText(`${dir}/tree.txt`).split("\n").filter(Boolean)) {
    files[`${HEAD_SHA}:${p}`] = manifests.head.get(p) ?? "";
    const f = listed.get(p);
    if (!f) files[`${BASE_SHA}:${p}`] = files[`${HEAD_SHA}:${p}`]!;
    else if (f.status === "modified") files[`${BASE_SHA}:${p}`] = baseText(p, true);
    else if (f.status === "renamed" && f.previous_filename)
      files[`${BASE_SHA}:${f.previous_filename}`] = baseText(f.previous_filename, false);
  }
  for (const f of prFiles) if (f.status === "removed") files[`${BASE_SHA}:${f.filename}`] = baseText(f.filename, false);
  if (opts.reviewBurnRepo) files[".github/burn-triage.yml"] = "pull_requests:\n  review_burn_repo: true\n";
  return { files, prFiles: { 12: prFiles } };
}

/** The `pull_request.opened` delivery for PR 12 of a fake repository: `changed_files` as GitHub counts them. */
// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are plain JSON
export function prOpened(repo: FakeRepo, base: Record<string, unknown> = {}): any {
  const payload = webhook("pull_request.opened");
  payload.pull_request.changed_files = repo.prFiles?.[12]?.length ?? 0;
  Object.assign(payload.pull_request.base, base);
  return payload;
}

/** The commit the base branch moved on to after the PR branched (`trimRepo`'s `movedOn`). */
export const BASE_TIP_SHA = "c".repeat(40);

/**
 * The demo's crate that trains (fixtures/repos/pr-trim) in a PR padded with `fillers` other
 * changed files (more than the compare API lists makes the bot compare trees).
 * - default: the PR sets `default-features = false` (turns autodiff off; line 7, in the diff).
 * - `movedOn`: the branch started where `default-features = false` was already written and only
 *   adds a comment; the base branch has since turned the defaults back on (its tip ≠ the merge
 *   base). Against the tip the PR would seem to turn them off; against the merge base it does not.
 *   The base branch also deleted `legacy/`, a crate asking burn for a feature its release does
 *   not have: against the tip the PR would seem to add it.
 * - `renamedTo`: the PR also moves the crate into that folder (its Cargo.toml renamed with the edit).
 */
export function trimRepo(fillers: number, opts: { movedOn?: boolean; renamedTo?: string } = {}): FakeRepo {
  const before = fixtureText("repos/pr-trim/base/Cargo.toml");
  const after = fixtureText("repos/pr-trim/head/Cargo.toml");
  const head = opts.movedOn ? `${after}# built in CI with the defaults off\n` : after;
  const files: Record<string, string> = {
    [`${BASE_SHA}:Cargo.toml`]: opts.movedOn ? after : before,
    [`${HEAD_SHA}:Cargo.toml`]: head,
    [`${BASE_SHA}:src/train.rs`]: fixtureText("repos/pr-trim/src/train.rs"),
    [`${HEAD_SHA}:src/train.rs`]: fixtureText("repos/pr-trim/src/train.rs"),
  };
  if (opts.movedOn) {
    const legacy = `[package]\nname = "legacy"\nversion = "0.1.0"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["collective"] }\n`;
    files[`${BASE_SHA}:legacy/Cargo.toml`] = legacy;
    files[`${HEAD_SHA}:legacy/Cargo.toml`] = legacy;
    files[`${BASE_TIP_SHA}:Cargo.toml`] = before;
    files[`${BASE_TIP_SHA}:src/train.rs`] = fixtureText("repos/pr-trim/src/train.rs");
  }
  const patch = opts.movedOn
    ? '@@ -6,3 +6,4 @@ edition = "2024"\n [dependencies]\n burn = { version = "0.22.0-pre.2", default-features = false, features = ["wgpu", "dataset"] }\n serde = { version = "1", features = ["derive"] }\n+# built in CI with the defaults off'
    : fixtureText("repos/pr-trim/patch.diff");
  const prFiles: PrFile[] = [{ filename: "Cargo.toml", status: "modified", patch }];
  for (let i = 0; i < fillers; i++) {
    const p = `docs/page-${String(i).padStart(4, "0")}.md`;
    files[`${BASE_SHA}:${p}`] = `page ${i}\n`;
    files[`${HEAD_SHA}:${p}`] = `page ${i}, edited\n`;
    prFiles.push({ filename: p, status: "modified", patch: `@@ -1 +1 @@\n-page ${i}\n+page ${i}, edited` });
  }
  if (opts.renamedTo) {
    const to = opts.renamedTo;
    for (const p of ["Cargo.toml", "src/train.rs"]) {
      files[`${HEAD_SHA}:${to}/${p}`] = files[`${HEAD_SHA}:${p}`]!;
      delete files[`${HEAD_SHA}:${p}`];
    }
    prFiles[0] = { filename: `${to}/Cargo.toml`, status: "renamed", previous_filename: "Cargo.toml" };
    prFiles.push({ filename: `${to}/src/train.rs`, status: "renamed", previous_filename: "src/train.rs" });
  }
  return { files, prFiles: { 12: prFiles }, ...(opts.movedOn ? { mergeBase: BASE_SHA } : {}) };
}
