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
import { COMMENT_CONTEXT, pairRenames, patchOf, type Text } from "../review/tree-diff.js";
import { MAX_QUERY_BYTES, mergeFields } from "./blob-reads.js";
import { configFields, configFromAnswer, loadConfig } from "./config.js";
import type { Identity } from "./identity.js";
import type { PrStart } from "./pr-changes.js";
import { graphqlEnabled, MAX_READ_QUERIES, MAX_REST_READS, PrReader, type Side, type Want } from "./pr-reads.js";
import { previousStateFields, previousStateFrom, previousStateRest } from "./previous-state.js";
import type { Octokit, RepoRef } from "./types.js";

interface Pr {
  number: number;
  head: { sha: string };
  base: { sha: string };
}

/**
 * The config: known already (read by REST before the event was taken up), or to be read in the
 * first GraphQL query, then `accept` says whether the event is the bot's to review.
 */
export type ConfigSource =
  | { known: Config }
  | { context: Parameters<typeof loadConfig>[0]; accept: (config: Config) => boolean };

/** The snapshot the core reviews; null when the config (read in the first query) says not to review. */
export async function gatherPr(
  octokit: Octokit,
  repo: RepoRef,
  pr: Pr,
  who: Identity,
  source: ConfigSource,
  start: PrStart,
): Promise<PrSnapshot | null> {
  const notices = [...start.notices];
  // Head commits are read through the base repository: that works for forks (even deleted ones).
  const reader = await PrReader.open(
    octokit,
    repo,
    { headSha: pr.head.sha, baseSha: start.baseSha, touched: start.touched ? new Set(start.touched) : null },
    graphqlEnabled(),
    start.headTree,
  );
  // burn's own repository is not reviewed unless asked: its tree says so, and nothing more is read
  // (with the config known; else the first query reads it).
  const burnRepo = isBurnRepository({ tree: reader.tree, head: {} });
  if ("known" in source && burnRepo && !source.known.pull_requests.review_burn_repo)
    return emptySnapshot(repo, pr, start, reader, source.known, notices);
  const first = await firstQuery(reader, start, pr, who, source);
  if (!first) return null;
  const snapshot = emptySnapshot(
    repo,
    pr,
    { ...start, changed: withRenames(start, reader) },
    reader,
    first.config,
    notices,
  );
  if (!snapshot.options.reviewBurnRepo && burnRepo) return snapshot;
  if (reader.truncated)
    notices.push("GitHub truncated this repository's file tree; some workspace members may not have been seen");
  const asked = await readRounds(snapshot, reader, changedWants(snapshot.changed), start);
  snapshot.previous = first.previousByGraphql
    ? previousStateFrom((first.data?.repository ?? null) as Record<string, unknown> | null)
    : await previousStateRest(octokit, repo, pr, who);
  const unread = [...new Set([...asked.filter((w) => reader.get(w) === undefined).map(label), ...reader.unread])];
  if (unread.length > 0) {
    snapshot.unread = unread;
    notices.push(unreadNotice(unread, reader));
  }
  return snapshot;
}

/**
 * The first read: the changed manifests at both sides and what the next steps will most likely
 * ask for (the roots above them and the members below), the bot's previous review and check runs,
 * and the config when it is not known yet, in one query. Null when the config says not to review.
 */
async function firstQuery(reader: PrReader, start: PrStart, pr: Pr, who: Identity, source: ConfigSource) {
  // The manifests the trees say were removed: an added one may be one of them renamed.
  const removed = (start.removed ?? []).map((path): Want => ({ path, side: "base" }));
  const changed = [...changedWants(start.changed), ...removed];
  const graphql = reader.mode === "graphql";
  const near = graphql ? bothSides(nearbyManifests(start.changed, reader.tree)) : [];
  const known = "known" in source;
  const previous = previousStateFields(pr, who);
  const extra = graphql ? (known ? previous : mergeFields(previous, configFields())) : null;
  const data = await reader.read([...changed, ...near], extra);
  const previousByGraphql = graphql && reader.mode === "graphql";
  if ("known" in source) return { data, previousByGraphql, config: source.known };
  // An answer that does not say (or no GraphQL) leaves the config to REST, read as before.
  const loaded =
    (previousByGraphql ? configFromAnswer(data, source.context) : null) ?? (await loadConfig(source.context));
  return source.accept(loaded.config) ? { data, previousByGraphql, config: loaded.config } : null;
}

/** Each changed manifest at the head, and at the base unless it was added. */
const changedWants = (changed: readonly ChangedManifest[]): Want[] =>
  changed.flatMap((f): Want[] => [
    { path: f.path, side: "head" },
    ...(f.status !== "added" ? [{ path: f.previousPath ?? f.path, side: "base" as const }] : []),
  ]);

/** Changes from the trees: an added manifest most like a removed one is that one renamed (its base is there). */
function withRenames(start: PrStart, reader: PrReader): ChangedManifest[] {
  if (!start.removed?.length) return start.changed;
  const texts = (paths: string[], side: Side): Text[] =>
    paths.flatMap((path) => {
      const text = reader.get({ path, side });
      return typeof text === "string" ? [{ path, text }] : [];
    });
  const added = start.changed.filter((f) => f.status === "added").map((f) => f.path);
  const pairs = pairRenames(texts(added, "head"), texts(start.removed, "base"));
  return start.changed.map((f) => {
    const from = pairs.get(f.path);
    return from ? { ...f, status: "renamed", previousPath: from } : f;
  });
}

/** The rounds after the first: the changed manifests, their roots and members, path crates, evidence. */
async function readRounds(snapshot: PrSnapshot, reader: PrReader, changed: Want[], start: PrStart): Promise<Want[]> {
  const asked: Want[] = [];
  const fill = async (wants: Want[]) => {
    asked.push(...wants);
    await reader.read(wants);
    for (const w of wants) {
      const text = reader.get(w);
      if (text !== undefined) snapshot[w.side][w.path] = text;
    }
  };
  await fill(changed);
  if (start.patchesComputed) snapshot.changed = withPatches(snapshot);
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
  return asked;
}

function emptySnapshot(
  repo: RepoRef,
  pr: Pr,
  start: PrStart,
  reader: PrReader,
  config: Config,
  notices: string[],
): PrSnapshot {
  return {
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
}

/**
 * Changes found from the trees carry no patch: each is computed from the two texts read, so a
 * suggestion lands only on lines GitHub's diff shows (a line of context short of git's). A side not read leaves it without one (its
 * findings go in the review's body).
 */
function withPatches(s: PrSnapshot): PrSnapshot["changed"] {
  return s.changed.map((f) => {
    const head = s.head[f.path];
    const base = f.status === "added" ? "" : s.base[f.previousPath ?? f.path];
    if (typeof head !== "string" || typeof base !== "string" || f.patch !== undefined) return f;
    return { ...f, patch: patchOf(f.path, base, head, COMMENT_CONTEXT) };
  });
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
