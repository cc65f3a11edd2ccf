// crates.io sparse-index data: the bundled snapshot (data/index/) and cargo's version selection.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { dataDir } from "../data-dir.js";
import { loadCatalog } from "../panics/catalog.js";

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
}

/** Sparse-index path rule: `bu/rn/burn-core`, `3/s/syn`, `1/a`. */
export function indexPath(name: string): string {
  const n = name.toLowerCase();
  if (n.length <= 2) return `${n.length}/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

export function parseIndexFile(text: string): IndexLine[] {
  return text
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as IndexLine);
}

export class MapRegistry implements Registry {
  constructor(
    readonly label: string,
    private readonly files: Map<string, IndexLine[]>,
  ) {}
  versions(name: string): IndexLine[] {
    return this.files.get(name) ?? [];
  }
}

const snapshots = new Map<string, Registry>();

/** The newest release the bundled snapshot knows (from the catalog's refs, which the import writes with it). */
function newestTag(): string {
  return loadCatalog().refs.filter((r) => r.ref.startsWith("v")).at(-1)?.version ?? "?";
}

/** `tags`: one line per burn release tag; `main`: burn's main branch at the data's HEAD. */
export function snapshot(which: "tags" | "main"): Registry {
  let reg = snapshots.get(which);
  if (!reg) {
    const files = new Map<string, IndexLine[]>();
    const lazy: Registry = {
      label: which === "tags" ? `the bundled data (releases up to ${newestTag()})` : "the bundled snapshot of burn's main branch",
      versions(name) {
        let lines = files.get(name);
        if (!lines) {
          try {
            lines = parseIndexFile(readFileSync(join(dataDir, "index", which, indexPath(name)), "utf8"));
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
  const out: string[] = [];
  for (const l of lines)
    for (const d of l.deps) {
      const crate = d.package ?? d.name;
      if ((crate === "burn" || crate.startsWith("burn-")) && d.kind !== "dev" && !known.has(crate) && !out.includes(crate)) out.push(crate);
    }
  return out;
}

export function allFeatures(line: IndexLine): Record<string, string[]> {
  return { ...line.features, ...(line.features2 ?? {}) };
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
  return satisfies(version, req, false);
}

/** `includePrerelease` for a pinned version: one that was built is compatible with a plain `*`. */
function satisfies(version: string, req: string | null, includePrerelease: boolean): boolean {
  if (req === null) return true;
  const range = semver.validRange(cargoRange(req === "" ? "*" : req));
  return range !== null && semver.satisfies(version, range, { includePrerelease });
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
    if (pinned && satisfies(pin, req, true)) return pinned;
  }
  let best: IndexLine | null = null;
  for (const l of lines) {
    if (l.yanked || !matches(l.vers, req)) continue;
    if (!best || semver.gt(l.vers, best.vers)) best = l;
  }
  return best;
}
