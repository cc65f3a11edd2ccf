// Why is one feature of one burn crate (`burn-dispatch/autodiff` unless told otherwise) on or off
// for this manifest, and which feature additions to which declaration would turn it on. Pure:
// manifests and index data in, a verdict out.
import { boundedMemo } from "../memo.js";
import { conjunctsOf, type Platform } from "./cfg.js";
import { type DepDecl, effectiveDecl, type Manifest } from "./manifest.js";
import {
  type Assumption,
  FIRST_DISPATCH,
  isBurnCrate,
  isBurnDependency,
  type Pin,
  selectBurn,
  type VersionSource,
} from "./burn-version.js";
import {
  allFeatures,
  depHidden,
  type IndexDep,
  type IndexLine,
  type Registries,
  type Registry,
  selectVersion,
  snapshot,
} from "./registry.js";
import {
  AUTODIFF_TARGET,
  BudgetExceeded,
  UnreadableCrate,
  DISPATCH,
  type FeatureState,
  type FeatureTarget,
  featureState,
  resolve,
  targetName,
  WorkBudget,
} from "./resolve.js";
import { type Enablers, precomputedEnablers } from "./precomputed.js";
import { mayEnable } from "./reach.js";

export interface DiagnoseOptions {
  /** Workspace root manifest when the member inherits (`workspace = true`). */
  root?: Manifest | null;
  /** burn version known from the user's build (backtrace path, Cargo.lock, prose). */
  burnVersion?: string | null;
  /** Where `burnVersion` came from; a Cargo.lock unless said otherwise. */
  burnVersionSource?: Pin["source"];
  platform?: Platform;
  /** Follow [dev-dependencies] too (the panic came from a test or an example). */
  includeDev?: boolean;
  registries?: Registries;
  /** Among additions of the same size, these features first (a PR review restores what it removed). */
  prefer?: string[];
  /** The feature the question is about; `burn-dispatch/autodiff` when absent. */
  target?: FeatureTarget;
  /** Additions to try before the enablers (the data's ready answers for a gated path). */
  additions?: string[][];
  /** Resolver work this diagnosis may spend; a fresh DIAGNOSIS_STEPS budget when absent. */
  budget?: WorkBudget;
}

/**
 * Resolver steps one diagnosis may take. burn's own graphs need about ten thousand for a whole
 * diagnosis with its fix search; a graph that needs more is refused ("too-large"), so an index
 * line anyone can publish bounds the event loop's stall (under 200 ms on the bench machine).
 */
export const DIAGNOSIS_STEPS = 200_000;

export interface BurnDep {
  /** As written in this manifest. */
  decl: DepDecl;
  /** After workspace inheritance. */
  effective: DepDecl;
  /** The version cargo would pick from the data, or null when it is outside the data. */
  resolved: string | null;
}

export type Verdict =
  | "no-burn" // nothing burn-related in the manifest
  | "unknown-crate" // only `burn-…` crates the data does not have (`unknownCrates`): nothing is claimed
  | "pre-dispatch" // a burn release older than burn-dispatch: the runtime stub cannot occur
  | "no-dispatch" // the target's crate is not in this build at all
  | "on" // the target feature is on with the crate's default features
  | "gated" // on only with some of the crate's own (non-default) features
  | "too-large" // the feature graph needs more work than one event may spend: nothing is claimed
  | "off";

export interface Addition {
  /** The declaration to edit (the member's own, never the workspace root's). */
  decl: DepDecl;
  add: string[];
}

export interface Assumed {
  version?: Assumption;
  graph?: Assumption;
}

export interface Diagnosis {
  target: FeatureTarget;
  verdict: Verdict;
  burnDeps: BurnDep[];
  /** The dependency that carries burn-dispatch into the build (the one to edit). */
  primary: BurnDep | null;
  state: FeatureState;
  /** The version whose feature graph was used. */
  graphVersion: string | null;
  /** The burn version selected for the primary dependency, and where it came from. */
  selected: { version: string | null; source: VersionSource; preDispatch: string | null } | null;
  /** What was not known and had to be assumed; empty when everything came from the data. */
  assumed: Assumed;
  registryLabel: string;
  /** `burn-…` dependencies no release in the data has (a crate newer than it, or not burn's). */
  unknownCrates: string[];
  /** Features of the primary crate that turn the target on on their own, at that version. */
  enablers: string[];
  /** Whether the primary crate's default features would have enabled it. */
  defaultsEnable: boolean;
  /** Enablers listed directly in the primary crate's `default` feature. */
  defaultEnablers: string[];
  /** Crate features of the user's own package that turn it on (verdict "gated"). */
  gatedBehind: string[];
  /** Smallest verified addition; null when none exists in the data (or the search ran out of budget). */
  fix: Addition | null;
  /** The fix search stopped at the work budget: "no fix" is then not a fact about burn. */
  searchCut?: boolean;
}

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
  };
  const assumed: Assumed = { ...(selection?.assumed ?? {}) };
  const { run, burnDeps, lines } = buildOf(manifest, choice, opts, target);
  const primary = burnDeps.find((b) => b.decl === choice.primary?.decl) ?? null;
  const none = { enablers: [], defaultsEnable: false, defaultEnablers: [], gatedBehind: [], fix: null };
  const base = { target, burnDeps, primary, selected, assumed, registryLabel: registry.label, unknownCrates };
  if (!primary)
    return {
      ...base,
      ...none,
      state: NO_STATE,
      graphVersion: null,
      verdict: unknownCrates.length > 0 ? "unknown-crate" : "no-burn",
    };
  if (selection?.preDispatch)
    return { ...base, ...none, state: NO_STATE, graphVersion: selection.version, verdict: "pre-dispatch" };

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
  const verdictOf = (gatedBehind: string[]): Verdict =>
    gatedBehind.length > 0 ? "gated" : state.inGraph ? "off" : "no-dispatch";
  let gatedBehind: string[] = [];
  try {
    gatedBehind = Object.keys(manifest.features).filter((f) => f !== "default" && run([...ownDefaults, f]).on);
    return {
      ...known,
      verdict: verdictOf(gatedBehind),
      gatedBehind,
      fix:
        searchFix(run, primary, burnDeps, enablers, pairs, ownDefaults, target, opts) ??
        (line ? searchConjuncts(run, primary, line, registry, ownDefaults, target, opts) : null),
    };
  } catch (e) {
    if (e instanceof UnreadableCrate) return unreadable(base, e);
    if (!(e instanceof BudgetExceeded)) throw e;
    return { ...known, verdict: verdictOf(gatedBehind), gatedBehind, fix: null, searchCut: true };
  }
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
  return { declared, burn, unknownCrates, primary, selection, registry };
}

/**
 * The user's build at the selected release: every burn crate of one build comes from one release,
 * so all are resolved at it. `run` resolves it once with the package's own features (and an
 * addition to one declaration, for a fix being tried).
 */
function buildOf(
  manifest: Manifest,
  { declared, burn, selection, registry }: BurnChoice,
  opts: DiagnoseOptions,
  target: FeatureTarget,
): { run: Run; burnDeps: BurnDep[]; lines: Map<DepDecl, IndexLine | null> } {
  const includeDev = opts.includeDev ?? false;
  const version = selection?.line?.vers ?? null;
  const pinAll = (crate: string) => (version && isBurnCrate(crate) ? version : undefined);
  const reqFor = (d: DepDecl): string | null => {
    if (!isBurnDependency(d)) return d.version;
    if (version && registry.versions(d.name).some((l) => l.vers === version)) return `=${version}`;
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
  const run: Run = (features, extra) =>
    featureState(
      resolve(rootLine(extra), features, { registry, platform: opts.platform, pin: pinAll, budget: opts.budget }),
      target,
      opts.platform,
    );
  const lines = new Map(
    burn.map((b) => [
      b.decl,
      selectVersion(registry.versions(b.effective.name), reqs.get(b.decl) ?? null, pinAll(b.effective.name)),
    ]),
  );
  const burnDeps: BurnDep[] = burn.map((b) => ({ ...b, resolved: lines.get(b.decl)?.vers ?? null }));
  return { run, burnDeps, lines };
}

type Run = (features: string[], extra?: { target: DepDecl; add: string[] }) => FeatureState;

/** The smallest verified addition: the data's ready answers, then single enablers, then pairs. */
function searchFix(
  run: Run,
  primary: BurnDep,
  burnDeps: BurnDep[],
  enablers: string[],
  pairs: string[][],
  ownDefaults: string[],
  target: FeatureTarget,
  opts: DiagnoseOptions,
): Addition | null {
  let fix: Addition | null = null;
  const ready = (opts.additions ?? [])
    .map((a) => a.filter((f) => !primary.effective.features.includes(f)))
    .filter((a) => a.length > 0);
  for (const add of [...ready, ...candidateAdditions(primary.effective.features, enablers, pairs, opts.prefer ?? [])]) {
    if (run(ownDefaults, { target: primary.decl, add }).on) {
      fix = { decl: primary.decl, add };
      break;
    }
  }
  // A ready answer for several gated paths is their union; drop what the others already bring
  // (`optim` brings `extension`), so the edit is the smallest that still verifies.
  if (fix && fix.add.length > 1 && ready.some((r) => r === fix!.add)) {
    let add = fix.add;
    for (const f of fix.add) {
      const fewer = add.filter((x) => x !== f);
      if (fewer.length > 0 && run(ownDefaults, { target: primary.decl, add: fewer }).on) add = fewer;
    }
    fix = { decl: primary.decl, add };
  }
  // No `burn` feature reaches some features (burn-store/memmap, burn-flex/critical-section): a
  // manifest that declares the target's crate itself gets the feature added there.
  const own = burnDeps.find((b) => b.effective.name === target.crate && b !== primary && b.effective.kind === "normal");
  if (
    !fix &&
    own &&
    !own.effective.features.includes(target.feature) &&
    run(ownDefaults, { target: own.decl, add: [target.feature] }).on
  )
    fix = { decl: own.decl, add: [target.feature] };
  return fix;
}

/**
 * Smallest additions first, each without what is already listed: on 0.21, where `autodiff`
 * reaches burn-dispatch only with `dispatch`, a manifest that lists `autodiff` needs `dispatch`
 * alone. Umbrella features (`doc`) that switch on backends and training come last.
 */
function candidateAdditions(listed: string[], enablers: string[], pairs: string[][], prefer: string[]): string[][] {
  const umbrella = (f: string) => f === "doc";
  const preferred = (add: string[]) => (add.every((f) => prefer.includes(f)) ? 0 : 1);
  const fresh = (add: string[]) => add.filter((f) => !listed.includes(f));
  const options = [...enablers.map((f) => [f]), ...pairs].map(fresh).filter((add) => add.length > 0);
  const seen = new Set<string>();
  return options
    .map((add, i) => ({ add, i, cost: add.length + (add.some(umbrella) ? 10 : 0) }))
    .sort((a, b) => a.cost - b.cost || preferred(a.add) - preferred(b.add) || a.i - b.i)
    .map((o) => o.add)
    .filter((add) => {
      const key = add.join("+");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** The last resort for a gate of several features: one enabler of each (conjunctAdditions), verified. */
function searchConjuncts(
  run: Run,
  primary: BurnDep,
  line: IndexLine,
  registry: Registry,
  ownDefaults: string[],
  target: FeatureTarget,
  opts: DiagnoseOptions,
): Addition | null {
  const additions = conjunctAdditions(line, registry, target, opts.budget);
  return additions.length > 0 ? searchFix(run, primary, [], [], additions, ownDefaults, target, {}) : null;
}

const MAX_CONJUNCT_ADDITIONS = 64;

/**
 * A gate no single feature opens and no ready answer came with (a gate read from burn's source:
 * `all(feature = "burn-core/extension", feature = "burn-dispatch/wgpu")` with default features
 * off): one enabler of each conjunct, smallest unions first. Each is still verified by a run.
 */
function conjunctAdditions(
  line: IndexLine,
  registry: Registry,
  target: FeatureTarget,
  budget?: WorkBudget,
): string[][] {
  const parts = target.gate ? conjunctsOf(target.gate) : [];
  if (parts.length < 2 || parts.length > 4) return [];
  // A conjunct that is one feature names it: `wgpu` before `metal` for `burn-dispatch/wgpu`.
  const named = (gate: string): FeatureTarget => {
    const m = /^feature = "([^"/]+)\/([^"]+)"$/.exec(gate);
    return m ? { crate: m[1]!, feature: m[2]!, gate } : { ...target, gate };
  };
  const each = parts.map((gate) =>
    enablersOf(line, registry, named(gate), budget)
      .enablers.filter((f) => f !== "doc")
      .slice(0, 6),
  );
  if (each.some((e) => e.length === 0)) return [];
  let combos: string[][] = [[]];
  for (const e of each)
    combos = combos.flatMap((c) => e.map((f) => [...new Set([...c, f])])).slice(0, MAX_CONJUNCT_ADDITIONS);
  return combos.sort((a, b) => a.length - b.length);
}

function rank(d: DepDecl): number {
  const i = PREFERENCE.indexOf(d.name);
  return i < 0 ? PREFERENCE.length : i;
}

/** What a user can ask of `line`: its feature table and the implicit features of optional dependencies. */
export function featureNames(line: IndexLine): string[] {
  const implicit = line.deps.filter((d) => d.optional && !depHidden(line, d.name)).map((d) => d.name);
  return [...new Set([...Object.keys(allFeatures(line)), ...implicit])].filter((f) => f !== "default");
}

/** A crate depending on exactly this version of `line` with `features`: what one resolution probes. */
export function probeOf(line: IndexLine, features: string[], { defaults = false } = {}): IndexLine {
  const dep = { name: line.name, req: `=${line.vers}`, features, optional: false, default_features: defaults };
  return { name: "(probe)", vers: "0.0.0", deps: [{ ...dep, target: null, kind: "normal" }], features: {} };
}

const enablerCache = boundedMemo<Enablers>(1024);

/** Which features of one crate version turn the target on on their own (computeEnablers, cached). */
export function enablersOf(...args: Parameters<typeof computeEnablers>): Enablers {
  const [line, registry, target = AUTODIFF_TARGET] = args;
  const key = `${registry.label}|${line.name}@${line.vers}|${targetName(target)}|${target.gate ?? ""}`;
  const hit = enablerCache.get(key) ?? precomputedEnablers(line, registry, target);
  if (hit) return hit;
  const result = computeEnablers(...args);
  enablerCache.set(key, result);
  return result;
}

/** enablersOf without its caches: what the build's table holds (scripts/cache-data.mjs). */
export function computeEnablers(
  line: IndexLine,
  registry: Registry,
  target: FeatureTarget = AUTODIFF_TARGET,
  budget: WorkBudget = new WorkBudget(DIAGNOSIS_STEPS),
): Enablers {
  const table = allFeatures(line);
  const names = featureNames(line);
  const test = (features: string[], opts: { defaults?: boolean } = {}) =>
    featureState(resolve(probeOf(line, features, opts), [], { registry, budget }), target);
  // The target's own name first (`autodiff`, `cuda`): it names the intent; then explicit features
  // before implicit ones.
  const order = (f: string) => (f === target.feature ? 0 : Object.hasOwn(table, f) ? 1 : 2);
  // Each feature is resolved only when one walk of the graph says it may reach the target (the
  // walk over-approximates; a gated target is not narrowed, and there all features together are
  // resolved first: when they leave it off, none of the 60 does).
  const may = mayEnable(line, registry, target, budget);
  const reachable = target.gate ? test(names).on : names.some(may);
  const enablers = reachable
    ? names.filter((f) => may(f) && test([f]).on).sort((a, b) => order(a) - order(b) || a.localeCompare(b))
    : [];
  const pairs: string[][] = [];
  // Features only add: a pair is searched for (3,600 resolutions) only when no single feature
  // turns the target on and all of them together do. A gated path's answers come with the data
  // (DiagnoseOptions.additions), so its pairs are never searched.
  if (reachable && !target.gate && enablers.every((f) => f === "doc") && test(names).on) {
    const bringers = names.filter((f) => test([f]).inGraph).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
    for (const f of names
      .filter((n) => Object.hasOwn(table, n))
      .sort((a, b) => order(a) - order(b) || a.localeCompare(b)))
      for (const g of bringers) if (f !== g && test([f, g]).on) pairs.push([f, g]);
  }
  return { enablers, defaultsEnable: test([], { defaults: true }).on, pairs };
}
