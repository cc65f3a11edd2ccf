// data:refresh's part for compile errors: the gated-path map at release tags newer than the
// bundled one, read from burn's source at each tag (src/compile/source-gates.ts, the resolver the
// bot uses on the contents API). The paths checked are the ones the newest bundled release gates;
// a path that resolves nowhere is reported as absent, one the reader cannot follow (a macro,
// another crate's glob) is left out and counted. Methods (E0599) are looked for in the file of
// their impl at the newest bundled release; one not found there is left out, never absent.
// Written as data/gated-refreshed.json, in data/gated.json's compact form.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as semver from "../util/semver.js";
import { gateRecord } from "../compile/from-source.js";
import type { Gate, GatedData } from "../compile/gated.js";
import { memberSourceGate, type ParsedFiles, type SourceGate, sourceGate } from "../compile/source-gates.js";

/** burn's files at a tag (refresh.ts's SourceReader: a clone, a tree of tags, or the GitHub API). */
interface FileSource {
  file(tag: string, path: string): Promise<string | null>;
}

/** Files read per tag at most: burn's crates have a few hundred source files. */
const MAX_FILES = 4000;

export interface GatedAtTag {
  gated: Array<[string, Gate]>;
  /** Methods and associated items: [full path, gate]. */
  methods: Array<[string, Gate]>;
  absent: string[];
  /** Paths the reader could not follow to the end (left out of the map). */
  unknown: number;
  files: number;
}

/** What the newest release of a data folder's gated.json gates: its paths, and its methods with their impl's file. */
export interface NewestGated {
  paths: string[];
  methods: Array<{ path: string; file: string }>;
}

export function newestGated(dataDir: string): NewestGated {
  const file = join(dataDir, "gated.json");
  if (!existsSync(file)) return { paths: [], methods: [] };
  const raw = JSON.parse(readFileSync(file, "utf8")) as GatedData;
  const tags = Object.entries(raw.refs).filter(([ref, r]) => ref.startsWith("v") && r.version && semver.valid(r.version));
  const newest = tags.sort(([, a], [, b]) => semver.compare(a.version!, b.version!)).at(-1)?.[1];
  if (!newest) return { paths: [], methods: [] };
  const methods = new Map((newest.methods ?? []).map(([p, g]) => [raw.paths[p]!, raw.gates[g]!.file]));
  return {
    paths: [...new Set(newest.entries.map(([p]) => raw.paths[p]!))].sort(),
    methods: [...methods].sort(([a], [b]) => a.localeCompare(b)).map(([path, file]) => ({ path, file })),
  };
}

export async function gatesAt(tag: string, wanted: NewestGated, source: FileSource): Promise<GatedAtTag> {
  const files = new Map<string, string | null>();
  const parsed: ParsedFiles = new Map();
  const out: GatedAtTag = { gated: [], methods: [], absent: [], unknown: 0, files: 0 };
  const settle = async (ask: () => SourceGate): Promise<SourceGate> => {
    let g = ask();
    while (g.kind === "need" && files.size < MAX_FILES) {
      for (const f of g.files) files.set(f, await source.file(tag, f));
      g = ask();
    }
    return g;
  };
  const read = (p: string) => files.get(p);
  for (const path of wanted.paths) {
    const g = await settle(() => sourceGate(path, read, parsed));
    if (g.kind === "gated") out.gated.push([path, gateRecord(tag, g).gate]);
    else if (g.kind === "absent") out.absent.push(path);
    else if (g.kind !== "ungated") out.unknown++;
  }
  for (const { path, file } of wanted.methods) {
    const cut = path.lastIndexOf("::");
    const g = await settle(() => memberSourceGate(path.slice(0, cut), path.slice(cut + 2), file, read, parsed));
    if (g.kind === "gated") out.methods.push([path, gateRecord(tag, g).gate]);
    else if (g.kind !== "ungated") out.unknown++;
  }
  out.files = files.size;
  return out;
}

/** The compact map of the tags read (paths and gates interned, as scripts/import-burn-data.mjs writes them). */
export function compactGated(tags: Array<{ ref: string; version: string; commit: string; at: GatedAtTag }>): GatedData {
  const data: GatedData = {
    generated_by: "npm run data:refresh (src/data/refresh-gated.ts); do not edit",
    paths: [],
    gates: [],
    refs: {},
  };
  const pathIndex = new Map<string, number>();
  const gateIndex = new Map<string, number>();
  const intern = <T>(index: Map<string, number>, list: T[], key: string, value: T) => {
    let i = index.get(key);
    if (i === undefined) {
      i = list.push(value) - 1;
      index.set(key, i);
    }
    return i;
  };
  for (const t of tags)
    data.refs[t.ref] = {
      version: t.version,
      commit: t.commit,
      entries: t.at.gated.map(([p, g]) => [
        intern(pathIndex, data.paths, p, p),
        intern(gateIndex, data.gates, JSON.stringify(g), g),
      ]),
      methods: t.at.methods.map(([p, g]) => [
        intern(pathIndex, data.paths, p, p),
        intern(gateIndex, data.gates, JSON.stringify(g), g),
      ]),
    };
  return data;
}
