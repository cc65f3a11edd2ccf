// A pull request's changed files from two trees, when GitHub's file list would take many pages:
// GitHub's PR diff is the head against the merge base, so the merge base's tree and the head's,
// compared blob id by blob id, give the same paths. What the list also carries, each manifest's
// patch (the lines a review comment may sit on), is computed from both texts (with a line of
// context less than git's, see COMMENT_CONTEXT); a manifest renamed with edits is paired by similarity, as git pairs
// it. Pure: the shell reads the trees and the texts.
import { diffLines, structuredPatch } from "diff";

/** Path → blob id, for the blobs of one recursive tree. */
export type BlobIds = ReadonlyMap<string, string>;

export interface TreeChange {
  filename: string;
  status: "added" | "removed" | "modified" | "renamed";
  previous_filename?: string;
}

const baseName = (p: string) => p.slice(p.lastIndexOf("/") + 1);

/**
 * Every path whose blob differs between the trees. A removed path whose blob reappears under an
 * added path is a rename (git's exact renames), paired by the same file name first. One whose
 * content also changed stays a removal and an addition here: `pairRenames` pairs manifests once
 * their texts are read.
 */
export function diffTrees(base: BlobIds, head: BlobIds): TreeChange[] {
  const out: TreeChange[] = [];
  const removedById = new Map<string, string[]>();
  for (const [path, id] of base) {
    const now = head.get(path);
    if (now === undefined) removedById.set(id, [...(removedById.get(id) ?? []), path]);
    else if (now !== id) out.push({ filename: path, status: "modified" });
  }
  for (const [path, id] of head) {
    if (base.has(path)) continue;
    const candidates = removedById.get(id) ?? [];
    const i = Math.max(
      0,
      candidates.findIndex((c) => baseName(c) === baseName(path)),
    );
    const from = candidates.splice(i, 1)[0];
    out.push(
      from ? { filename: path, status: "renamed", previous_filename: from } : { filename: path, status: "added" },
    );
  }
  for (const paths of removedById.values()) for (const p of paths) out.push({ filename: p, status: "removed" });
  return out.sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
}

/**
 * The context a computed patch keeps for review comments: one line less than git's 3. Where a
 * blank or repeated line can sit on either side of a change, git and this diff may place it
 * differently, and GitHub refuses (422) a review comment on a line outside its own hunks. On
 * burn's PR #4717, with 3 lines the hunks of 5 of its 32 patched manifests ended a line past
 * GitHub's; with 2, none (122 of GitHub's 811 commentable lines are given up: a suggestion there
 * goes in the review's body).
 */
export const COMMENT_CONTEXT = 2;

/** The hunks of a unified diff (3 lines of context, as git writes them), as GitHub's `patch` field carries them. */
export function patchOf(path: string, before: string, after: string, context = 3): string {
  const p = structuredPatch(path, path, before, after, "", "", { context });
  return p.hunks
    .map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join("\n")}`)
    .join("\n");
}

/** git's default rename threshold (`-M50%`): half the content kept. */
export const RENAME_SIMILARITY = 0.5;
/** Pairs scored at most (each a line diff): past this, a removal and an addition stay two changes. */
export const MAX_RENAME_PAIRS = 2500;

/** The share of lines two texts keep in common (git scores by content chunks; lines are close for manifests). */
export function similarity(a: string, b: string): number {
  const lines = (t: string) => (t === "" ? 0 : t.replace(/\n$/, "").split("\n").length);
  let same = 0;
  for (const part of diffLines(a, b)) if (!part.added && !part.removed) same += part.count ?? 0;
  const total = lines(a) + lines(b);
  return total === 0 ? 1 : (2 * same) / total;
}

export interface Text {
  path: string;
  text: string;
}

/**
 * Renames with edits, as git finds them: each added file paired with the removed one most like it,
 * when at least half the lines are kept (best pairs first, each file in one pair). Added path →
 * removed path.
 */
export function pairRenames(added: readonly Text[], removed: readonly Text[]): Map<string, string> {
  const pairs: Array<{ to: string; from: string; score: number }> = [];
  if (added.length * removed.length > MAX_RENAME_PAIRS) return new Map();
  for (const a of added)
    for (const r of removed) {
      const score = similarity(r.text, a.text);
      if (score >= RENAME_SIMILARITY) pairs.push({ to: a.path, from: r.path, score });
    }
  pairs.sort((x, y) => y.score - x.score || (x.to < y.to ? -1 : 1));
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const p of pairs)
    if (!out.has(p.to) && !used.has(p.from)) {
      out.set(p.to, p.from);
      used.add(p.from);
    }
  return out;
}
