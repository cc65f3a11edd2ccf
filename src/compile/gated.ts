// Which `burn::…` paths exist only behind a cargo feature, per burn release (data/gated.json,
// generated from burn-data's gated/ by the import). Loaded on first use: only an issue with a
// matching rustc error pays for it.
import { gateHolds } from "../cargo/resolve/cfg.js";
import { mustRead } from "../data/data-access.js";
import { dataFiles } from "../data/data-files.js";
import * as semver from "../util/semver.js";

export interface Gate {
  /** The whole condition, over crate-qualified features: `all(feature = "burn-core/extension", …)`. */
  gate: string;
  /**
   * The gating line's own predicate as burn's source (or rustc's note) writes it, in its crate's
   * feature names (`feature = "autodiff"`): what a comment quotes. Absent in older data; null when
   * the line's cfg was not kept as written.
   */
  cfg?: string | null;
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
  refs: Record<
    string,
    {
      version: string | null;
      commit: string;
      entries: Array<[number, number]>;
      /** Methods and associated items (E0599), under every path of their type. */
      methods?: Array<[number, number]>;
    }
  >;
}

type Gates = Map<string, Gate[]>;
/** Per ref: paths; methods by path; both by `Type::name` (what rustc prints of a type it trims). */
type RefGates = { paths: Gates; methods: Gates; byTypeName: Map<string, string[]> };
type GatedIndex = { byRef: Map<string, RefGates>; versions: Map<string, string> };

function gatesOf(raw: GatedData, rows: Array<[number, number]>): Gates {
  const m: Gates = new Map();
  for (const [p, g] of rows) {
    const path = raw.paths[p]!;
    m.set(path, [...(m.get(path) ?? []), raw.gates[g]!]);
  }
  return m;
}

function byTypeName(...maps: Gates[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const path of maps.flatMap((m) => [...m.keys()])) {
    const short = path.split("::").slice(-2).join("::");
    out.set(short, [...(out.get(short) ?? []), path]);
  }
  return out;
}
let data: GatedIndex | undefined;

/** The maps in order: a ref an earlier one has is kept from it (the bundled map before data:refresh's). */
export function indexGated(maps: GatedData[]): GatedIndex {
  const byRef = new Map<string, RefGates>();
  const versions = new Map<string, string>();
  for (const raw of maps)
    for (const [ref, r] of Object.entries(raw.refs)) {
      if (byRef.has(ref)) continue;
      const [paths, methods] = [gatesOf(raw, r.entries), gatesOf(raw, r.methods ?? [])];
      byRef.set(ref, { paths, methods, byTypeName: byTypeName(methods, paths) });
      if (r.version && ref.startsWith("v")) versions.set(r.version, ref);
    }
  return { byRef, versions };
}

/** The bundled map, then data:refresh's (gated-refreshed.json) for releases the bundled map lacks. */
function load(): GatedIndex {
  if (data) return data;
  const files = dataFiles();
  const refreshed = files.text("gated-refreshed.json");
  const texts = [mustRead(files, "gated.json"), ...(refreshed === undefined ? [] : [refreshed])];
  data = indexGated(texts.map((t) => JSON.parse(t) as GatedData));
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
function key(path: string, m: Gates): string | null {
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
  { path, exact, member }: { path: string; exact: boolean; member?: boolean },
): { gate: Gate; path: string } | null {
  const r = load().byRef.get(ref);
  if (!r) return null;
  if (member) return memberGate(r, path);
  const m = r.paths;
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

const sameGate = (gates: Gate[]) => gates.every((g) => g.gate === gates[0]!.gate);

/**
 * The gate of a method or associated item (`burn::tensor::Device::autodiff`, or `Device::autodiff`
 * as rustc prints a type whose name is unique in the build), else a variant, which the paths hold
 * (`DispatchDevice::Cuda`). A trimmed name must name one gate at the release; null otherwise.
 */
function memberGate(r: RefGates, path: string): { gate: Gate; path: string } | null {
  const found = path.startsWith("burn::")
    ? [path].filter((p) => r.methods.has(p) || r.paths.has(p))
    : (r.byTypeName.get(path) ?? []);
  const gates = found.flatMap((p) => r.methods.get(p) ?? r.paths.get(p) ?? []);
  return found.length > 0 && sameGate(gates) ? { gate: gates[0]!, path: found[0]! } : null;
}

/**
 * The paths at `ref` that exist only with `crateFeature` on: their gate holds with every feature
 * on and fails with that one off (`burn::data` and `burn::data::dataset::InMemDataset` need
 * `burn-core/std`). null when the data has no such ref: a gap, not "none".
 */
export function pathsRequiring(ref: string, crateFeature: string): string[] | null {
  const m = load().byRef.get(ref)?.paths;
  if (!m) return null;
  const out: string[] = [];
  for (const [path, gates] of m)
    if (gates.every((g) => gateHolds(g.gate, () => true) && !gateHolds(g.gate, (f) => f !== crateFeature)))
      out.push(path);
  return out.sort();
}
