// The bounded gathering step of PR review: every read the pure core needs, and nothing else.
// Changed manifests at base and head, the tree at head, the roots and members those manifests
// involve, the sources of crates that regressed, and the bot's previous review and check runs.

import { isManifest } from "../cargo/manifest/workspace.js";
import type { Config } from "../config/config.js";
import { checkName, markedReviewState } from "../render/review.js";
import { gatherEvidence } from "../review/gather-evidence.js";
import {
  type ChangedManifest,
  manifestReads,
  type PreviousReview,
  type PrSnapshot,
  pathCrateReads,
} from "../review/pull-request.js";
import { reviewRules } from "../review/rules.js";
import { readFile } from "./files.js";
import { authoredBy, type Identity } from "./identity.js";
import { listPages, type Octokit, pageItems, pagesNewestFirst, type RepoRef } from "./types.js";

/** GitHub lists at most 3000 files for a pull request. */
export const MAX_FILES = 3000;
/** Changed Cargo.toml files reviewed per PR. */
export const MAX_MANIFESTS = 10;
/** Other manifests (roots, members) read per PR, at each side. */
export const MAX_RELATED_MANIFESTS = 20;

interface PrFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

/** The changed manifests, or null when the PR touches none (one call, and nothing else is read). */
export async function changedManifests(
  octokit: Octokit,
  where: RepoRef & { pull_number: number },
): Promise<{ changed: ChangedManifest[]; notices: string[] } | null> {
  const files: PrFile[] = [];
  for await (const page of listPages<PrFile>(
    octokit.paginate.iterator(octokit.rest.pulls.listFiles, { ...where, per_page: 100 }),
    "pull request files",
  )) {
    files.push(...page);
    if (files.length >= MAX_FILES) break;
  }
  const all = files.slice(0, MAX_FILES).filter((f) => isManifest(f.filename) && f.status !== "removed");
  if (all.length === 0) return null;
  const notices =
    all.length > MAX_MANIFESTS
      ? [
          `this PR changes ${all.length} Cargo.toml files; I reviewed the first ${MAX_MANIFESTS} (${all.slice(MAX_MANIFESTS).length} not checked)`,
        ]
      : [];
  if (files.length >= MAX_FILES)
    notices.push(`GitHub lists at most ${MAX_FILES} files of a PR; manifests beyond that were not seen`);
  const changed = all
    .slice(0, MAX_MANIFESTS)
    .map((f) => ({ path: f.filename, status: f.status, previousPath: f.previous_filename, patch: f.patch }));
  return { changed, notices };
}

interface Pr {
  number: number;
  head: { sha: string };
  base: { sha: string };
}

export async function gatherPr(
  octokit: Octokit,
  repo: RepoRef,
  pr: Pr,
  who: Identity,
  config: Config,
  start: { changed: ChangedManifest[]; notices: string[] },
): Promise<PrSnapshot> {
  const notices = [...start.notices];
  // Head commits are read through the base repository: that works for forks (even deleted ones).
  const reads = new Map<string, Promise<string | null>>();
  const read = (path: string, ref: string) => {
    const key = `${ref}:${path}`;
    if (!reads.has(key))
      reads.set(
        key,
        readFile(octokit, { ...repo, path, ref }).then((f) => (f.ok ? f.text : null)),
      );
    return reads.get(key)!;
  };
  const snapshot: PrSnapshot = {
    repo,
    headSha: pr.head.sha,
    changed: start.changed,
    head: {},
    base: {},
    tree: [],
    evidence: {},
    previous: { review: null, checkRuns: {} },
    notices,
    options: {
      checkRun: config.pull_requests.check_run,
      conclusion: config.pull_requests.conclusion,
      reviewBurnRepo: config.pull_requests.review_burn_repo,
    },
  };
  const both = async (path: string, basePath = path, withBase = true) => {
    snapshot.head[path] = await read(path, pr.head.sha);
    if (withBase) snapshot.base[basePath] = await read(basePath, pr.base.sha);
  };
  for (const f of start.changed) await both(f.path, f.previousPath ?? f.path, f.status !== "added");

  const { data: tree } = await octokit.rest.git.getTree({ ...repo, tree_sha: pr.head.sha, recursive: "true" });
  snapshot.tree = pageItems<{ type?: string; path?: string }>((tree as { tree?: unknown }).tree, "tree")
    .filter((e) => e.type === "blob" && e.path)
    .map((e) => e.path!);
  if ((tree as { truncated?: boolean }).truncated)
    notices.push("GitHub truncated this repository's file tree; some workspace members may not have been seen");

  const related = manifestReads(snapshot);
  if (related.length > MAX_RELATED_MANIFESTS)
    notices.push(
      `this change reaches ${related.length} other manifests (workspace roots and members); I read the first ${MAX_RELATED_MANIFESTS}`,
    );
  for (const path of related.slice(0, MAX_RELATED_MANIFESTS)) await both(path);
  // A burn checkout a path dependency points to names its version (read after the roots: an
  // inherited path is written there). Bounded like the other related manifests.
  for (const path of pathCrateReads(snapshot).slice(0, MAX_RELATED_MANIFESTS)) await both(path);

  await gatherEvidence(snapshot, (path) => read(path, pr.head.sha));
  snapshot.previous = await previousState(octokit, repo, pr, who);
  return snapshot;
}

interface Review {
  id: number;
  body: string | null;
  user: { login?: string } | null;
  commit_id: string | null;
}

/** The bot's latest review (state from its marker) and each rule's check run for this head, if any. */
async function previousState(octokit: Octokit, repo: RepoRef, pr: Pr, who: Identity): Promise<PrSnapshot["previous"]> {
  let review: PreviousReview | null = null;
  // The latest marked review of the bot's: from the newest page back, the first one found.
  const pages = pagesNewestFirst<Review>(
    (page) =>
      octokit.rest.pulls.listReviews({ ...repo, pull_number: pr.number, per_page: 100, ...(page ? { page } : {}) }),
    "reviews",
  );
  search: for await (const page of pages)
    for (const r of [...page].reverse()) {
      const marked = authoredBy(who, r) ? markedReviewState(r.body) : null;
      if (!marked) continue;
      review = { id: r.id, sha: marked.sha ?? r.commit_id, state: marked.state, rules: marked.rules };
      break search;
    }
  const checkRuns: Record<string, number | null> = {};
  for (const rule of reviewRules()) {
    const { data } = await octokit.rest.checks.listForRef({
      ...repo,
      ref: pr.head.sha,
      check_name: checkName(rule),
      ...(who.appId !== null ? { app_id: who.appId } : {}),
    });
    const runs = pageItems<{ id: number }>((data as { check_runs?: unknown }).check_runs, "check runs");
    checkRuns[rule.id] = runs[0]?.id ?? null;
  }
  return { review, checkRuns };
}
