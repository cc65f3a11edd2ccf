// Which `burn::…` paths exist only behind a cargo feature, per burn release (data/gated.json,
// generated from burn-data's gated/ by the import). Loaded on first use: only an issue with a
// matching rustc error pays for it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as semver from "../semver.js";
import { dataDir } from "../data-dir.js";
import { gateHolds } from "../cargo/cfg.js";

export interface Gate {
  /** The whole condition, over crate-qualified features: `all(feature = "burn-core/extension", …)`. */
  gate: string;
  /** Where the gating `#[cfg]` is: crate, repository path and line at that ref. */
  crate: string;
  file: string;
  cfg_line: number;
  /** burn features to add with default features on ([] = on by default; null = none reaches it). */
  suggest: string[] | null;
  /** The same with `default-features = false`. */
  suggest_no_default: string[] | null;
  by_default: boolean | null;
  /** Not burn-data's record: rustc's configured-out note, or burn's source read at the tag. */
  from?: "rustc" | "source";
}

/** data/gated.json's compact form: paths and gates interned, and per ref `[path, gate]` index pairs. */
export interface GatedData {
  generated_by: string;
  paths: string[];
  gates: Gate[];
  refs: Record<string, { version: string | null; commit: string; entries: Array<[number, number]> }>;
}

type GatedIndex = { byRef: Map<string, Map<string, Gate[]>>; versions: Map<string, string> };
let data: GatedIndex | undefined;

/** The maps in order: a ref an earlier one has is kept from it (the bundled map before data:refresh's). */
export function indexGated(maps: GatedData[]): GatedIndex {
  const byRef = new Map<string, Map<string, Gate[]>>();
  const versions = new Map<string, string>();
  for (const raw of maps)
    for (const [ref, r] of Object.entries(raw.refs)) {
      if (byRef.has(ref)) continue;
      const m = new Map<string, Gate[]>();
      for (const [p, g] of r.entries) {
        const path = raw.paths[p]!;
        m.set(path, [...(m.get(path) ?? []), raw.gates[g]!]);
      }
      byRef.set(ref, m);
      if (r.version && ref.startsWith("v")) versions.set(r.version, ref);
    }
  return { byRef, versions };
}

/** The bundled map, then data:refresh's (gated-refreshed.json) for releases the bundled map lacks. */
function load(): GatedIndex {
  if (data) return data;
  const refreshed = join(dataDir, "gated-refreshed.json");
  const files = [join(dataDir, "gated.json"), ...(existsSync(refreshed) ? [refreshed] : [])];
  data = indexGated(files.map((f) => JSON.parse(readFileSync(f, "utf8")) as GatedData));
  return data;
}

/** Release refs the data covers, oldest first. */
export function gatedRefs(): string[] {
  return [...load().versions.entries()].sort(([a], [b]) => semver.compare(a, b)).map(([, ref]) => ref);
}

export function refOfVersion(version: string): string | null {
  return load().versions.get(version) ?? null;
}

/** 0.21's `Dispatch: AutodiffBackend` bound names the impl the way the data keys it. */
function key(path: string, m: Map<string, Gate[]>): string | null {
  if (path !== "<Dispatch as AutodiffBackend>") return path;
  return (
    [...m.keys()].find((k) => /^<burn::(?:backend::)?Dispatch as burn::(?:\w+::)*AutodiffBackend>$/.test(k)) ?? null
  );
}

/**
 * The gate of `path` at `ref`, and the path it belongs to: its own entry, or — when the missing
 * segment is not known (`exact` false: an import path without rustc's label) — the nearest gated
 * ancestor. null when nothing on the way is gated there (the user's own module, a typo, an item
 * renamed or removed) and when its records disagree (two namespaces under other gates).
 */
export function gateAt(
  ref: string,
  { path, exact }: { path: string; exact: boolean },
): { gate: Gate; path: string } | null {
  const m = load().byRef.get(ref);
  if (!m) return null;
  let p = key(path, m);
  while (p) {
    const gates = m.get(p);
    if (gates) {
      const first = gates[0]!;
      return gates.every((g) => g.gate === first.gate) ? { gate: first, path: p } : null;
    }
    if (exact) return null;
    const cut = p.lastIndexOf("::");
    p = cut > "burn".length ? p.slice(0, cut) : null;
  }
  return null;
}

/**
 * The paths at `ref` that exist only with `crateFeature` on: their gate holds with every feature
 * on and fails with that one off (`burn::data` and `burn::data::dataset::InMemDataset` need
 * `burn-core/std`). null when the data has no such ref: a gap, not "none".
 */
export function pathsRequiring(ref: string, crateFeature: string): string[] | null {
  const m = load().byRef.get(ref);
  if (!m) return null;
  const out: string[] = [];
  for (const [path, gates] of m)
    if (gates.every((g) => gateHolds(g.gate, () => true) && !gateHolds(g.gate, (f) => f !== crateFeature)))
      out.push(path);
  return out.sort();
}
