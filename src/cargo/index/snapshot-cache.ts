// What the build derives from each bundled snapshot (scripts/cache-data.mjs), kept in one file per
// snapshot under data/.cache/ and answered only while the snapshot's files are the ones it came
// from (src/data/data-cache.ts): where each index line sits (index-spans.ts), and each line's enablers
// of the default target (precomputed.ts). One file, so that a call checks the files once.
import { dataFiles } from "../../data/data-files.js";
import type { FileSpans } from "./index-spans.js";

export type SnapshotName = "tags" | "main";

export interface Enablers {
  enablers: string[];
  defaultsEnable: boolean;
  /** Pairs that only work together (burn 0.21: `dispatch` + `autodiff`), when no single feature does. */
  pairs: string[][];
}

export interface SnapshotTables {
  /** By index file name (lower case, as cargo's layout spells it). */
  crates: Record<string, FileSpans>;
  /** By `name@vers`. */
  enablers: Record<string, Enablers>;
}

export const SNAPSHOT_CACHE = "snapshot.json";

/** What the tables were derived from: every file of the snapshot. */
export const snapshotSources = (which: SnapshotName) => [`index/${which}`];

const tables = new Map<SnapshotName, SnapshotTables | null>();

/** The build's tables for a snapshot, read once; null when absent or stale. */
export function snapshotTables(which: SnapshotName): SnapshotTables | null {
  if (!tables.has(which))
    tables.set(which, dataFiles().cached<SnapshotTables>(`${which}-${SNAPSHOT_CACHE}`, snapshotSources(which)) ?? null);
  return tables.get(which) ?? null;
}
