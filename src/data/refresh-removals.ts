// data:refresh's part for removed features: for each new release of a burn crate, the features
// its previous release had and it has not (the index lines say it, as burn-data's feature history
// was derived). A replacement is derived only where the index can tell it: a feature of the new
// release that turns on every optional crate the removed one did. Otherwise none is known, and the
// bot says so; burn's own history (data/removed-features.json) wins where it has the removal.
import type { IndexLine } from "../cargo/index/index-file.js";
import { allFeatures } from "../cargo/index/registry.js";
import { featureNames } from "../cargo/judge/refusal.js";
import * as semver from "../util/semver.js";

export interface DerivedRemoval {
  crate: string;
  feature: string;
  at: string;
  replacement: string[] | null;
  /** Derived from the index by this refresh, not from burn's history. */
  inferred: true;
}

/** The optional crates a feature's value turns on (`dep:x`, `x`, `x/f`, `x?/f` of an optional dependency). */
function cratesOf(line: IndexLine, value: string[]): Set<string> {
  const optional = new Set(line.deps.filter((d) => d.optional).map((d) => d.name));
  const out = new Set<string>();
  for (const v of value) {
    const name = v.replace(/^dep:/, "").replace(/\??\/.*$/, "");
    if (optional.has(name)) out.add(name);
  }
  return out;
}

function replacementOf(prev: IndexLine, line: IndexLine, feature: string): string[] | null {
  const before = cratesOf(prev, allFeatures(prev)[feature] ?? [feature]);
  if (before.size === 0) return null;
  const table = allFeatures(line);
  const covering = Object.keys(table)
    .filter((f) => f !== "default" && [...before].every((c) => cratesOf(line, table[f]!).has(c)))
    .sort((a, b) => table[a]!.length - table[b]!.length || (a < b ? -1 : 1));
  return covering.length > 0 ? covering.slice(0, 3) : null;
}

/** Removals at each of `versions` (new releases), per crate, against the crate's previous release. */
export function removalsAt(files: Map<string, IndexLine[]>, versions: Set<string>): DerivedRemoval[] {
  const out: DerivedRemoval[] = [];
  for (const [crate, lines] of files) {
    const released = lines.filter((l) => semver.valid(l.vers)).sort((a, b) => semver.compare(a.vers, b.vers));
    for (const [i, line] of released.entries()) {
      const prev = released[i - 1];
      if (!prev || !versions.has(line.vers)) continue;
      const now = featureNames(line);
      for (const feature of [...featureNames(prev)].sort())
        if (!now.has(feature))
          out.push({ crate, feature, at: line.vers, replacement: replacementOf(prev, line, feature), inferred: true });
    }
  }
  return out;
}
