// Why is one feature of one burn crate (`burn-dispatch/autodiff` unless told otherwise) on or off
// for this manifest, and which feature additions to which declaration would turn it on. Pure:
// manifests and index data in, a verdict out.

import { searchConjuncts, searchFix } from "../fix/fix-search.js";
import type { IndexDep, IndexLine } from "../index/index-file.js";
import type { Enablers } from "../index/precomputed.js";
import { allFeatures, featureValue, type Registries, type Registry, snapshot } from "../index/registry.js";
import {
  atUnreadCommit,
  FIRST_DISPATCH,
  isBurnCrate,
  isBurnDependency,
  mainSnapshotCommit,
  type Pin,
  selectBurn,
} from "../manifest/burn-version.js";
import { type DepDecl, effectiveDecl, type Manifest } from "../manifest/manifest.js";
import { enablersOf } from "../resolve/enablers.js";
import { selectVersion } from "../resolve/requirements.js";
import {
  AUTODIFF_TARGET,
  BudgetExceeded,
  DIAGNOSIS_STEPS,
  DISPATCH,
  type FeatureState,
  type FeatureTarget,
  featureState,
  resolve,
  UnreadableCrate,
  WorkBudget,
} from "../resolve/resolve.js";
import type { Assumed, BurnDep, DiagnoseOptions, Diagnosis, Run, Verdict } from "./diagnosis.js";
import { manifestRefusals } from "./refusal.js";

const PREFERENCE = ["burn", "burn-train", "burn-optim", "burn-core", "burn-tensor", "burn-dispatch"];

/** A declaration as an index dependency: `req` and `features` as the resolution is to use them. */
function asIndexDep(d: DepDecl, use: { includeDev: boolean; features: string[]; req: string | null }): IndexDep {
  return {
    name: d.key,
    package: d.name !== d.key ? d.name : undefined,
    req: use.req ?? "*",
    features: use.features,
    optional: d.optional,
    default_features: d.defaultFeatures !== false,
    target: d.target,
    kind: d.kind === "dev" && use.includeDev ? "normal" : d.kind,
  };
}

/** Resolved feature states by what the resolution was asked, per registry (bounded, cleared when full). */
const MAX_MEMO_STATES = 4096;
const memoStates = new WeakMap<Registry, Map<string, FeatureState>>();
function statesOf(registry: Registry): Map<string, FeatureState> {
  const known = memoStates.get(registry);
  if (known) return known;
  const m = new Map<string, FeatureState>();
  memoStates.set(registry, m);
  return m;
}

const NO_STATE: FeatureState = { inGraph: false, version: null, on: false, chain: [] };

export function diagnose(manifest: Manifest, opts: DiagnoseOptions = {}): Diagnosis {
  return diagnoseWithin(manifest, { ...opts, budget: opts.budget ?? new WorkBudget(DIAGNOSIS_STEPS) });
}

function diagnoseWithin(manifest: Manifest, opts: DiagnoseOptions & { budget: WorkBudget }): Diagnosis {
  const regs = opts.registries ?? { tags: snapshot("tags"), main: snapshot("main") };
  const target = opts.target ?? AUTODIFF_TARGET;
  const choice = chooseBurn(manifest, opts, regs, target);
  const { selection, registry, unknownCrates } = choice;
  const selected = selection && {
    version: selection.version,
    source: selection.source,
    preDispatch: selection.preDispatch,
    mainCommit: selection.snapshot === "main" ? mainSnapshotCommit().slice(0, 7) : null,
  };
  const assumed: Assumed = { ...(selection?.assumed ?? {}) };
  const { run, burnDeps, lines } = buildOf(manifest, choice, opts, target);
  const primary = burnDeps.find((b) => b.decl === choice.primary?.decl) ?? null;
  const none = { enablers: [], defaultsEnable: false, defaultEnablers: [], gatedBehind: [], fix: null };
  const base = { target, burnDeps, primary, selected, assumed, registryLabel: registry.label, unknownCrates };
  if (!primary) {
    // burn only as a dev- or build-dependency: nothing to resolve, but cargo still refuses its features.
    const refused = unknownCrates.length > 0 ? [] : refusedOf(manifest, choice, burnDeps, lines);
    if (refused.length > 0)
      return { ...base, ...none, state: NO_STATE, graphVersion: refused[0]!.version, verdict: "refused", refused };
    return {
      ...base,
      ...none,
      state: NO_STATE,
      graphVersion: null,
      verdict: unknownCrates.length > 0 ? "unknown-crate" : "no-burn",
    };
  }
  const stop = beforeResolving(manifest, choice, burnDeps, lines, primary);
  if (stop) return { ...base, ...none, state: NO_STATE, ...stop };

  const ownDefaults = Object.hasOwn(manifest.features, "default") ? ["default"] : [];
  let state: FeatureState;
  let found: Enablers;
  const line = lines.get(primary.decl) ?? null;
  try {
    state = run(ownDefaults);
    found = line ? enablersOf(line, registry, target, opts.budget) : { enablers: [], defaultsEnable: false, pairs: [] };
  } catch (e) {
    if (e instanceof UnreadableCrate) return unreadable(base, e);
    if (!(e instanceof BudgetExceeded)) throw e;
    return { ...base, ...none, state: NO_STATE, graphVersion: primary.resolved, verdict: "too-large" };
  }
  const graphVersion = state.version ?? primary.resolved ?? null;
  const { enablers, defaultsEnable, pairs } = found;
  const defaultList = line ? (allFeatures(line).default ?? []) : [];
  const defaultEnablers = enablers.filter((f) => defaultList.includes(f));
  const known = { ...base, state, graphVersion, enablers, defaultsEnable, defaultEnablers };

  if (state.on) return { ...known, verdict: "on", gatedBehind: [], fix: null };
  // Said only of a gate that is off (the fix's verification re-diagnoses "on" manifests often).
  const gateFeatures = line ? gateInOwnFeatures(target, line, registry) : null;
  const verdictOf = (gatedBehind: string[]): Verdict =>
    gatedBehind.length > 0 ? "gated" : state.inGraph ? "off" : "no-dispatch";
  let gatedBehind: string[] = [];
  try {
    gatedBehind = Object.keys(manifest.features).filter((f) => f !== "default" && run([...ownDefaults, f]).on);
    return {
      ...known,
      gateFeatures,
      verdict: verdictOf(gatedBehind),
      gatedBehind,
      fix:
        // The gate said in burn's own features (`std`, `dataset`, `vision`) is one more candidate:
        // the data's ready answer (`vision`, `train`) may bring whole crates the gate never needed.
        searchFix(run, primary, burnDeps, enablers, pairs, ownDefaults, target, {
          ...opts,
          additions: [...(opts.additions ?? []), ...(gateFeatures ? [gateFeatures] : [])],
        }) ?? (line ? searchConjuncts(run, primary, line, registry, ownDefaults, target, opts) : null),
    };
  } catch (e) {
    if (e instanceof UnreadableCrate) return unreadable(base, e);
    if (!(e instanceof BudgetExceeded)) throw e;
    return { ...known, verdict: verdictOf(gatedBehind), gatedBehind, fix: null, searchCut: true };
  }
}

/** The verdicts reached before the graph is walked: an unread commit, cargo's refusal, a release before burn-dispatch. */
function beforeResolving(
  manifest: Manifest,
  choice: BurnChoice,
  burnDeps: BurnDep[],
  lines: Map<DepDecl, IndexLine | null>,
  primary: BurnDep,
): Pick<Diagnosis, "verdict" | "graphVersion" | "refused"> | null {
  const { selection } = choice;
  // A commit whose features the data cannot read: no refusal, no "on", no edit is claimed of it
  // (judged on today's main, a 2023 commit's feature would read as refused).
  if (atUnreadCommit(selection)) return { graphVersion: null, verdict: "unknown-commit" };
  // cargo stops at a feature the release does not have: nothing after that is a fact of the build.
  const refused = refusedOf(manifest, choice, burnDeps, lines);
  if (refused.length > 0) return { graphVersion: primary.resolved, verdict: "refused", refused };
  if (selection?.preDispatch) return { graphVersion: selection.version, verdict: "pre-dispatch" };
  return null;
}

/** The features cargo would refuse in this manifest, with the release the choice selected (refusal.ts). */
function refusedOf(
  manifest: Manifest,
  { selection, registry, root }: BurnChoice,
  burnDeps: BurnDep[],
  lines: Map<DepDecl, IndexLine | null>,
) {
  if (selection?.source === "path-version") return [];
  return manifestRefusals(manifest, { registry, root }, burnDeps, lines);
}

/** A read that failed is unknown: nothing is claimed about the graph it would have shown. */
function unreadable(
  base: Pick<Diagnosis, "target" | "burnDeps" | "primary" | "selected" | "assumed" | "registryLabel" | "unknownCrates">,
  e: UnreadableCrate,
): Diagnosis {
  return {
    ...base,
    enablers: [],
    defaultsEnable: false,
    defaultEnablers: [],
    gatedBehind: [],
    fix: null,
    state: NO_STATE,
    graphVersion: null,
    verdict: "unknown-crate",
    unknownCrates: [...new Set([...base.unknownCrates, e.crate])],
  };
}

/** A declaration as written and after workspace inheritance. */
type Declared = Pick<BurnDep, "decl" | "effective">;

interface BurnChoice {
  /** Every dependency of the manifest, inherited fields filled in. */
  declared: Declared[];
  /** The burn dependencies the data has a line of. */
  burn: Declared[];
  unknownCrates: string[];
  /** The one that carries the target into the build (the one to edit). */
  primary: Declared | null;
  selection: ReturnType<typeof selectBurn> | null;
  /** The data the selected release is in. */
  registry: Registry;
  /** The workspace root the manifest inherits from (itself, for a root that is a package). */
  root: Manifest | null;
}

/** Which burn dependencies the manifest has, which one carries the target, and at which release. */
function chooseBurn(manifest: Manifest, opts: DiagnoseOptions, regs: Registries, target: FeatureTarget): BurnChoice {
  const includeDev = opts.includeDev ?? false;
  // A package that is its own workspace root inherits from its own `[workspace.dependencies]`.
  const root = opts.root ?? (manifest.isWorkspaceRoot ? manifest : null);
  const declared = manifest.dependencies.map((d) => ({ decl: d, effective: effectiveDecl(d, root) }));
  const named = declared.filter(
    (b) =>
      isBurnDependency(b.effective) && (b.effective.kind === "normal" || (includeDev && b.effective.kind === "dev")),
  );
  // A crate the data has no line of says nothing about burn's graph: it is named, not resolved.
  const inData = (name: string) => regs.tags.versions(name).length > 0 || regs.main.versions(name).length > 0;
  const burn = named.filter((b) => inData(b.effective.name));
  const unknownCrates = [...new Set(named.filter((b) => !inData(b.effective.name)).map((b) => b.effective.name))];
  const pin: Pin | null = opts.burnVersion
    ? { version: opts.burnVersion, source: opts.burnVersionSource ?? "lock" }
    : null;
  const ranked = [...burn].sort((a, b) => rank(a.effective) - rank(b.effective));
  const primary = ranked.find((b) => b.decl.target === null) ?? burn[0] ?? null;
  const selection = primary
    ? selectBurn(primary.effective, regs, pin, target.crate === DISPATCH ? FIRST_DISPATCH : null)
    : null;
  const registry = selection?.snapshot === "main" ? regs.main : regs.tags;
  return { declared, burn, unknownCrates, primary, selection, registry, root };
}

/**
 * The user's build at the selected release: every burn crate of one build comes from one release,
 * so all are resolved at it. `run` resolves it once with the package's own features (and an
 * addition to one declaration, for a fix being tried).
 */
function buildOf(
  manifest: Manifest,
  { declared, burn, selection, registry, primary: chosen }: BurnChoice,
  opts: DiagnoseOptions,
  target: FeatureTarget,
): { run: Run; burnDeps: BurnDep[]; lines: Map<DepDecl, IndexLine | null> } {
  const includeDev = opts.includeDev ?? false;
  const version = selection?.line?.vers ?? null;
  // A version the build is known to have pins every burn crate; a requirement resolves each crate as
  // cargo does, by the requirements on it (a tag is not a release of every crate: `burn = "0.14"` is
  // burn 0.14.0 with burn-core 0.14.1, the only crate the v0.14.1 tag published).
  const pinned = selection !== null && selection.source !== "requirement" && selection.source !== "default";
  const pinAll = (crate: string) => (pinned && version && isBurnCrate(crate) ? version : undefined);
  const reqFor = (d: DepDecl): string | null => {
    if (!isBurnDependency(d)) return d.version;
    const primary = d === chosen?.effective;
    if (version && (pinned || primary) && registry.versions(d.name).some((l) => l.vers === version))
      return `=${version}`;
    return d.git || d.path || !d.version || !selectVersion(registry.versions(d.name), d.version) ? null : d.version;
  };
  const reqs = new Map(declared.map((b) => [b.decl, reqFor(b.effective)]));
  const rootLine = (extra?: { target: DepDecl; add: string[] }): IndexLine => ({
    name: manifest.packageName ?? "(your crate)",
    vers: "0.0.0",
    deps: declared.map((b) =>
      asIndexDep(b.effective, {
        includeDev,
        req: reqs.get(b.decl) ?? null,
        features: extra && b.decl === extra.target ? [...b.effective.features, ...extra.add] : b.effective.features,
      }),
    ),
    features: manifest.features,
  });
  const run: Run = (features, extra) => {
    const line = rootLine(extra);
    // The crate's own name plays no part in the state: workspace members that ask burn for the
    // same thing resolve once (a 1,000-member root bump asks 4,000 times for a handful of graphs).
    const key = JSON.stringify([line.deps, line.features, features, target, opts.platform ?? null, pinned && version]);
    const memo = statesOf(registry);
    const known = memo.get(key);
    if (known) return known;
    const state = featureState(
      resolve(line, features, { registry, platform: opts.platform, pin: pinAll, budget: opts.budget }),
      target,
      opts.platform,
    );
    if (memo.size >= MAX_MEMO_STATES) memo.clear();
    memo.set(key, state);
    return state;
  };
  const lines = new Map(
    burn.map((b) => [
      b.decl,
      selectVersion(registry.versions(b.effective.name), reqs.get(b.decl) ?? null, pinAll(b.effective.name)),
    ]),
  );
  const burnDeps: BurnDep[] = burn.map((b) => ({ ...b, resolved: lines.get(b.decl)?.vers ?? null }));
  return { run, burnDeps, lines };
}

function rank(d: DepDecl): number {
  const i = PREFERENCE.indexOf(d.name);
  return i < 0 ? PREFERENCE.length : i;
}

/** The feature a feature table's value turns on: its own (`f`), or a dependency's at the same version (`dep/f`, `dep?/f`). */
function enabledBy(at: IndexLine, value: string, registry: Registry): [IndexLine, string] | null {
  const v = featureValue(value);
  if (v.kind !== "dep-feature") return v.kind === "feature" ? [at, v.feature] : null;
  const dep = at.deps.find((d) => d.name === v.dep);
  const line = dep && registry.versions(dep.package ?? dep.name).find((l) => l.vers === at.vers);
  return line ? [line, v.feature] : null;
}

/** Feature nodes a walk of one line's feature graph visits, and entries it queues (outside input). */
const MAX_FEATURE_NODES = 65_536;
const MAX_FEATURE_QUEUE = 262_144;

/**
 * For each atom (`crate/feature`), the features of `line` itself that turn it on, following
 * `dep/f` and `dep?/f` into the dependency's line at the same version (burn's crates release
 * together). One forward walk from every feature of `line` records each edge backwards, then one
 * backward walk per atom: linear in the feature tables however they refer to each other, where a
 * walk per candidate feature was quadratic (20,000 features in a ring took a minute).
 */
function ownFeaturesReaching(line: IndexLine, atoms: string[], registry: Registry): Map<string, Set<string>> {
  const node = (l: IndexLine, f: string) => `${l.name}@${l.vers}/${f}`;
  const back = new Map<string, string[]>();
  const atomOf = new Map<string, string>();
  const seen = new Set<string>();
  const queue: Array<[IndexLine, string]> = Object.keys(allFeatures(line)).map((f) => [line, f]);
  for (let i = 0; i < queue.length && seen.size < MAX_FEATURE_NODES && queue.length <= MAX_FEATURE_QUEUE; i++) {
    const [at, f] = queue[i]!;
    const from = node(at, f);
    if (seen.has(from)) continue;
    seen.add(from);
    atomOf.set(from, `${at.name}/${f}`);
    for (const v of allFeatures(at)[f] ?? []) {
      const next = enabledBy(at, v, registry);
      if (!next) continue;
      const to = node(next[0], next[1]);
      const list = back.get(to);
      if (list) list.push(from);
      else back.set(to, [from]);
      queue.push(next);
    }
  }
  const own = `${line.name}@${line.vers}/`;
  const out = new Map<string, Set<string>>();
  for (const atom of atoms) {
    const found = new Set<string>();
    const starts = [...atomOf].filter(([, a]) => a === atom).map(([n]) => n);
    const visited = new Set(starts);
    for (let i = 0; i < starts.length; i++) {
      const at = starts[i]!;
      if (at.startsWith(own)) found.add(at.slice(own.length));
      for (const prev of back.get(at) ?? [])
        if (!visited.has(prev)) {
          visited.add(prev);
          starts.push(prev);
        }
    }
    out.set(atom, found);
  }
  return out;
}

/**
 * A gate that is a conjunction of features, each said as the primary crate's own feature that
 * turns it on (`burn-core/dataset` is burn's `dataset`, `burn-dataset/vision` burn's `vision`):
 * what the gate needs, apart from the smallest edit that meets it (`train` brings `std` and
 * `dataset`). null when an atom has no such feature, or the gate is not a plain conjunction.
 */
function gateInOwnFeatures(target: FeatureTarget, line: IndexLine, registry: Registry): string[] | null {
  if (!target.gate || /\b(?:any|not)\(|target_/.test(target.gate)) return null;
  const atoms = [...target.gate.matchAll(/feature = "([^"]+)"/g)].map((m) => m[1]!);
  const reaching = ownFeaturesReaching(line, atoms, registry);
  const out: string[] = [];
  for (const atom of atoms) {
    const name = atom.split("/")[1]!;
    const found = [...(reaching.get(atom) ?? [])].filter((f) => f !== "default");
    // The feature of the same name first, then the first (by name) that reaches it.
    const f = found.includes(name) ? name : found.sort()[0];
    if (!f) return null;
    if (!out.includes(f)) out.push(f);
  }
  return out.length > 0 ? out : null;
}
