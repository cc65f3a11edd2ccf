// What cargo refuses before it builds anything: a feature the manifest names on a burn crate that
// the crate does not have at the release cargo selects (`package `app` depends on `burn` with
// feature `server` but `burn` does not have that feature`). Checked on every feature the
// manifest names on every burn dependency (its own list, inherited from `[workspace.dependencies]`
// or not) and every `[features]` entry that forwards to one (`burn/x`, `burn?/x`). A manifest
// cargo refuses is never "on" and never "verified". The index lines are the resolver's; burn's
// feature history (data/removed-features.json) is read once, on the first refusal.
import leven from "leven";
import { dataFiles } from "../../data/data-files.js";
import * as semver from "../../util/semver.js";
import { qualifyBurnRefs } from "../../util/links.js";
import type { IndexLine } from "../index/index-file.js";
import { allFeatures, depHidden, featureValue, type Registry } from "../index/registry.js";
import type { AST } from "toml-eslint-parser";
import { isBurnDependency } from "../manifest/burn-version.js";
import { type DepDecl, effectiveDecl, featuresEntry, type Manifest } from "../manifest/manifest.js";
import { selectVersion } from "../resolve/requirements.js";
import type { FeatureTarget } from "../resolve/resolve.js";
import { rankReplacements } from "./like-for-like.js";

/**
 * The target of an answer to cargo's refusal itself: nothing beyond cargo accepting the manifest
 * (a gate that always holds), so the edit only renames or drops what cargo refuses.
 */
export const ACCEPTED: FeatureTarget = { crate: "burn", feature: "(accepted)", gate: "all()", label: "cargo's check" };

export interface Refusal {
  /** The burn crate and the release the manifest selects. */
  crate: string;
  version: string;
  feature: string;
  /** Where the manifest names it: the dependency's line, or the `[features]` entry. */
  where: { kind: "dependency"; decl: DepDecl; inRoot: boolean } | { kind: "features"; entry: string };
  /**
   * The line its name is written on (1-based): in the workspace root's text when `where.inRoot`,
   * else in the manifest's (a `features = [` list over several lines, a `[dependencies.burn]`
   * table, a `[features]` entry). null when no string of that name is found there.
   */
  line: number | null;
  /** What is known of the feature: removed at a release (with its replacement), or never a feature. */
  history: Removal | { kind: "never"; closest: string[] } | { kind: "gone"; lastIn: string };
}

export interface Removal {
  kind: "removed";
  at: string | null;
  /** The features that replace it at that release ([]: none needed; null: none, or none known when inferred). */
  replacement: string[] | null;
  advice?: string;
  /** Derived by data:refresh from the index (the same optional crates), not from burn's history. */
  inferred?: boolean;
  /**
   * Set when the resolver ordered several replacements (like-for-like.ts): the crates the removed
   * feature brought in at release `from` that the first keeps and another drops.
   */
  likeForLike?: { from: string; kept: string[] };
}

interface RemovedFile {
  removed: Array<{
    crate: string;
    feature: string;
    at: string | null;
    replacement: string[] | null;
    advice?: string;
    inferred?: boolean;
  }>;
}
let removedFeatures: RemovedFile["removed"] | undefined;
/** burn's history (data/removed-features.json), then what data:refresh derived for newer releases. */
function removals(): RemovedFile["removed"] {
  const read = (name: string) => {
    const text = dataFiles().text(name);
    return text === undefined ? [] : (JSON.parse(text) as RemovedFile).removed;
  };
  removedFeatures ??= [...read("removed-features.json"), ...read("removed-features-refreshed.json")];
  return removedFeatures;
}

/** The release burn's history says removed `feature` of `crate` at, when it is after `version` (else null). */
export function removedAfter(crate: string, feature: string, version: string): string | null {
  const at = removals().find((r) => r.crate === crate && r.feature === feature)?.at ?? null;
  return at !== null && semver.valid(at) && semver.valid(version) && semver.gt(at, version) ? at : null;
}

const names = new WeakMap<IndexLine, Set<string>>();

/**
 * Every feature cargo accepts on `line`: its table's, and the implicit one of each optional
 * dependency. Built once per line: a line from a live index may hold tens of thousands.
 */
export function featureNames(line: IndexLine): Set<string> {
  let set = names.get(line);
  if (!set) {
    set = new Set(Object.keys(allFeatures(line)));
    for (const d of line.deps) if (d.optional && !depHidden(line, d.name)) set.add(d.name);
    names.set(line, set);
  }
  return set;
}

/** Refusals reported per manifest: cargo names one per run; a manifest naming hundreds is said in part. */
export const MAX_REFUSALS = 32;
/** Names a typo is compared with: a line from a live index may hold tens of thousands. */
const MAX_CLOSEST_CANDIDATES = 2000;

/** What burn's history says of `feature` on `crate`, as seen from release `version`. */
export function historyOf(crate: string, feature: string, version: string, registry: Registry): Refusal["history"] {
  const known = removals().find((r) => r.crate === crate && r.feature === feature);
  if (known) {
    // burn's history lists `server`'s two replacements unordered; the resolver says which keeps what it did.
    const ranked = known.replacement && rankReplacements(crate, feature, version, known.replacement, registry);
    return {
      kind: "removed",
      at: known.at,
      replacement: ranked ? ranked.replacement : known.replacement,
      advice: known.advice === undefined ? undefined : qualifyBurnRefs(known.advice),
      inferred: known.inferred,
      ...(ranked && ranked.kept.length > 0 ? { likeForLike: { from: ranked.from, kept: ranked.kept } } : {}),
    };
  }
  const earlier = registry
    .versions(crate)
    .filter((l) => semver.lt(l.vers, version) && featureNames(l).has(feature))
    .map((l) => l.vers)
    .sort(semver.compare);
  if (earlier.length > 0) return { kind: "gone", lastIn: earlier.at(-1)! };
  const at = registry.versions(crate).find((l) => l.vers === version);
  // Only names of about the typo's length can be within the distance kept below.
  const near = (at ? [...featureNames(at)] : []).filter((n) => Math.abs(n.length - feature.length) <= 4);
  const closest = near
    .slice(0, MAX_CLOSEST_CANDIDATES)
    .map((n) => [n, leven(n, feature)] as const)
    .filter(([, d]) => d <= Math.max(2, Math.floor(feature.length / 3)))
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([n]) => n);
  return { kind: "never", closest };
}

/** Where a refusal is written: two refusals at one place are one (the root's entry, inherited twice, is one line). */
function sameWhere(a: Refusal["where"], b: Refusal["where"]): boolean {
  if (a.kind === "features") return b.kind === "features" && a.entry === b.entry;
  if (b.kind !== "dependency" || a.inRoot !== b.inRoot) return false;
  return a.inRoot ? a.decl.key === b.decl.key : a.decl === b.decl;
}

const stringAt = (e: AST.TOMLNode) => (e.type === "TOMLValue" && e.kind === "string" ? String(e.value) : null);

/** The line of the first string of `arr` that `matches`, or null. */
function lineIn(arr: AST.TOMLNode | undefined, matches: (s: string) => boolean): number | null {
  if (arr?.type !== "TOMLArray") return null;
  return arr.elements.find((e) => matches(stringAt(e) ?? ""))?.loc.start.line ?? null;
}

/** The line a refused feature is written on (see `Refusal.line`). */
function placeLine(manifest: Manifest, root: Manifest | null, feature: string, where: Refusal["where"]): number | null {
  if (where.kind === "features") {
    const forwards = (s: string) => featureValue(s).kind === "dep-feature" && s.replace(/^.*\//, "") === feature;
    return lineIn(featuresEntry(manifest, where.entry) ?? undefined, forwards);
  }
  const decl = where.inRoot ? root?.workspaceDependencies.find((w) => w.key === where.decl.key) : where.decl;
  return lineIn(decl?.nodes.features?.value, (s) => s === feature);
}

/**
 * The features cargo would refuse, each once per place it is written, in the manifest's order: the
 * dependencies' own lists (a member's and the workspace root's entry it inherits, each on its own
 * line), then the `[features]` entries. `lineOf`: the index line the resolver selected for a burn
 * dependency (null: not in the data, nothing is claimed about it). `root`: the workspace root the
 * manifest inherits from (itself, for a root that is a package).
 */
export function refusals(
  manifest: Manifest,
  deps: Array<{ decl: DepDecl; effective: DepDecl }>,
  lineOf: (decl: DepDecl) => IndexLine | null,
  registry: Registry,
  root: Manifest | null = null,
): Refusal[] {
  const out: Refusal[] = [];
  const check = (decl: DepDecl, feature: string, where: Refusal["where"]) => {
    const line = lineOf(decl);
    if (!line || out.length >= MAX_REFUSALS || featureNames(line).has(feature)) return;
    // One refusal per place it is written: a feature on two lines (`[dependencies]` and a target's
    // table, a Renovate bump) needs an edit on each, and each line is named.
    if (out.some((r) => r.crate === line.name && r.feature === feature && sameWhere(r.where, where))) return;
    out.push({
      crate: line.name,
      version: line.vers,
      feature,
      where,
      line: placeLine(manifest, root, feature, where),
      history: historyOf(line.name, feature, line.vers, registry),
    });
  };
  for (const d of deps) {
    // An inherited entry's features are the root's and the member's (cargo adds them): a feature
    // written in both is refused on both lines, and the edit past it changes both.
    const inherited = d.effective !== d.decl;
    const fromRoot = inherited
      ? d.effective.features.slice(0, d.effective.features.length - d.decl.features.length)
      : [];
    for (const f of fromRoot) check(d.decl, f, { kind: "dependency", decl: d.decl, inRoot: true });
    for (const f of inherited ? d.decl.features : d.effective.features)
      check(d.decl, f, { kind: "dependency", decl: d.decl, inRoot: false });
  }
  for (const [entry, values] of Object.entries(manifest.features))
    for (const value of values) {
      const v = featureValue(value);
      const dep = v.kind === "dep-feature" ? deps.find((d) => d.decl.key === v.dep) : undefined;
      if (dep && v.kind === "dep-feature") check(dep.decl, v.feature, { kind: "features", entry });
    }
  // The root's entry (another file) first, then the dependencies by line, then the `[features]` entries.
  const rank = (r: Refusal) => [
    r.where.kind === "features" ? 2 : r.where.inRoot ? 0 : 1,
    r.where.kind === "features" ? 0 : (r.line ?? Infinity),
  ];
  return out.sort((a, b) => rank(a)[0]! - rank(b)[0]! || rank(a)[1]! - rank(b)[1]!);
}

/**
 * Every refusal of a manifest: its burn dependencies at the lines the resolver selected (`lines`),
 * and the ones it does not resolve: cargo resolves [dev-dependencies] and [build-dependencies] too,
 * so a removed feature there refuses every build, each at the release its requirement selects; a
 * member's `{ workspace = true, features = [...] }` at the root's entry with its features added.
 * (A checkout's features may have moved since the release its version names: the caller claims
 * no refusal of a path dependency's.)
 */
export function manifestRefusals(
  manifest: Manifest,
  { registry, root }: { registry: Registry; root: Manifest | null },
  burnDeps: Array<{ decl: DepDecl; effective: DepDecl }>,
  lines: Map<DepDecl, IndexLine | null>,
): Refusal[] {
  const other = manifest.dependencies
    .map((d) => ({ decl: d, effective: effectiveDecl(d, root) }))
    .filter(
      (b) => b.effective.kind !== "normal" && isBurnDependency(b.effective) && !burnDeps.some((x) => x.decl === b.decl),
    );
  const otherLine = (d: DepDecl) => {
    const e = other.find((b) => b.decl === d)?.effective;
    const req = e && !e.git && !e.path && e.version;
    return req ? selectVersion(registry.versions(e.name), req) : null;
  };
  const lineOf = (d: DepDecl) => (lines.has(d) ? (lines.get(d) ?? null) : otherLine(d));
  return refusals(manifest, [...burnDeps, ...other], lineOf, registry, root);
}
