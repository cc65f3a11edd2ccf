// Which features of one burn crate version turn a target feature on by themselves (the enablers),
// the pairs that do when no single one does, and whether its defaults do: what a fix may add.
// Computed by resolving probes over the index data, cached per release and target, and read from
// the build's precomputed table when the data is the bundled one. Pure.
import { boundedMemo } from "../../util/memo.js";
import type { IndexLine } from "../index/index-file.js";
import { type Enablers, precomputedEnablers } from "../index/precomputed.js";
import { allFeatures, depHidden, type Registry } from "../index/registry.js";
import { mayEnable } from "./reach.js";
import {
  AUTODIFF_TARGET,
  DIAGNOSIS_STEPS,
  type FeatureTarget,
  featureState,
  resolve,
  targetName,
  WorkBudget,
} from "./resolve.js";

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
