// The bundled snapshots' enablers of the default target, as `npm run build` computed them
// (scripts/cache-data.mjs): resolving them cold was a third of a CLI `why`. The table answers only
// for the bundled registries themselves, and only while the snapshot's files are the ones it was
// built from (src/data-cache.ts): otherwise each line is resolved as before.
import { join } from "node:path";
import { readCache } from "../data-cache.js";
import type { IndexLine } from "./index-file.js";
import { bundledSnapshotName, type Registry, type SnapshotName } from "./registry.js";
import { AUTODIFF_TARGET, type FeatureTarget, targetName } from "./resolve.js";

export interface Enablers {
  enablers: string[];
  defaultsEnable: boolean;
  /** Pairs that only work together (burn 0.21: `dispatch` + `autodiff`), when no single feature does. */
  pairs: string[][];
}

export const ENABLERS_CACHE = "enablers.json";

/** What the table's answers were derived from: every file of the snapshot. */
export const snapshotSources = (which: SnapshotName) => [join("index", which)];

export const lineKey = (line: IndexLine) => `${line.name}@${line.vers}`;

const tables = new Map<SnapshotName, Record<string, Enablers> | null>();

function tableOf(which: SnapshotName): Record<string, Enablers> | null {
  if (!tables.has(which))
    tables.set(
      which,
      readCache<Record<string, Enablers>>(`${which}-${ENABLERS_CACHE}`, snapshotSources(which)) ?? null,
    );
  return tables.get(which) ?? null;
}

/** The build's answer for `line` in a bundled snapshot, or undefined when it must be resolved. */
export function precomputedEnablers(line: IndexLine, registry: Registry, target: FeatureTarget): Enablers | undefined {
  if (target.gate || targetName(target) !== targetName(AUTODIFF_TARGET)) return undefined;
  const which = bundledSnapshotName(registry);
  return which ? tableOf(which)?.[lineKey(line)] : undefined;
}
