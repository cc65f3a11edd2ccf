// Which files a pull request changes, at a cost that does not grow with them. GitHub's PR diff is
// the head against the merge base, and the compare API names the merge base in one call, with
// the files when they are few (it lists 300 at most). A larger PR's files come from the merge
// base's tree and the head's, compared by blob id (two calls, whatever the number of files),
// instead of GitHub's file list, 100 a page. A payload without `changed_files` (older fixtures,
// replays), a refused compare or a truncated tree falls back to the file list.
import { isManifest } from "../cargo/manifest/workspace.js";
import type { ChangedManifest } from "../review/pull-request.js";
import { diffTrees } from "../review/tree-diff.js";
import { type GitTree, readTree } from "./pr-reads.js";
import { listPages, type Octokit, type RepoRef } from "./types.js";

/** GitHub lists at most 3000 files for a pull request. */
export const MAX_FILES = 3000;
/** The compare API lists at most this many files of a comparison. */
export const COMPARE_MAX_FILES = 300;

export interface PrFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

/** What the file listing gave: the changed manifests, what was cut, and every path the PR touches. */
export interface PrStart {
  changed: ChangedManifest[];
  notices: string[];
  /** null when GitHub's list was cut short (then every base file is read at the base). */
  touched: string[] | null;
  /** The commit the base side is read at: the merge base when known, else the base branch's tip. */
  baseSha: string;
  /** The head's tree, when it was read to find the changes (it is not read twice). */
  headTree?: GitTree;
  /** The changes came from the trees: each manifest's patch is computed from its two texts. */
  patchesComputed?: boolean;
  /** From the trees: the manifests removed, one of which an added manifest may be renamed from. */
  removed?: string[];
}

interface PrRef {
  number: number;
  changed_files?: number;
  base: { sha: string };
  head: { sha: string };
}

/**
 * The changed manifests, or null when the PR touches none (and nothing else is read).
 * Every changed manifest is reviewed: what bounds the review is the bytes it reads, not a count.
 */
export async function changedManifests(octokit: Octokit, repo: RepoRef, pr: PrRef): Promise<PrStart | null> {
  const count = pr.changed_files;
  if (typeof count !== "number" || count <= 0) return listed(octokit, repo, pr, pr.base.sha);
  const cmp = await compare(octokit, repo, pr);
  if (!cmp) return listed(octokit, repo, pr, pr.base.sha);
  if (cmp.files.length === count && count < COMPARE_MAX_FILES)
    return fromFiles(cmp.files, { baseSha: cmp.mergeBase, complete: true });
  const headTree = await readTree(octokit, repo, pr.head.sha);
  const baseTree = headTree.truncated ? null : await readTree(octokit, repo, cmp.mergeBase);
  // A truncated tree would pass changed paths over in silence: GitHub's list says them.
  if (!baseTree || baseTree.truncated) return listed(octokit, repo, pr, cmp.mergeBase, headTree);
  const files = diffTrees(blobIds(baseTree), blobIds(headTree));
  return fromFiles(files, { baseSha: cmp.mergeBase, complete: true, headTree, patchesComputed: true });
}

const blobIds = (t: GitTree) => new Map([...t.entries].map(([p, e]) => [p, e.sha ?? ""]));

/** The merge base and the files the compare API lists; null when GitHub refuses the comparison. */
async function compare(
  octokit: Octokit,
  repo: RepoRef,
  pr: PrRef,
): Promise<{ mergeBase: string; files: PrFile[] } | null> {
  try {
    // One commit a page: the files come on the first page whatever its size, the commits are not needed.
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      ...repo,
      basehead: `${pr.base.sha}...${pr.head.sha}`,
      per_page: 1,
    });
    const mergeBase = data.merge_base_commit?.sha;
    if (typeof mergeBase !== "string") return null;
    return { mergeBase, files: (data.files ?? []) as PrFile[] };
  } catch (e) {
    // Not found (a head commit GitHub no longer has), not comparable, or a comparison GitHub gave
    // up on (5xx after Octokit's retries): the PR's own list still answers.
    const status = (e as { status?: number }).status ?? 0;
    if (status === 404 || status === 422 || status >= 500) return null;
    throw e;
  }
}

/** GitHub's file list for the PR, 100 a page, up to its 3000. */
async function listed(
  octokit: Octokit,
  repo: RepoRef,
  pr: PrRef,
  baseSha: string,
  headTree?: GitTree,
): Promise<PrStart | null> {
  const files: PrFile[] = [];
  for await (const page of listPages<PrFile>(
    octokit.paginate.iterator(octokit.rest.pulls.listFiles, { ...repo, pull_number: pr.number, per_page: 100 }),
    "pull request files",
  )) {
    files.push(...page);
    if (files.length >= MAX_FILES) break;
  }
  return fromFiles(files.slice(0, MAX_FILES), { baseSha, complete: files.length < MAX_FILES, headTree });
}

function fromFiles(
  files: readonly PrFile[],
  how: { baseSha: string; complete: boolean; headTree?: GitTree; patchesComputed?: boolean },
): PrStart | null {
  const all = files.filter((f) => isManifest(f.filename) && f.status !== "removed");
  if (all.length === 0) return null;
  const notices: string[] = [];
  if (!how.complete)
    notices.push(`GitHub lists at most ${MAX_FILES} files of a PR; manifests beyond that were not seen`);
  const changed = all.map((f) => ({
    path: f.filename,
    status: f.status,
    previousPath: f.previous_filename,
    patch: f.patch,
  }));
  const touched = how.complete
    ? files.flatMap((f) => [f.filename, ...(f.previous_filename ? [f.previous_filename] : [])])
    : null;
  const { baseSha, headTree, patchesComputed } = how;
  const removed = patchesComputed
    ? files.filter((f) => isManifest(f.filename) && f.status === "removed").map((f) => f.filename)
    : [];
  return {
    changed,
    notices,
    touched,
    baseSha,
    ...(headTree ? { headTree } : {}),
    ...(patchesComputed ? { patchesComputed } : {}),
    ...(removed.length > 0 ? { removed } : {}),
  };
}
