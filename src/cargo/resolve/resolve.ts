// Cargo's feature resolution (resolver v2, normal dependencies) over index lines: default
// features, `dep:`, weak `x?/f`, implicit features of optional dependencies, and activation
// across crates. It answers one question precisely: is one feature of one crate (`burn-dispatch/autodiff`,
// `burn-core/std`) on, and why.

import type { IndexDep, IndexLine } from "../index/index-file.js";
import { allFeatures, depHidden, depsNamed, featureValue, type Registry } from "../index/registry.js";
import { gateHolds, type Platform, targetApplies } from "./cfg.js";
import { selectVersion } from "./requirements.js";

export const DISPATCH = "burn-dispatch";
export const AUTODIFF = "autodiff";

/**
 * How much work one event may spend resolving (steps: a package added, a feature turned on, an
 * edge followed). Shared by every resolution of the event (diagnosis, enablers, verification),
 * so hostile index data (300 features tried in pairs, a 20,000-deep chain) costs a bounded
 * amount of time whatever its shape. burn's real graphs take a few thousand steps per resolution.
 */
/**
 * Resolver steps one diagnosis may take. burn's own graphs need about ten thousand for a whole
 * diagnosis with its fix search; a graph that needs more is refused ("too-large"), so an index
 * line anyone can publish bounds the event loop's stall (under 200 ms on the bench machine).
 */
export const DIAGNOSIS_STEPS = 200_000;

export class WorkBudget {
  constructor(public remaining = 2_000_000) {}
  spend(n = 1): void {
    this.remaining -= n;
    if (this.remaining < 0) throw new BudgetExceeded();
  }
}

/**
 * A dependency the build needs whose index file could not be read (a 503, a timeout) and that
 * the fallback data lacks at the required version: its part of the graph is unknown, never
 * "not part of the build".
 */
export class UnreadableCrate extends Error {
  override name = "UnreadableCrate";
  constructor(readonly crate: string) {
    super(`crates.io's index did not answer for ${crate}`);
  }
}

export class BudgetExceeded extends Error {
  override name = "BudgetExceeded";
  constructor() {
    super("the feature graph is larger than the bot walks for one event");
  }
}

export interface ResolveOptions {
  registry: Registry;
  /** Shared across the event's resolutions; a fresh default budget when absent. */
  budget?: WorkBudget;
  platform?: Platform;
  /** Exact version to use for a crate when it matches the requirement (Cargo.lock, a backtrace). */
  pin?: (crate: string) => string | undefined;
}

/** A package of the build; null is the user's own crate (the manifest being resolved). */
export type PkgRef = { name: string; version: string } | null;

/** One link of an activation chain, as data (render/why.ts words it). */
export type Reason =
  /** A feature of the user's crate is on (its default, or `--features`). */
  | { kind: "root-feature"; feature: string }
  /** `pkg`'s feature `feature` lists what follows. */
  | { kind: "feature"; pkg: PkgRef; feature: string }
  | { kind: "depends"; pkg: PkgRef; dep: string }
  /** `pkg` uses `dep` with its default features. */
  | { kind: "defaults"; pkg: PkgRef; dep: string }
  | { kind: "declares"; pkg: PkgRef; dep: string; feature: string }
  /** `via` (a feature of `via.pkg`) turns on the optional dependency `dep`. */
  | { kind: "activates"; via: { pkg: PkgRef; feature: string }; dep: string };

interface Pkg {
  line: IndexLine;
  features: Set<string>;
  activated: Set<string>;
  weak: Map<string, Array<{ feature: string; reason: Reason }>>;
}

export interface Resolution {
  packages: Map<string, { name: string; version: string; features: Set<string> }>;
  /** For `pkg@ver/feature` (or `pkg@ver` for being in the graph): what caused it. */
  because: Map<string, Reason>;
  root: string;
  /**
   * Every crate an edge of the build names, the data's or not (`tokio-tungstenite`, `iroh`): what
   * a feature brings in is compared by it where the data holds only burn's crates.
   */
  named: Set<string>;
}

const ROOT_ID = "(root)";

const refOf = (id: string, line: IndexLine): PkgRef =>
  id === ROOT_ID ? null : { name: line.name, version: line.vers };
const idOfRef = (r: PkgRef): string => (r === null ? ROOT_ID : `${r.name}@${r.version}`);

/** The key whose reason explains this one: the next link of the chain, or null at its start. */
function nextKey(r: Reason): string | null {
  switch (r.kind) {
    case "root-feature":
      return null;
    case "feature":
      return `${idOfRef(r.pkg)}/${r.feature}`;
    case "activates":
      return `${idOfRef(r.via.pkg)}/${r.via.feature}`;
    default:
      return r.pkg === null ? null : idOfRef(r.pkg);
  }
}

function crateOf(dep: IndexDep): string {
  return dep.package ?? dep.name;
}

/** Resolves features with `root` as the top package (a user manifest rendered as an index line). */
export function resolve(root: IndexLine, rootFeatures: string[], opts: ResolveOptions): Resolution {
  return new Resolver(root, opts).run(rootFeatures);
}

/**
 * One resolution's state. Work is a stack of steps run in depth-first order (children before the
 * next sibling, as a recursive walk would visit them), so a deep feature chain costs heap, not the
 * call stack; every step spends from the event's budget.
 */
class Resolver {
  private readonly stack: Array<() => void> = [];
  private readonly pkgs = new Map<string, Pkg>();
  private readonly because = new Map<string, Reason>();
  private readonly named = new Set<string>();
  private readonly platform: Platform;
  private readonly budget: WorkBudget;

  constructor(
    private readonly root: IndexLine,
    private readonly opts: ResolveOptions,
  ) {
    this.platform = opts.platform ?? "linux";
    this.budget = opts.budget ?? new WorkBudget();
  }

  run(rootFeatures: string[]): Resolution {
    this.pkgs.set(ROOT_ID, { line: this.root, features: new Set(), activated: new Set(), weak: new Map() });
    this.later(
      ...this.normalDeps(this.root).map(
        (dep) => () => this.edge(ROOT_ID, dep, { kind: "depends", pkg: null, dep: dep.name }),
      ),
      ...rootFeatures.map((f) => () => this.addFeature(ROOT_ID, f, { kind: "root-feature", feature: f })),
    );
    for (let step = this.stack.pop(); step; step = this.stack.pop()) {
      this.budget.spend();
      step();
    }
    const packages = new Map<string, { name: string; version: string; features: Set<string> }>();
    for (const [id, p] of this.pkgs)
      if (id !== ROOT_ID) packages.set(id, { name: p.line.name, version: p.line.vers, features: p.features });
    return { packages, because: this.because, root: ROOT_ID, named: this.named };
  }

  /** Queues steps to run next, in the given order. */
  private later(...steps: Array<() => void>): void {
    for (let i = steps.length - 1; i >= 0; i--) this.stack.push(steps[i]!);
  }

  private lineOf(id: string): IndexLine {
    return id === ROOT_ID ? this.root : this.pkgs.get(id)!.line;
  }

  private idOf(l: IndexLine): string {
    return l === this.root ? ROOT_ID : `${l.name}@${l.vers}`;
  }

  private applies(dep: IndexDep): boolean {
    return (dep.kind ?? "normal") === "normal" && targetApplies(dep.target, this.platform);
  }

  /** The dependencies a package always has on this platform (not optional, not dev or build). */
  private normalDeps(line: IndexLine): IndexDep[] {
    return line.deps.filter((dep) => !dep.optional && this.applies(dep));
  }

  private liveDeps(id: string, local: string): IndexDep[] {
    return depsNamed(this.lineOf(id), local).filter((d) => this.applies(d));
  }

  private select(dep: IndexDep): IndexLine | null {
    const crate = crateOf(dep);
    const line = selectVersion(this.opts.registry.versions(crate), dep.req, this.opts.pin?.(crate));
    if (!line && this.opts.registry.unreadable?.has(crate)) throw new UnreadableCrate(crate);
    return line;
  }

  private addPackage(line: IndexLine, reason: Reason): void {
    const id = this.idOf(line);
    if (this.pkgs.has(id)) return;
    this.pkgs.set(id, { line, features: new Set(), activated: new Set(), weak: new Map() });
    this.because.set(id, reason);
    this.later(
      ...this.normalDeps(line).map(
        (dep) => () => this.edge(id, dep, { kind: "depends", pkg: refOf(id, line), dep: dep.name }),
      ),
    );
  }

  private edge(parent: string, dep: IndexDep, reason: Reason): void {
    this.named.add(crateOf(dep));
    const child = this.select(dep);
    if (!child) return;
    const cid = this.idOf(child);
    const pkg = refOf(parent, this.lineOf(parent));
    this.later(
      () => this.addPackage(child, reason),
      ...(dep.default_features
        ? [() => this.addFeature(cid, "default", { kind: "defaults", pkg, dep: dep.name })]
        : []),
      ...dep.features.map((f) => () => this.addFeature(cid, f, { kind: "declares", pkg, dep: dep.name, feature: f })),
    );
  }

  private activateOptional(id: string, dep: string, reason: FeatureReason): void {
    const p = this.pkgs.get(id)!;
    if (p.activated.has(dep)) return;
    const decls = this.liveDeps(id, dep).filter((d) => d.optional);
    if (decls.length === 0) return;
    p.activated.add(dep);
    const weak = p.weak.get(dep) ?? [];
    p.weak.delete(dep);
    this.later(
      ...decls.map(
        (d) => () => this.edge(id, d, { kind: "activates", via: { pkg: reason.pkg, feature: reason.feature }, dep }),
      ),
      ...weak.map((w) => () => this.depFeature(id, dep, w.feature, w.reason)),
    );
  }

  private depFeature(id: string, dep: string, feature: string, reason: Reason): void {
    const p = this.pkgs.get(id)!;
    const steps: Array<() => void> = [];
    for (const d of this.liveDeps(id, dep)) {
      if (d.optional && !p.activated.has(dep)) continue;
      const child = this.select(d);
      if (child) steps.push(() => this.addFeature(this.idOf(child), feature, reason));
    }
    this.later(...steps);
  }

  private addFeature(id: string, feature: string, reason: Reason): void {
    const p = this.pkgs.get(id);
    if (!p || p.features.has(feature)) return;
    const table = allFeatures(p.line);
    const explicit = Object.hasOwn(table, feature);
    const implicit = !explicit && depsNamed(p.line, feature).some((d) => d.optional) && !depHidden(p.line, feature);
    if (!explicit && !implicit && feature !== "default") return;
    p.features.add(feature);
    this.because.set(`${id}/${feature}`, reason);
    const here: FeatureReason = { kind: "feature", pkg: refOf(id, p.line), feature };
    if (implicit) this.later(() => this.activateOptional(id, feature, here));
    else this.later(...(table[feature] ?? []).map((value) => () => this.featureValue(id, p, value, here)));
  }

  /** One entry of a feature's list; run in order, so `p.activated` is read after earlier entries. */
  private featureValue(id: string, p: Pkg, value: string, here: FeatureReason): void {
    const v = featureValue(value);
    if (v.kind === "dep") {
      this.activateOptional(id, v.dep, here);
    } else if (v.kind === "feature") {
      this.addFeature(id, v.feature, here);
    } else if (v.weak) {
      const { dep, feature: f } = v;
      if (p.activated.has(dep) || this.liveDeps(id, dep).some((d) => !d.optional)) this.depFeature(id, dep, f, here);
      else p.weak.set(dep, [...(p.weak.get(dep) ?? []), { feature: f, reason: here }]);
    } else {
      const { dep, feature: f } = v;
      const steps: Array<() => void> = [];
      if (this.liveDeps(id, dep).some((d) => d.optional)) {
        if (!depHidden(p.line, dep)) steps.push(() => this.addFeature(id, dep, here));
        steps.push(() => this.activateOptional(id, dep, here));
      }
      this.later(...steps, () => this.depFeature(id, dep, f, here));
    }
  }
}

type FeatureReason = Reason & { kind: "feature" };

/** A cargo feature of one crate: `burn-dispatch/autodiff`, `burn-core/std`, `burn-dispatch/cuda`. */
export interface FeatureTarget {
  crate: string;
  feature: string;
  /**
   * A cfg predicate over crate-qualified features (`all(feature = "burn-core/extension", feature =
   * "burn-dispatch/wgpu")`): the target is on when it holds. `crate`/`feature` then name the
   * crate that declares the gated item and the gate's headline feature.
   */
  gate?: string;
  /** How the comment names a gated target: `burn::backend::Wgpu`. */
  label?: string;
}

export const AUTODIFF_TARGET: FeatureTarget = { crate: DISPATCH, feature: AUTODIFF };

export function targetName(t: FeatureTarget): string {
  return t.label ?? `${t.crate}/${t.feature}`;
}

/** `burn-core/std` → the target; anything else (no slash, spaces, empty parts) → null. */
export function parseTarget(s: string): FeatureTarget | null {
  const m = /^([A-Za-z0-9_-]+)\/([A-Za-z0-9_+.-]+)$/.exec(s.trim());
  return m ? { crate: m[1]!, feature: m[2]! } : null;
}

export interface FeatureState {
  /** The target's crate is part of the build. */
  inGraph: boolean;
  version: string | null;
  on: boolean;
  /** Activation chain, from the target feature back to the manifest. */
  chain: Reason[];
  /** The crates in the build, by name, sorted (absent: no resolution was made). */
  crates?: string[];
}

function cratesOf(res: Resolution): string[] {
  return [...new Set([...res.packages.values()].map((p) => p.name))].sort();
}

export function featureState(
  res: Resolution,
  target: FeatureTarget = AUTODIFF_TARGET,
  platform: Platform = "linux",
): FeatureState {
  if (target.gate) {
    const on = new Set<string>();
    let burn: string | null = null;
    for (const p of res.packages.values()) {
      if (p.name === "burn") burn = p.version;
      for (const f of p.features) on.add(`${p.name}/${f}`);
    }
    return {
      inGraph: burn !== null,
      version: burn,
      on: gateHolds(target.gate, (cf) => on.has(cf), platform),
      chain: [],
      crates: cratesOf(res),
    };
  }
  const pkg = [...res.packages.entries()].find(([, p]) => p.name === target.crate);
  if (!pkg) return { inGraph: false, version: null, on: false, chain: [], crates: cratesOf(res) };
  const [, p] = pkg;
  const on = p.features.has(target.feature);
  const chain: Reason[] = [];
  if (on) {
    chain.push({ kind: "feature", pkg: { name: p.name, version: p.version }, feature: target.feature });
    const seen = new Set<string>();
    for (let key = nextKey(chain[0]!); key !== null && !seen.has(key) && chain.length < 20; ) {
      seen.add(key);
      const reason = res.because.get(key);
      if (!reason) break;
      chain.push(reason);
      key = nextKey(reason);
    }
  }
  return { inGraph: true, version: p.version, on, chain, crates: cratesOf(res) };
}
