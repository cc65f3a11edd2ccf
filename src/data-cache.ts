// Derived data that `npm run build` keeps in data/.cache/ (scripts/cache-data.mjs; not committed),
// each entry tied to the files it was derived from by their paths, sizes and modification times:
// an edited or refreshed file is never answered from a stale copy (the entry is ignored and the
// caller derives the answer itself), and checking costs one stat per file. A content hash would
// load node:crypto, which alone cost a seventh of a CLI call.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { dataDir } from "./data-dir.js";

export const CACHE_DIR = ".cache";

/** The files under `dir` (relative to data/), each named with its size and time. */
export function fingerprint(paths: string[], dir = dataDir): string {
  return paths
    .flatMap((p) => {
      const full = join(dir, p);
      const s = statSync(full);
      if (!s.isDirectory()) return [full];
      return readdirSync(full, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
    })
    .sort()
    .map((full) => {
      const s = statSync(full);
      return `${relative(dir, full)} ${s.size} ${s.mtimeMs}`;
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
