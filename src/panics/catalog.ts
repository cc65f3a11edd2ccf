import { CACHE_DIR, type DataFiles, mustRead } from "../data/data-access.js";
import { dataFiles } from "../data/data-files.js";
import { jsYaml } from "../util/lazy-modules.js";
import * as semver from "../util/semver.js";
import type { ScreenCosts, ScreenPlan } from "./screen.js";

/**
 * feature-off: a cargo feature is off and turning it on fixes it; misuse: the build is right,
 * the program is not; removed-feature: the message names a feature that release no longer has.
 */
export type Cause = "feature-off" | "misuse" | "removed-feature";

/** The feature of `crate` that removes the site; several when any one of them does (a backend). */
export interface SiteFix {
  crate: string;
  features: string[];
  /** For a `match` on the device's backend: the feature each variant needs. */
  per_variant?: Record<string, string[]>;
}

export interface Site {
  ref: string;
  commit: string;
  /** Workspace version at that ref; null for a commit known only from a seed report. */
  version: string | null;
  file: string;
  line: number;
  macro: string;
  printed: string;
  cfg: string | null;
  item: string;
  in_macro_rules: boolean;
  /** When the site is live, as a cfg predicate (the family data's effective condition). */
  gate?: string | null;
  /** null: no feature fixes it at that ref; absent: not known from the data. */
  fix?: SiteFix | null;
  /** Set for a site known only from a user's report (a seed), not from burn's source in the data. */
  seed_date?: string;
}

export interface Entry {
  id: string;
  message: string;
  match?: "prefix";
  crate: string;
  cause: Cause;
  title: string;
  explanation: string;
  fixes: string[];
  sites: Site[];
  /** The feature-family rule this entry comes from, and the backend of a per-backend message. */
  family?: string;
  backend?: string;
  when?: "run-time" | "compile-time";
  /** How a comment names the entry's code (a site inside `macro_rules!` is its macro's arm). */
  site_kind: SiteKind;
  /** With no printed location, the site linked is the first whose item contains this. */
  prefer_item?: string;
  /** A regex whose group 1, in a backtrace, names the method that reached the site. */
  first_call?: string;
  /** For a choice of backends: those burn calls GPU backends, and where it says so. */
  gpu_backends?: { features: string[]; source: string };
}

export type SiteKind = "stub" | "check" | "fallback" | "compile-error";

export interface Ref {
  ref: string;
  commit: string;
  version: string;
  date: string;
}

export interface Catalog {
  repository: string;
  refs: Ref[];
  entries: Entry[];
}

/** The longest literal piece of a message (placeholders are filled at run time): what a source scan looks for. */
export function messageLiteral(entry: Entry): string {
  return entry.message.split(/\{[^{}]*\}/).sort((a, b) => b.length - a.length)[0]!;
}

let cached: Catalog | undefined;

/**
 * The catalog as the burn-data import wrote it, without what `data:refresh` added: from the
 * build's JSON copy while catalog.yml is unchanged (parsing the YAML cost more than the rest of a
 * CLI call), else from the YAML.
 */
export function loadBaseCatalog(dir?: string): Catalog {
  const files = dataFiles(dir);
  const cached = files.cached<CachedCatalog>(CATALOG_CACHE, [CATALOG_YAML]);
  if (!cached) return yamlCatalog(files);
  let yaml: Catalog | undefined;
  const fromYaml = () => (yaml ??= yamlCatalog(files));
  return { ...cached, entries: cached.entries.map((e) => withSitesFrom(files, e, fromYaml)) };
}

const yamlCatalog = (files: DataFiles) => jsYaml().load(mustRead(files, CATALOG_YAML)) as Catalog;

export const CATALOG_YAML = "catalog.yml";
export const CATALOG_CACHE = "catalog.json";
/** The build's copy keeps each entry's sites apart, one line per entry, read when first asked for. */
export const CATALOG_SITES = "catalog-sites.jsonl";

/** An entry of the build's copy: where its line of CATALOG_SITES is, in bytes, not its sites. */
type CachedEntry = Omit<Entry, "sites"> & { sitesAt: [start: number, length: number] };
type CachedCatalog = Omit<Catalog, "entries"> & { entries: CachedEntry[] };

/**
 * The entry with its sites read on first use: a call reads those of the entries a text holds, not
 * 170 KB of every entry's (loading the catalog took 1.9 ms of a profiled explain, now 0.5). A line
 * that is not the entry's (the file changed after the build) is answered from catalog.yml.
 */
function withSitesFrom(files: DataFiles, cached: CachedEntry, fromYaml: () => Catalog): Entry {
  const { sitesAt, ...entry } = cached;
  let sites: Site[] | undefined;
  const read = (): Site[] => {
    try {
      const [start, length] = sitesAt;
      const line = JSON.parse(files.span(`${CACHE_DIR}/${CATALOG_SITES}`, start, length)) as CachedSites;
      if (line.id === entry.id) return line.sites;
    } catch {
      // gone or cut: below
    }
    return fromYaml().entries.find((e) => e.id === entry.id)?.sites ?? [];
  };
  return Object.defineProperty(entry as Entry, "sites", {
    enumerable: true,
    configurable: true,
    get: () => (sites ??= read()),
    set: (v: Site[]) => {
      sites = v;
    },
  });
}

/** A line of CATALOG_SITES. */
interface CachedSites {
  id: string;
  sites: Site[];
}

/** The build's copy of a catalog (scripts/cache-data.mjs): it without its sites, and CATALOG_SITES's text. */
export function cachedCatalog(catalog: Catalog): { catalog: CachedCatalog; sites: string } {
  const lines: string[] = [];
  let at = 0;
  const entries = catalog.entries.map(({ sites, ...entry }): CachedEntry => {
    const line = JSON.stringify({ id: entry.id, sites } satisfies CachedSites);
    const sitesAt: [number, number] = [at, Buffer.byteLength(line)];
    at += sitesAt[1] + 1;
    lines.push(line);
    return { ...entry, sitesAt };
  });
  return { catalog: { ...catalog, entries }, sites: `${lines.join("\n")}\n` };
}

interface Refreshed {
  refs: Ref[];
  sites: Record<string, Site[]>;
}

/** The import's catalog, with the releases and sites `npm run data:refresh` read since. */
export function loadCatalog(): Catalog {
  if (cached) return cached;
  const base = loadBaseCatalog();
  const refreshed = dataFiles().text("catalog-refreshed.yml");
  if (refreshed !== undefined) {
    const extra = jsYaml().load(refreshed) as Refreshed;
    const known = new Set(base.refs.map((r) => r.ref));
    // Release tags go before HEAD, which stays last (the bundled snapshot of burn's main branch).
    const head = base.refs.filter((r) => r.ref === "HEAD");
    base.refs = [...base.refs.filter((r) => r.ref !== "HEAD"), ...extra.refs.filter((r) => !known.has(r.ref)), ...head];
    for (const e of base.entries) e.sites = [...e.sites, ...(extra.sites[e.id] ?? []).filter((s) => !known.has(s.ref))];
  }
  cached = base;
  return cached;
}

let sourceFiles: Set<string> | undefined;

/**
 * The files of burn's repository the bot may read: those the catalog has a site in, at any
 * release. A path printed in an issue is only read when it is one of them.
 */
export function catalogFiles(): Set<string> {
  sourceFiles ??= new Set(loadCatalog().entries.flatMap((e) => e.sites.map((s) => s.file)));
  return sourceFiles;
}

/** A real release tag: `v` and a strict semver version (`v0.22.1`, `v0.23.0-pre.1`; not `v0.22.1-..`, a branch or a commit). */
export function isReleaseTag(ref: string): boolean {
  return ref.startsWith("v") && semver.valid(ref.slice(1)) === ref.slice(1);
}

export const SCREEN_COSTS = "screen-frequency.json";
export const SCREEN_CACHE = "screen-plan.json";

/** What each message word costs the word screen (scripts/screen-frequency.mjs); none without the file. */
export function screenCosts(): ScreenCosts {
  const text = dataFiles().text(SCREEN_COSTS);
  return text === undefined ? {} : (JSON.parse(text) as ScreenCosts);
}

/**
 * The screen's plan as `npm run build` derived it (scripts/cache-data.mjs), so that a call neither
 * derives it nor loads the catalog to screen a text; undefined: derive it.
 */
export function cachedScreenPlan(): ScreenPlan | null | undefined {
  const files = dataFiles();
  return files.has(SCREEN_COSTS)
    ? files.cached<ScreenPlan | null>(SCREEN_CACHE, [CATALOG_YAML, SCREEN_COSTS])
    : undefined;
}
