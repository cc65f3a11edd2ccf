// crates.io sparse-index data: a registry of index lines, the bundled snapshots (data/index/), and
// what one line says (its features, its dependencies by name). Reading a file: index-file.ts;
// choosing a release: requirements.ts.
import { mustRead } from "../../data/data-access.js";
import { dataFiles } from "../../data/data-files.js";
import { boundedMemo } from "../../util/memo.js";
import * as semver from "../../util/semver.js";
import { type IndexDep, type IndexLine, indexPath, parseBundledIndexFile } from "./index-file.js";
import { spannedLines } from "./index-spans.js";
import { type SnapshotName, snapshotTables } from "./snapshot-cache.js";

export type { SnapshotName };

export interface Registry {
  /** Which data this is, for the "assumed" line of a comment. */
  readonly label: string;
  /** Every published version of a crate, oldest first; empty for crates outside the data. */
  versions(name: string): IndexLine[];
  /** Crates whose index read failed: a version they lack is unknown, not absent. */
  readonly unreadable?: ReadonlySet<string>;
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

/** The crates a bundled snapshot holds: its index files (cargo's layout: `bu/rn/burn-core`), by name. */
export function snapshotCrates(which: SnapshotName): string[] {
  return dataFiles().fileNames(`index/${which}`);
}

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
    const dir = `index/${which}`;
    // The crates the snapshot holds, listed once: a resolution asks for every dependency's
    // versions, and the 55 crates outside the data (serde, syn…) were a failed read each.
    let held: Set<string> | undefined;
    const holds = (name: string) => {
      held ??= new Set(snapshotCrates(which));
      return held.has(name.toLowerCase());
    };
    // Where the build found each line: read then line by line, not file by file.
    const read = (name: string): IndexLine[] => {
      const tables = snapshotTables(which);
      const path = `${dir}/${indexPath(name)}`;
      if (!tables) return holds(name) ? parseBundledIndexFile(mustRead(dataFiles(), path)) : [];
      const file = name.toLowerCase();
      return Object.hasOwn(tables.crates, file) ? spannedLines(path, tables.crates[file]!) : [];
    };
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
            lines = read(name);
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

const FLOOR_VERSION = new semver.SemVer(FLOOR);
/** By version string: every event asked it of every line of every file it read (3 parses a line). */
const recent = boundedMemo<boolean>(4096);

export function recentRelease(l: IndexLine): boolean {
  let r = recent.get(l.vers);
  if (r === undefined) {
    const v = semver.parse(l.vers);
    r = v !== null && v.compare(FLOOR_VERSION) >= 0;
    recent.set(l.vers, r);
  }
  return r;
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

/** One entry of a feature's list, as cargo reads it: `dep:x`, `x/f` (`weak` for `x?/f`), or a feature of the same package. */
export type FeatureValue =
  | { kind: "dep"; dep: string }
  | { kind: "dep-feature"; dep: string; feature: string; weak: boolean }
  | { kind: "feature"; feature: string };

export function featureValue(value: string): FeatureValue {
  if (value.startsWith("dep:")) return { kind: "dep", dep: value.slice(4) };
  const slash = value.indexOf("/");
  if (slash < 0) return { kind: "feature", feature: value };
  const weak = value[slash - 1] === "?";
  return { kind: "dep-feature", dep: value.slice(0, weak ? slash - 1 : slash), feature: value.slice(slash + 1), weak };
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
