// Why is `burn-dispatch/autodiff` on or off for this manifest, and which feature additions to
// which declaration would turn it on. Pure: manifests and index data in, a verdict out.
import type { Platform } from "./cfg.js";
import { type DepDecl, effectiveDecl, type Manifest } from "./manifest.js";
import { allFeatures, type IndexDep, type IndexLine, type Registry, selectVersion, snapshot } from "./registry.js";
import { type DispatchState, dispatchState, resolve } from "./resolve.js";

export interface DiagnoseOptions {
  /** Workspace root manifest when the member inherits (`workspace = true`). */
  root?: Manifest | null;
  /** burn version known from elsewhere (backtrace path, Cargo.lock, prose). */
  burnVersion?: string | null;
  platform?: Platform;
  /** Follow [dev-dependencies] too (the panic came from a test or an example). */
  includeDev?: boolean;
  registries?: { tags: Registry; main: Registry };
}

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
  | "no-dispatch" // burn-dispatch is not in this build at all
  | "on" // autodiff is on with the crate's default features
  | "gated" // on only with some of the crate's own (non-default) features
  | "off";

export interface Addition {
  /** The declaration to edit (the member's own, never the workspace root's). */
  decl: DepDecl;
  add: string[];
}

export interface Diagnosis {
  verdict: Verdict;
  burnDeps: BurnDep[];
  /** The dependency that carries burn-dispatch into the build (the one to edit). */
  primary: BurnDep | null;
  state: DispatchState;
  /** The version whose feature graph was used, and whether it was assumed. */
  graphVersion: string | null;
  graphAssumed: string | null;
  registryLabel: string;
  /** Features of the primary crate that enable autodiff on their own, at that version. */
  enablers: string[];
  /** Whether the primary crate's default features would have enabled it. */
  defaultsEnable: boolean;
  /** Enablers listed directly in the primary crate's `default` feature. */
  defaultEnablers: string[];
  /** Crate features of the user's own package that turn it on (verdict "gated"). */
  gatedBehind: string[];
  /** Smallest verified addition; null when none exists in the data. */
  fix: Addition | null;
}

const PREFERENCE = ["burn", "burn-train", "burn-optim", "burn-core", "burn-tensor", "burn-dispatch"];

export function isBurnCrate(name: string): boolean {
  return name === "burn" || name.startsWith("burn-");
}

function asIndexDep(d: DepDecl, includeDev: boolean, override?: { features?: string[]; req?: string | null }): IndexDep {
  return {
    name: d.key,
    package: d.name !== d.key ? d.name : undefined,
    req: override?.req !== undefined ? (override.req ?? "*") : (d.version ?? "*"),
    features: override?.features ?? d.features,
    optional: d.optional,
    default_features: d.defaultFeatures !== false,
    target: d.target,
    kind: d.kind === "dev" && includeDev ? "normal" : d.kind,
  };
}

function pinFor(version: string | null) {
  return (crate: string) => (version && isBurnCrate(crate) ? version : undefined);
}

export function diagnose(manifest: Manifest, opts: DiagnoseOptions = {}): Diagnosis {
  const regs = opts.registries ?? { tags: snapshot("tags"), main: snapshot("main") };
  const includeDev = opts.includeDev ?? false;
  const effective = manifest.dependencies.map((d) => ({ decl: d, effective: effectiveDecl(d, opts.root ?? null) }));
  const burn = effective.filter((b) => isBurnCrate(b.effective.name) && (b.effective.kind === "normal" || (includeDev && b.effective.kind === "dev")));
  const fromGit = burn.some((b) => b.effective.git !== null);
  const registry = fromGit ? regs.main : regs.tags;

  // A requirement outside the data (a newer release) falls back to the newest graph we have.
  let graphAssumed: string | null = null;
  const reqFor = (d: DepDecl): string | null => {
    if (d.git || d.path || !d.version) return null;
    const lines = registry.versions(d.name);
    if (lines.length > 0 && !selectVersion(lines, d.version, opts.burnVersion ?? undefined)) {
      graphAssumed = `\`${d.name} = "${d.version}"\` is newer than the bundled data`;
      return null;
    }
    return d.version;
  };
  const reqs = new Map(effective.map((b) => [b.decl, reqFor(b.effective)]));
  const pin = pinFor(opts.burnVersion ?? null);

  const rootLine = (extra?: { target: DepDecl; add: string[] }): IndexLine => ({
    name: manifest.packageName ?? "(your crate)",
    vers: "0.0.0",
    deps: effective.map((b) =>
      asIndexDep(b.effective, includeDev, {
        req: reqs.get(b.decl) ?? null,
        features: extra && b.decl === extra.target ? [...b.effective.features, ...extra.add] : b.effective.features,
      }),
    ),
    features: manifest.features,
  });
  const run = (features: string[], extra?: { target: DepDecl; add: string[] }) =>
    dispatchState(resolve(rootLine(extra), features, { registry, platform: opts.platform, pin }));

  const ownDefaults = Object.hasOwn(manifest.features, "default") ? ["default"] : [];
  const state = run(ownDefaults);
  const lines = new Map(burn.map((b) => [b.decl, selectVersion(registry.versions(b.effective.name), reqs.get(b.decl) ?? null, pin(b.effective.name))]));
  const burnDeps: BurnDep[] = burn.map((b) => ({ ...b, resolved: lines.get(b.decl)?.vers ?? null }));
  const primary =
    [...burnDeps].sort((a, b) => rank(a) - rank(b)).find((b) => b.decl.target === null) ?? burnDeps.find((b) => b.decl.target !== null) ?? null;
  const base = {
    burnDeps,
    primary,
    state,
    graphVersion: state.version ?? primary?.resolved ?? null,
    graphAssumed,
    registryLabel: registry.label,
  };
  if (!primary) return { ...base, verdict: "no-burn", enablers: [], defaultsEnable: false, defaultEnablers: [], gatedBehind: [], fix: null };

  const line = lines.get(primary.decl) ?? null;
  const { enablers, defaultsEnable, pairs } = line ? enablersOf(line, registry) : { enablers: [], defaultsEnable: false, pairs: [] };
  const defaultList = line ? (allFeatures(line).default ?? []) : [];
  const defaultEnablers = enablers.filter((f) => defaultList.includes(f));

  if (state.autodiff) return { ...base, verdict: "on", enablers, defaultsEnable, defaultEnablers, gatedBehind: [], fix: null };
  const gatedBehind = Object.keys(manifest.features).filter((f) => f !== "default" && run([...ownDefaults, f]).autodiff);

  const candidates = [...enablers.map((f) => [f]), ...pairs].filter((add) => add.every((f) => !primary.effective.features.includes(f)));
  let fix: Addition | null = null;
  for (const add of candidates) {
    if (run(ownDefaults, { target: primary.decl, add }).autodiff) {
      fix = { decl: primary.decl, add };
      break;
    }
  }
  const verdict: Verdict = gatedBehind.length > 0 ? "gated" : state.inGraph ? "off" : "no-dispatch";
  return { ...base, verdict, enablers, defaultsEnable, defaultEnablers, gatedBehind, fix };
}

function rank(b: BurnDep): number {
  const i = PREFERENCE.indexOf(b.effective.name);
  return i < 0 ? PREFERENCE.length : i;
}

interface Enablers {
  enablers: string[];
  defaultsEnable: boolean;
  /** Pairs that only work together (burn 0.21: `dispatch` + `autodiff`), when no single feature does. */
  pairs: string[][];
}

const enablerCache = new Map<string, Enablers>();

/** Which features of one crate version turn on burn-dispatch/autodiff on their own. */
export function enablersOf(line: IndexLine, registry: Registry): Enablers {
  const key = `${registry.label}|${line.name}@${line.vers}`;
  const hit = enablerCache.get(key);
  if (hit) return hit;
  const table = allFeatures(line);
  const implicit = line.deps.filter((d) => d.optional && !Object.values(table).some((v) => v.includes(`dep:${d.name}`))).map((d) => d.name);
  const names = [...new Set([...Object.keys(table), ...implicit])].filter((f) => f !== "default");
  const test = (features: string[], defaults = false) => {
    const root: IndexLine = {
      name: "(probe)",
      vers: "0.0.0",
      deps: [{ name: line.name, req: `=${line.vers}`, features, optional: false, default_features: defaults, target: null, kind: "normal" }],
      features: {},
    };
    return dispatchState(resolve(root, [], { registry }));
  };
  // `autodiff` first: it names the intent; then explicit features before implicit ones.
  const order = (f: string) => (f === "autodiff" ? 0 : Object.hasOwn(table, f) ? 1 : 2);
  const enablers = names.filter((f) => test([f]).autodiff).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const pairs: string[][] = [];
  if (enablers.length === 0) {
    const bringers = names.filter((f) => test([f]).inGraph).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
    for (const f of names.filter((n) => Object.hasOwn(table, n)).sort((a, b) => order(a) - order(b) || a.localeCompare(b)))
      for (const g of bringers) if (f !== g && test([f, g]).autodiff) pairs.push([f, g]);
  }
  const result = { enablers, defaultsEnable: test([], true).autodiff, pairs };
  enablerCache.set(key, result);
  return result;
}
