// Cargo's feature resolution (resolver v2, normal dependencies) over index lines: default
// features, `dep:`, weak `x?/f`, implicit features of optional dependencies, and activation
// across crates. It answers one question precisely: is one feature of one crate (`burn-dispatch/autodiff`,
// `burn-core/std`) on, and why.
import { gateHolds, type Platform, targetApplies } from "./cfg.js";
import { allFeatures, depHidden, depsNamed, type IndexDep, type IndexLine, type Registry, selectVersion } from "./registry.js";

export const DISPATCH = "burn-dispatch";
export const AUTODIFF = "autodiff";

/**
 * How much work one event may spend resolving (steps: a package added, a feature turned on, an
 * edge followed). Shared by every resolution of the event (diagnosis, enablers, verification),
 * so hostile index data (300 features tried in pairs, a 20,000-deep chain) costs a bounded
 * amount of time whatever its shape. burn's real graphs take a few thousand steps per resolution.
 */
export class WorkBudget {
  constructor(public remaining = 2_000_000) {}
  spend(n = 1): void {
    this.remaining -= n;
    if (this.remaining < 0) throw new BudgetExceeded();
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

interface Pkg {
  line: IndexLine;
  features: Set<string>;
  activated: Set<string>;
  weak: Map<string, Array<{ feature: string; reason: string }>>;
}

export interface Resolution {
  packages: Map<string, { name: string; version: string; features: Set<string> }>;
  /** For `pkg@ver/feature` (or `pkg@ver` for being in the graph): what caused it. */
  because: Map<string, string>;
  root: string;
}

const ROOT_ID = "(root)";

function crateOf(dep: IndexDep): string {
  return dep.package ?? dep.name;
}

/** Resolves features with `root` as the top package (a user manifest rendered as an index line). */
export function resolve(root: IndexLine, rootFeatures: string[], opts: ResolveOptions): Resolution {
  const platform = opts.platform ?? "linux";
  const budget = opts.budget ?? new WorkBudget();
  // Work is a stack of steps run in depth-first order (children before the next sibling, as a
  // recursive walk would visit them), so a deep feature chain costs heap, not the call stack.
  const stack: Array<() => void> = [];
  const later = (...steps: Array<() => void>) => {
    for (let i = steps.length - 1; i >= 0; i--) stack.push(steps[i]!);
  };
  const pkgs = new Map<string, Pkg>();
  const because = new Map<string, string>();
  const lineOf = (id: string) => (id === ROOT_ID ? root : pkgs.get(id)!.line);
  const idOf = (l: IndexLine) => (l === root ? ROOT_ID : `${l.name}@${l.vers}`);

  const liveDeps = (id: string, local: string) =>
    depsNamed(lineOf(id), local).filter((d) => (d.kind ?? "normal") === "normal" && targetApplies(d.target, platform));

  const select = (dep: IndexDep): IndexLine | null => {
    const crate = crateOf(dep);
    return selectVersion(opts.registry.versions(crate), dep.req, opts.pin?.(crate));
  };

  const addPackage = (line: IndexLine, reason: string): string => {
    const id = idOf(line);
    if (pkgs.has(id)) return id;
    pkgs.set(id, { line, features: new Set(), activated: new Set(), weak: new Map() });
    because.set(id, reason);
    later(
      ...line.deps
        .filter((dep) => !dep.optional && (dep.kind ?? "normal") === "normal" && targetApplies(dep.target, platform))
        .map((dep) => () => edge(id, dep, `${id} depends on \`${dep.name}\``)),
    );
    return id;
  };

  const edge = (parent: string, dep: IndexDep, reason: string) => {
    const child = select(dep);
    if (!child) return;
    const cid = idOf(child);
    const who = parent === ROOT_ID ? "your manifest" : parent;
    later(
      () => addPackage(child, reason),
      ...(dep.default_features ? [() => addFeature(cid, "default", `${who} uses \`${dep.name}\` with default features`)] : []),
      ...dep.features.map((f) => () => addFeature(cid, f, `${who} declares \`${dep.name}\` with feature \`${f}\``)),
    );
  };


  const activateOptional = (id: string, dep: string, reason: string) => {
    const p = pkgs.get(id)!;
    if (p.activated.has(dep)) return;
    const decls = liveDeps(id, dep).filter((d) => d.optional);
    if (decls.length === 0) return;
    p.activated.add(dep);
    const weak = p.weak.get(dep) ?? [];
    p.weak.delete(dep);
    later(
      ...decls.map((d) => () => edge(id, d, `${reason} activates optional dependency \`${dep}\``)),
      ...weak.map((w) => () => depFeature(id, dep, w.feature, w.reason)),
    );
  };

  const depFeature = (id: string, dep: string, feature: string, reason: string) => {
    const p = pkgs.get(id)!;
    const steps: Array<() => void> = [];
    for (const d of liveDeps(id, dep)) {
      if (d.optional && !p.activated.has(dep)) continue;
      const child = select(d);
      if (child) steps.push(() => addFeature(idOf(child), feature, reason));
    }
    later(...steps);
  };

  const addFeature = (id: string, feature: string, reason: string) => {
    const p = pkgs.get(id);
    if (!p || p.features.has(feature)) return;
    const table = allFeatures(p.line);
    const explicit = Object.hasOwn(table, feature);
    const implicit = !explicit && depsNamed(p.line, feature).some((d) => d.optional) && !depHidden(p.line, feature);
    if (!explicit && !implicit && feature !== "default") return;
    p.features.add(feature);
    because.set(`${id}/${feature}`, reason);
    const here = `${id} feature \`${feature}\``;
    if (implicit) return later(() => activateOptional(id, feature, here));
    later(...(table[feature] ?? []).map((value) => () => featureValue(id, p, value, here)));
  };

  /** One entry of a feature's list; run in order, so `p.activated` is read after earlier entries. */
  const featureValue = (id: string, p: Pkg, value: string, here: string) => {
    if (value.startsWith("dep:")) {
      activateOptional(id, value.slice(4), here);
    } else if (value.includes("?/")) {
      const [dep, f] = value.split("?/") as [string, string];
      if (p.activated.has(dep) || liveDeps(id, dep).some((d) => !d.optional)) depFeature(id, dep, f, here);
      else p.weak.set(dep, [...(p.weak.get(dep) ?? []), { feature: f, reason: here }]);
    } else if (value.includes("/")) {
      const [dep, f] = value.split("/") as [string, string];
      const steps: Array<() => void> = [];
      if (liveDeps(id, dep).some((d) => d.optional)) {
        if (!depHidden(p.line, dep)) steps.push(() => addFeature(id, dep, here));
        steps.push(() => activateOptional(id, dep, here));
      }
      later(...steps, () => depFeature(id, dep, f, here));
    } else {
      addFeature(id, value, here);
    }
  };

  pkgs.set(ROOT_ID, { line: root, features: new Set(), activated: new Set(), weak: new Map() });
  later(
    ...root.deps
      .filter((dep) => !dep.optional && (dep.kind ?? "normal") === "normal" && targetApplies(dep.target, platform))
      .map((dep) => () => edge(ROOT_ID, dep, `your manifest depends on \`${dep.name}\``)),
    ...rootFeatures.map((f) => () => addFeature(ROOT_ID, f, `feature \`${f}\` of your crate is on`)),
  );
  for (let step = stack.pop(); step; step = stack.pop()) {
    budget.spend();
    step();
  }

  const packages = new Map<string, { name: string; version: string; features: Set<string> }>();
  for (const [id, p] of pkgs) if (id !== ROOT_ID) packages.set(id, { name: p.line.name, version: p.line.vers, features: p.features });
  return { packages, because, root: ROOT_ID };
}

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
  chain: string[];
}

export function featureState(res: Resolution, target: FeatureTarget = AUTODIFF_TARGET, platform: Platform = "linux"): FeatureState {
  if (target.gate) {
    const on = new Set<string>();
    let burn: string | null = null;
    for (const p of res.packages.values()) {
      if (p.name === "burn") burn = p.version;
      for (const f of p.features) on.add(`${p.name}/${f}`);
    }
    return { inGraph: burn !== null, version: burn, on: gateHolds(target.gate, (cf) => on.has(cf), platform), chain: [] };
  }
  const pkg = [...res.packages.entries()].find(([, p]) => p.name === target.crate);
  if (!pkg) return { inGraph: false, version: null, on: false, chain: [] };
  const [id, p] = pkg;
  const on = p.features.has(target.feature);
  const chain: string[] = [];
  if (on) {
    let reason = res.because.get(`${id}/${target.feature}`);
    chain.push(`${id} feature \`${target.feature}\``);
    const seen = new Set<string>();
    while (reason && !seen.has(reason) && chain.length < 20) {
      seen.add(reason);
      chain.push(reason);
      const m = /^(\S+@\S+|\(root\)) feature `([^`]+)`/.exec(reason) ?? /^(\S+@\S+|\(root\)) (?:declares|uses|depends)/.exec(reason);
      if (!m) break;
      reason = m[2] ? res.because.get(`${m[1]}/${m[2]}`) : res.because.get(m[1]!);
    }
  }
  return { inGraph: true, version: p.version, on, chain };
}
