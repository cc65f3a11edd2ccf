// The bundled snapshots' enablers of the default target, as `npm run build` computed them
// (scripts/cache-data.mjs): resolving them cold was a third of a CLI `why`. The table answers only
// for the bundled registries themselves, and only while the snapshot's files are the ones it was
// built from (src/data/data-cache.ts): otherwise each line is resolved as before.

import { AUTODIFF_TARGET, type FeatureTarget, targetName } from "../resolve/resolve.js";
import type { IndexLine } from "./index-file.js";
import { bundledSnapshotName, type Registry } from "./registry.js";
import { type Enablers, snapshotTables } from "./snapshot-cache.js";

export type { Enablers };

export const lineKey = (line: IndexLine) => `${line.name}@${line.vers}`;

/** The build's answer for `line` in a bundled snapshot, or undefined when it must be resolved. */
export function precomputedEnablers(line: IndexLine, registry: Registry, target: FeatureTarget): Enablers | undefined {
  if (target.gate || targetName(target) !== targetName(AUTODIFF_TARGET)) return undefined;
  const which = bundledSnapshotName(registry);
  return which ? snapshotTables(which)?.enablers[lineKey(line)] : undefined;
}
