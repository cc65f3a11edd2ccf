// The bounded gathering step of PR review: every read the pure core needs, and nothing else.
// Changed manifests at base and head, the tree at head, the roots and members those manifests
// involve, the sources of crates that regressed, and the bot's previous review and check runs.

import { ancestorManifests, dirOf, isManifest } from "../cargo/manifest/workspace.js";
import type { Config } from "../config/config.js";
import { code } from "../render/escape.js";
import { evidenceSources, gatherEvidence } from "../review/gather-evidence.js";
import {
  type ChangedManifest,
  isBurnRepository,
  manifestReads,
  type PrSnapshot,
  pathCrateReads,
} from "../review/pull-request.js";
import { MAX_QUERY_BYTES } from "./blob-reads.js";
import type { Identity } from "./identity.js";
import { MAX_READ_QUERIES, MAX_REST_READS, PrReader, type Want } from "./pr-reads.js";
import { previousStateFields, previousStateFrom, previousStateRest } from "./previous-state.js";
import { listPages, type Octokit, type RepoRef } from "./types.js";

/** GitHub lists at most 3000 files for a pull request. */
export const MAX_FILES = 3000;
interface PrFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

/**
 * The changed manifests, or null when the PR touches none (one call, and nothing else is read).
 * Every changed manifest is reviewed: what bounds the review is the bytes it reads, not a count.
 */
export async function changedManifests(
  octokit: Octokit,
  where: RepoRef & { pull_number: number },
): Promise<PrStart | null> {
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
  const notices: string[] = [];
  const complete = files.length < MAX_FILES;
  if (!complete) notices.push(`GitHub lists at most ${MAX_FILES} files of a PR; manifests beyond that were not seen`);
  const changed = all.map((f) => ({
    path: f.filename,
    status: f.status,
    previousPath: f.previous_filename,
    patch: f.patch,
  }));
  const touched = complete
    ? files.flatMap((f) => [f.filename, ...(f.previous_filename ? [f.previous_filename] : [])])
    : null;
  return { changed, notices, touched };
}

interface Pr {
  number: number;
  head: { sha: string };
  base: { sha: string };
}

/** What the file listing gave: the changed manifests, what was cut, and every path the PR touches. */
export interface PrStart {
  changed: ChangedManifest[];
  notices: string[];
  /** null when GitHub's list was cut short (then every base file is read at the base). */
  touched: string[] | null;
}

export async function gatherPr(
  octokit: Octokit,
  repo: RepoRef,
  pr: Pr,
  who: Identity,
  config: Config,
  start: PrStart,
): Promise<PrSnapshot> {
  const notices = [...start.notices];
  // Head commits are read through the base repository: that works for forks (even deleted ones).
  const reader = await PrReader.open(octokit, repo, {
    headSha: pr.head.sha,
    baseSha: pr.base.sha,
    touched: start.touched ? new Set(start.touched) : null,
  });
  const snapshot: PrSnapshot = {
    repo,
    headSha: pr.head.sha,
    changed: start.changed,
    head: {},
    base: {},
    tree: reader.tree,
    evidence: {},
    previous: { review: null, checkRuns: {} },
    notices,
    options: {
      checkRun: config.pull_requests.check_run,
      conclusion: config.pull_requests.conclusion,
      reviewBurnRepo: config.pull_requests.review_burn_repo,
    },
  };
  // burn's own repository is not reviewed unless asked: its tree says so, and nothing more is read.
  if (!snapshot.options.reviewBurnRepo && isBurnRepository({ tree: reader.tree, head: {} })) return snapshot;
  if (reader.truncated)
    notices.push("GitHub truncated this repository's file tree; some workspace members may not have been seen");
  const asked: Want[] = [];
  const fill = async (wants: Want[]) => {
    asked.push(...wants);
    await reader.read(wants);
    for (const w of wants) {
      const text = reader.get(w);
      if (text !== undefined) snapshot[w.side][w.path] = text;
    }
  };
  const changed = start.changed.flatMap((f): Want[] => [
    { path: f.path, side: "head" },
    ...(f.status !== "added" ? [{ path: f.previousPath ?? f.path, side: "base" as const }] : []),
  ]);
  // The first query also reads what the next steps will most likely ask for (the roots above the
  // changed manifests and the members below them), and the bot's previous review and check runs.
  const graphql = reader.mode === "graphql";
  const near = graphql ? bothSides(nearbyManifests(start.changed, reader.tree)) : [];
  const data = await reader.read([...changed, ...near], graphql ? previousStateFields(pr, who) : null);
  const previousByGraphql = graphql && reader.mode === "graphql";
  await fill(changed);
  await fill(bothSides(manifestReads(snapshot)));
  // A burn checkout a path dependency points to names its version (read after the roots: an
  // inherited path is written there).
  await fill(bothSides(pathCrateReads(snapshot)));
  if (reader.mode === "graphql") await reader.read(evidenceSources(snapshot).map((path) => ({ path, side: "head" })));
  await gatherEvidence(snapshot, async (path) => {
    const w: Want = { path, side: "head" };
    await fill([w]);
    return reader.get(w) ?? null;
  });
  snapshot.previous = previousByGraphql ? previousStateFrom(data) : await previousStateRest(octokit, repo, pr, who);
  const unread = [...new Set([...asked.filter((w) => reader.get(w) === undefined).map(label), ...reader.unread])];
  if (unread.length > 0) {
    snapshot.unread = unread;
    notices.push(unreadNotice(unread, reader));
  }
  return snapshot;
}

const bothSides = (paths: string[]): Want[] =>
  paths.flatMap((path) => [
    { path, side: "head" as const },
    { path, side: "base" as const },
  ]);

const label = (w: Want) => (w.side === "head" ? w.path : `${w.path} (base)`);

/** The manifests above each changed one (its possible roots) and below it (a root's possible members). */
export function nearbyManifests(changed: readonly ChangedManifest[], tree: readonly string[]): string[] {
  const set = new Set(tree);
  const out = new Set<string>();
  for (const f of changed) {
    for (const a of ancestorManifests(f.path, set)) out.add(a);
    const dir = dirOf(f.path);
    for (const p of tree) if (isManifest(p) && (dir === "" || p.startsWith(`${dir}/`))) out.add(p);
  }
  return [...out].sort();
}

/** Says which files a bound left unread, by name (the first ten), and the bound. */
export function unreadNotice(unread: string[], reader: Pick<PrReader, "mode">): string {
  const bound =
    reader.mode === "graphql"
      ? `${MAX_READ_QUERIES} queries of at most ${MAX_QUERY_BYTES / 1e6} MB`
      : `${MAX_REST_READS} files read one by one (GitHub's GraphQL API was not available)`;
  const shown = unread.slice(0, 10).map(code).join(", ");
  const more = unread.length > 10 ? ` and ${unread.length - 10} more` : "";
  return `I did not read ${unread.length} file(s) this change reaches (a review reads at most ${bound}): ${shown}${more}; nothing is said about them`;
}
