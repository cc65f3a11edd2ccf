// Derived data that `npm run build` keeps in data/.cache/ (scripts/cache-data.mjs; not committed),
// each entry tied to the files it was derived from by their paths, sizes and modification times:
// an edited or refreshed file is never answered from a stale copy (the entry is ignored and the
// caller derives the answer itself), and checking costs one stat per file. A content hash would
// load node:crypto, which alone cost a seventh of a CLI call.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./data-dir.js";

export const CACHE_DIR = ".cache";

/** The files under `dir` (relative to data/), each named with its size and time. */
export function fingerprint(paths: string[], dir = dataDir): string {
  const files: string[] = [];
  for (const p of paths) {
    const full = join(dir, p);
    if (!statSync(full).isDirectory()) files.push(full);
    else
      for (const e of readdirSync(full, { recursive: true, withFileTypes: true }))
        if (e.isFile()) files.push(join(e.parentPath, e.name));
  }
  // Every path starts with `dir` and a separator: cut, not `path.relative`, which resolves both
  // paths each time (a millisecond of a CLI call over the index's files).
  const prefix = join(dir, "x").slice(0, -1).length;
  return files
    .sort()
    .map((full) => {
      const s = statSync(full);
      return `${full.slice(prefix)} ${s.size} ${s.mtimeMs}`;
    })
    .join("\n");
}

export interface CacheEntry<T> {
  fingerprint: string;
  value: T;
}

/** The entry `name` if it was derived from `sources` as they are now; undefined otherwise. */
export function readCache<T>(name: string, sources: string[], dir = dataDir): T | undefined {
  try {
    const entry = JSON.parse(readFileSync(join(dir, CACHE_DIR, name), "utf8")) as CacheEntry<T>;
    return entry.fingerprint === fingerprint(sources, dir) ? entry.value : undefined;
  } catch {
    // No cache (a fresh clone, the Action's checkout) or a source gone: derive it.
    return undefined;
  }
}
