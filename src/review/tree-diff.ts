// A pull request's changed files from two trees, when GitHub's file list would take many pages:
// GitHub's PR diff is the head against the merge base, so the merge base's tree and the head's,
// compared blob id by blob id, give the same paths. What the list also carries, each manifest's
// patch (the lines a review comment may sit on), is computed from both texts with 3 lines of
// context, as git writes it. Pure: the shell reads the trees and the texts.
import { structuredPatch } from "diff";

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
 * added path is a rename (git's exact renames; one whose content also changed stays a removal and
 * an addition, where git would guess by similarity), paired by the same file name first.
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

/** The hunks of a unified diff with 3 lines of context, as GitHub's `patch` field carries them. */
export function patchOf(path: string, before: string, after: string): string {
  const p = structuredPatch(path, path, before, after, "", "", { context: 3 });
  return p.hunks
    .map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join("\n")}`)
    .join("\n");
}
