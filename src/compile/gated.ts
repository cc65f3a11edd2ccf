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
/** Per ref, each built on first use: paths; methods by path; both by `Type::name` (what rustc prints of a type it trims). */
type RefGates = { readonly paths: Gates; readonly methods: Gates; readonly byTypeName: Map<string, string[]> };
type GatedIndex = {
  byRef: Map<string, RefGates>;
  versions: Map<string, string>;
  /** The release refs, oldest first (sorted once: a call sorted them with 70 semver compares). */
  releases: string[];
  /** Where each ref's pairs are: its data file's table by path (built on first use), and its column. */
  columns: Map<string, { table: () => ByPath; k: number }>;
};

/** One data file's pairs by path: each path (by its number in the file) its gates at each kept ref (by column). */
interface ByPath {
  names: Map<string, number>;
  gates: Array<Array<Gate[] | undefined> | undefined>;
}

/**
 * Built once, on a process's first compile error, so before the JIT has compiled it: indexed
 * loops, not `for (const [p, g] of …)`, whose iterator per pair made it 2–3× slower there.
 */
function byPathOf(raw: GatedData, refs: string[]): ByPath {
  const names = new Map<string, number>();
  for (let i = 0; i < raw.paths.length; i++) names.set(raw.paths[i]!, i);
  const gates: ByPath["gates"] = new Array(raw.paths.length);
  for (let k = 0; k < refs.length; k++) {
    const rows = raw.refs[refs[k]!]!.entries;
    for (let i = 0; i < rows.length; i++) {
      const pair = rows[i]!;
      const gate = raw.gates[pair[1]]!;
      let row = gates[pair[0]];
      if (!row) {
        row = new Array(refs.length);
        gates[pair[0]] = row;
      }
      const same = row[k];
      if (same) same.push(gate);
      else row[k] = [gate];
    }
  }
  return { names, gates };
}

function gatesOf(raw: GatedData, rows: Array<[number, number]>): Gates {
  const m: Gates = new Map();
  for (const [p, g] of rows) {
    const path = raw.paths[p]!;
    const same = m.get(path);
    if (same) same.push(raw.gates[g]!);
    else m.set(path, [raw.gates[g]!]);
  }
  return m;
}

function byTypeName(...maps: Gates[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of maps)
    for (const path of m.keys()) {
      const short = path.split("::").slice(-2).join("::");
      const same = out.get(short);
      if (same) same.push(path);
      else out.set(short, [path]);
    }
  return out;
}

/**
 * One ref's tables, each built on first use: building all 36 refs' tables and their by-type-name
 * maps held the first compile error a process answered ~20 ms, where a lookup needs one path.
 */
function refGates(raw: GatedData, r: GatedData["refs"][string]): RefGates {
  let paths: Gates | undefined;
  let methods: Gates | undefined;
  let short: Map<string, string[]> | undefined;
  return {
    get paths() {
      paths ??= gatesOf(raw, r.entries);
      return paths;
    },
    get methods() {
      methods ??= gatesOf(raw, r.methods ?? []);
      return methods;
    },
    get byTypeName() {
      short ??= byTypeName(this.methods, this.paths);
      return short;
    },
  };
}
let data: GatedIndex | undefined;

/** The maps in order: a ref an earlier one has is kept from it (the bundled map before data:refresh's). */
export function indexGated(maps: GatedData[]): GatedIndex {
  const byRef = new Map<string, RefGates>();
  const versions = new Map<string, string>();
  const columns: GatedIndex["columns"] = new Map();
  for (const raw of maps) {
    const kept: string[] = [];
    let built: ByPath | undefined;
    const table = () => {
      built ??= byPathOf(raw, kept);
      return built;
    };
    for (const [ref, r] of Object.entries(raw.refs)) {
      if (byRef.has(ref)) continue;
      byRef.set(ref, refGates(raw, r));
      columns.set(ref, { table, k: kept.length });
      kept.push(ref);
      if (r.version && ref.startsWith("v")) versions.set(r.version, ref);
    }
  }
  const releases = [...versions.entries()]
    .map(([v, ref]) => [new semver.SemVer(v), ref] as const)
    .sort(([a], [b]) => a.compare(b))
    .map(([, ref]) => ref);
  return { byRef, versions, releases, columns };
}

/**
 * `path`'s gates at `ref`, from one table of every path: a compile error is looked up at every
 * release (is it gated in one, in which do its items agree), and one pass over the data's pairs
 * costs less than a table per release.
 */
function pathGates(ix: GatedIndex, path: string, ref: string): Gate[] | undefined {
  const c = ix.columns.get(ref);
  if (!c) return undefined;
  const t = c.table();
  const i = t.names.get(path);
  return i === undefined ? undefined : t.gates[i]?.[c.k];
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
  return [...load().releases];
}

export function refOfVersion(version: string): string | null {
  return load().versions.get(version) ?? null;
}

const DISPATCH_BOUND = "<Dispatch as AutodiffBackend>";

/** 0.21's `Dispatch: AutodiffBackend` bound names the impl the way the data keys it. */
function key(path: string, m: () => Gates): string | null {
  if (path !== DISPATCH_BOUND) return path;
  return (
    [...m().keys()].find((k) => /^<burn::(?:backend::)?Dispatch as burn::(?:\w+::)*AutodiffBackend>$/.test(k)) ?? null
  );
}

/**
 * The gate of `path` at `ref`, and the path it belongs to: its own entry, or — when the missing
 * segment is not known (`exact` false: an import path without rustc's label) — the nearest gated
 * ancestor. null when nothing on the way is gated there (the user's own module, a typo, an item
 * renamed or removed) and when its records disagree (two namespaces under other gates).
 */
export function gateAt(ref: string, finding: Finding): { gate: Gate; path: string } | null {
  return gateIn(load(), ref, finding);
}

type Finding = { path: string; exact: boolean; member?: boolean };

/** gateAt in the maps `ix` indexes (indexGated). */
export function gateIn(
  ix: GatedIndex,
  ref: string,
  { path, exact, member }: Finding,
): { gate: Gate; path: string } | null {
  const r = ix.byRef.get(ref);
  if (!r) return null;
  if (member) return memberGate(ix, ref, path);
  let p = key(path, () => r.paths);
  while (p) {
    const gates = pathGates(ix, p, ref);
    if (gates) return sameGate(gates) ? { gate: gates[0]!, path: p } : null;
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
function memberGate(ix: GatedIndex, ref: string, path: string): { gate: Gate; path: string } | null {
  const r = ix.byRef.get(ref)!;
  const at = (p: string) => r.methods.get(p) ?? pathGates(ix, p, ref);
  const found = path.startsWith("burn::") ? [path].filter((p) => at(p)) : (r.byTypeName.get(path) ?? []);
  const gates = found.flatMap((p) => at(p) ?? []);
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
