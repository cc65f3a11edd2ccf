// crates.io sparse-index data: the bundled snapshot (data/index/) and cargo's version selection.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as semver from "../semver.js";
import { dataDir } from "../data-dir.js";
import { boundedMemo } from "../memo.js";

export interface IndexDep {
  /** The local name (the key in the manifest). */
  name: string;
  /** The crate name when renamed (`package = "…"`). */
  package?: string;
  req: string;
  features: string[];
  optional: boolean;
  default_features: boolean;
  target: string | null;
  kind: "normal" | "dev" | "build" | null;
}

export interface IndexLine {
  name: string;
  vers: string;
  deps: IndexDep[];
  features: Record<string, string[]>;
  features2?: Record<string, string[]>;
  yanked?: boolean;
}

export interface Registry {
  /** Which data this is, for the "assumed" line of a comment. */
  readonly label: string;
  /** Every published version of a crate, oldest first; empty for crates outside the data. */
  versions(name: string): IndexLine[];
  /** Crates whose index read failed: a version they lack is unknown, not absent. */
  readonly unreadable?: ReadonlySet<string>;
}

/**
 * Cargo's rule for a crate name on crates.io: ASCII letters, digits, `-` and `_`, starting with a
 * letter, at most 64 characters. Names come from issues and from index files anyone can publish,
 * so nothing else may shape an index URL or a file path (`..`, `?`, `%2e`, `/`).
 */
export function validCrateName(name: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(name);
}

/** Sparse-index path rule: `bu/rn/burn-core`, `3/s/syn`, `1/a`. Throws for a name cargo would refuse. */
export function indexPath(name: string): string {
  if (!validCrateName(name))
    throw new IndexShapeError(`not a crate name cargo accepts: ${JSON.stringify(name.slice(0, 80))}`);
  const n = name.toLowerCase();
  if (n.length <= 2) return `${n.length}/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

/** An index file (or a name) that does not have the shape cargo writes; the crate then falls back. */
export class IndexShapeError extends Error {
  override name = "IndexShapeError";
}

/**
 * What one index file may hold before it is refused. burn's largest file (burn-core) has about 80
 * versions, 90 features and 40 dependencies per line; these leave an order of magnitude, and
 * bound the resolver's walk whatever a published crate says.
 */
export const INDEX_LIMITS = { lines: 2000, deps: 512, features: 1024, values: 512, valueLength: 256 };

const DEP_KINDS = new Set(["normal", "dev", "build"]);

function isStringArray(v: unknown, max: number): v is string[] {
  return (
    Array.isArray(v) && v.length <= max && v.every((x) => typeof x === "string" && x.length <= INDEX_LIMITS.valueLength)
  );
}

function featureTable(v: unknown): Record<string, string[]> | null {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) return null;
  const entries = Object.entries(v);
  if (entries.length > INDEX_LIMITS.features) return null;
  const out: Record<string, string[]> = {};
  for (const [k, vs] of entries) {
    if (k.length > INDEX_LIMITS.valueLength || !isStringArray(vs, INDEX_LIMITS.values)) return null;
    out[k] = vs;
  }
  return out;
}

function dependency(v: unknown): IndexDep | null {
  if (typeof v !== "object" || v === null) return null;
  const d = v as Record<string, unknown>;
  if (
    typeof d.name !== "string" ||
    !validCrateName(d.name) ||
    typeof d.req !== "string" ||
    d.req.length > INDEX_LIMITS.valueLength
  )
    return null;
  if (d.package !== undefined && d.package !== null && (typeof d.package !== "string" || !validCrateName(d.package)))
    return null;
  const features = d.features ?? [];
  if (!isStringArray(features, INDEX_LIMITS.values)) return null;
  const kind = d.kind ?? null;
  if (kind !== null && !(typeof kind === "string" && DEP_KINDS.has(kind))) return null;
  const target = d.target ?? null;
  if (target !== null && (typeof target !== "string" || target.length > INDEX_LIMITS.valueLength)) return null;
  return {
    name: d.name,
    ...(typeof d.package === "string" ? { package: d.package } : {}),
    req: d.req,
    features,
    optional: d.optional === true,
    default_features: d.default_features !== false,
    target: target as string | null,
    kind: kind as IndexDep["kind"],
  };
}

function indexLine(v: unknown, crate: string | undefined): IndexLine {
  const l = v as Record<string, unknown> | null;
  const bad = (what: string) => new IndexShapeError(`index line${crate ? ` of ${crate}` : ""}: ${what}`);
  if (typeof l !== "object" || l === null || Array.isArray(l)) throw bad("not an object");
  if (
    typeof l.name !== "string" ||
    !validCrateName(l.name) ||
    (crate !== undefined && l.name.toLowerCase() !== crate.toLowerCase())
  )
    throw bad("wrong crate name");
  if (typeof l.vers !== "string" || l.vers.length > 64 || semver.valid(l.vers) === null) throw bad("no valid version");
  if (!Array.isArray(l.deps) || l.deps.length > INDEX_LIMITS.deps) throw bad("deps is not a list of bounded length");
  const deps = l.deps.map(dependency);
  if (deps.some((d) => d === null)) throw bad("a dependency without the fields cargo writes");
  const features = featureTable(l.features);
  const features2 = featureTable(l.features2);
  if (!features || !features2 || Object.keys(features).length + Object.keys(features2).length > INDEX_LIMITS.features)
    throw bad("features are not a bounded table of lists");
  return {
    name: l.name,
    vers: l.vers,
    deps: deps as IndexDep[],
    features,
    ...(l.features2 ? { features2 } : {}),
    ...(l.yanked === true ? { yanked: true } : {}),
  };
}

/**
 * Parses a sparse-index file into lines of exactly the shape cargo writes, within INDEX_LIMITS;
 * anything else throws IndexShapeError (the caller falls back for that crate). `crate`, when
 * given, is the name the file was asked for: a line about another crate is refused too.
 */
export function parseIndexFile(text: string, crate?: string): IndexLine[] {
  const out: IndexLine[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim().length === 0) continue;
    if (out.length >= INDEX_LIMITS.lines)
      throw new IndexShapeError(`index file${crate ? ` of ${crate}` : ""}: more than ${INDEX_LIMITS.lines} lines`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new IndexShapeError(`index file${crate ? ` of ${crate}` : ""}: a line is not JSON`);
    }
    out.push(indexLine(parsed, crate));
  }
  return out;
}

/**
 * A file of the bundled snapshot, which `npm run data:import` wrote in cargo's shape and a test
 * holds equal to parseIndexFile's reading of it: parsed without the per-field checks a live index
 * needs (they are half of a CLI call's index time).
 */
export function parseBundledIndexFile(text: string): IndexLine[] {
  return text.split("\n").flatMap((raw) => (raw.trim().length === 0 ? [] : [bundledLine(raw)]));
}

/** The head cargo writes first on every line: `{"name":"…","vers":"…",`. */
const LINE_HEAD = /^\{"name":("(?:[^"\\]|\\.)*"),"vers":("(?:[^"\\]|\\.)*"),/;

/**
 * One bundled line, its name and version read from its head and the rest parsed on first use: a
 * call resolves one or two versions of each crate it touches, and parsing all twenty-odd was most
 * of a CLI call's index time. `"yanked":true` can only be the line's own field (inside a JSON
 * string its quotes would be escaped, and no other object on a line has that key).
 */
function bundledLine(raw: string): IndexLine {
  const head = LINE_HEAD.exec(raw);
  if (!head) return JSON.parse(raw) as IndexLine;
  let whole: IndexLine | undefined;
  const full = () => {
    whole ??= JSON.parse(raw) as IndexLine;
    return whole;
  };
  const line = { name: JSON.parse(head[1]!) as string, vers: JSON.parse(head[2]!) as string };
  return Object.defineProperties(raw.includes('"yanked":true') ? { ...line, yanked: true } : line, {
    deps: { enumerable: true, get: () => full().deps },
    features: { enumerable: true, get: () => full().features },
    features2: { enumerable: true, get: () => full().features2 },
  }) as IndexLine;
}

export class MapRegistry implements Registry {
  constructor(
    readonly label: string,
    private readonly files: Map<string, IndexLine[]>,
    readonly unreadable?: ReadonlySet<string>,
  ) {}
  versions(name: string): IndexLine[] {
    return this.files.get(name) ?? [];
  }
}

/** The bundled snapshots: one line per burn release tag, and burn's main branch at the data's HEAD. */
export type SnapshotName = "tags" | "main";

const snapshots = new Map<SnapshotName, Registry>();

/** Which bundled snapshot this registry is, by identity (a live index built from it is not). */
export function bundledSnapshotName(registry: Registry): SnapshotName | null {
  for (const [name, r] of snapshots) if (r === registry) return name;
  return null;
}

/** The newest burn release the bundled tags snapshot holds (data:refresh may have added some). */
function newestTag(tags: Registry): string {
  const versions = tags.versions("burn").flatMap((l) => semver.valid(l.vers) ?? []);
  return versions.sort(semver.compare).at(-1) ?? "?";
}

/** The data a burn version is looked up in: the release tags' snapshot and main's (see `snapshot`). */
export type Registries = { tags: Registry; main: Registry };

/** `tags`: one line per burn release tag; `main`: burn's main branch at the data's HEAD. */
export function snapshot(which: SnapshotName): Registry {
  let reg = snapshots.get(which);
  if (!reg) {
    const files = new Map<string, IndexLine[]>();
    let label: string | undefined;
    const lazy: Registry = {
      get label() {
        label ??=
          which === "tags"
            ? `the bundled data (releases up to ${newestTag(lazy)})`
            : "the bundled snapshot of burn's main branch";
        return label;
      },
      versions(name) {
        let lines = files.get(name);
        if (!lines) {
          try {
            lines = parseBundledIndexFile(readFileSync(join(dataDir, "index", which, indexPath(name)), "utf8"));
          } catch {
            lines = [];
          }
          files.set(name, lines);
        }
        return lines;
      },
    };
    reg = lazy;
    snapshots.set(which, reg);
  }
  return reg;
}

/** burn releases the bot reasons about; lines older than this are neither followed nor refreshed. */
export const FLOOR = "0.16.0";

export function recentRelease(l: IndexLine): boolean {
  const v = semver.valid(l.vers);
  return v !== null && semver.gte(v, FLOOR);
}

/** The burn crates (other than the ones listed in `known`) that these lines depend on, outside dev-dependencies. */
export function burnDependencies(lines: IndexLine[], known: Set<string>): string[] {
  const out = new Set<string>();
  for (const l of lines)
    for (const d of l.deps) {
      const crate = d.package ?? d.name;
      if ((crate === "burn" || crate.startsWith("burn-")) && d.kind !== "dev" && !known.has(crate)) out.add(crate);
    }
  return [...out];
}

const featureTables = new WeakMap<IndexLine, Record<string, string[]>>();

/** `features` and `features2` as one table (computed once per line: the resolver asks often). */
export function allFeatures(line: IndexLine): Record<string, string[]> {
  let t = featureTables.get(line);
  if (!t) {
    t = { ...line.features, ...(line.features2 ?? {}) };
    featureTables.set(line, t);
  }
  return t;
}

const hiddenDeps = new WeakMap<IndexLine, Set<string>>();

/** Optional dependencies some feature names as `dep:x`: they get no implicit feature. */
export function depHidden(line: IndexLine, dep: string): boolean {
  let s = hiddenDeps.get(line);
  if (!s) {
    s = new Set();
    for (const vs of Object.values(allFeatures(line))) for (const v of vs) if (v.startsWith("dep:")) s.add(v.slice(4));
    hiddenDeps.set(line, s);
  }
  return s.has(dep);
}

const depsByName = new WeakMap<IndexLine, Map<string, IndexDep[]>>();

/** The line's declarations of one local dependency name (a crate may be declared per target). */
export function depsNamed(line: IndexLine, name: string): IndexDep[] {
  let m = depsByName.get(line);
  if (!m) {
    m = new Map();
    for (const d of line.deps) m.set(d.name, [...(m.get(d.name) ?? []), d]);
    depsByName.set(line, m);
  }
  return m.get(name) ?? [];
}

/** Cargo's requirement syntax in node-semver's: a bare version is a caret requirement. */
export function cargoRange(req: string): string {
  return req
    .split(",")
    .map((part) => {
      const p = part.trim();
      return /^\d/.test(p) ? `^${p}` : p.replace(/^([<>=~^]+)\s+/, "$1");
    })
    .join(" ");
}

/**
 * Cargo's matching: a requirement without a pre-release (`*`, `>=0.20`, `0.21`) never matches a
 * pre-release; one with a pre-release matches pre-releases of the same major.minor.patch only
 * (`^0.22.0-pre.1` matches `0.22.0-pre.2`). node-semver's default matching is exactly that.
 * `null` (no requirement: a git or path dependency) matches anything.
 */
export function matches(version: string, req: string | null): boolean {
  return satisfies(version, req, { includePrerelease: false });
}

/** `includePrerelease` for a pinned version: one that was built is compatible with a plain `*`. */
function satisfies(version: string, req: string | null, opts: { includePrerelease: boolean }): boolean {
  if (req === null) return true;
  const range = rangeOf(req, opts.includePrerelease);
  const v = versionOf(version);
  return v !== null && range?.test(v) === true;
}

const MAX_RANGES = 4096;

/** Parsed once per version string: every requirement of a resolution tests the same few hundred. */
const versionsParsed = boundedMemo<semver.SemVer | null>(MAX_RANGES);

function versionOf(version: string): semver.SemVer | null {
  let v = versionsParsed.get(version);
  if (v === undefined) {
    v = semver.parse(version);
    versionsParsed.set(version, v);
  }
  return v;
}

/** Parsed once per requirement: a resolution tests the same few requirements thousands of times. */
const ranges = boundedMemo<semver.Range | null>(MAX_RANGES);

function rangeOf(req: string, includePrerelease: boolean): semver.Range | null {
  const key = `${includePrerelease ? "+" : "-"}${req}`;
  let range = ranges.get(key);
  if (range === undefined) {
    range = parseRange(cargoRange(req === "" ? "*" : req), includePrerelease);
    // Requirements come from index data and issues: bounded, and long ones are not kept.
    ranges.set(key, range);
  }
  return range;
}

/** `semver.validRange` then `new Range` would parse it twice (a CLI call's first parses are its slowest). */
function parseRange(range: string, includePrerelease: boolean): semver.Range | null {
  try {
    return new semver.Range(range, { includePrerelease });
  } catch {
    return null;
  }
}

/**
 * Cargo picks the highest matching version that is not yanked; a pin (Cargo.lock, a backtrace
 * path) is what was actually built, so it wins whenever it is compatible with the requirement.
 */
const selections = new WeakMap<IndexLine[], Map<string, IndexLine | null>>();

export function selectVersion(lines: IndexLine[], req: string | null, pin?: string): IndexLine | null {
  let memo = selections.get(lines);
  if (!memo) {
    memo = new Map();
    selections.set(lines, memo);
  }
  const key = `${req}\u0000${pin ?? ""}`;
  if (!memo.has(key)) memo.set(key, pick(lines, req, pin));
  return memo.get(key)!;
}

function pick(lines: IndexLine[], req: string | null, pin?: string): IndexLine | null {
  if (pin) {
    const pinned = lines.find((l) => l.vers === pin);
    if (pinned && satisfies(pin, req, { includePrerelease: true })) return pinned;
  }
  let best: IndexLine | null = null;
  for (const l of lines) {
    if (l.yanked || !matches(l.vers, req)) continue;
    if (!best || versionOf(l.vers)!.compare(versionOf(best.vers)!) > 0) best = l;
  }
  return best;
}
