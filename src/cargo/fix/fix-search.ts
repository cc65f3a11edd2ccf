// The smallest verified feature addition that turns the target on: the data's ready answers for
// a gated path, then single enablers, then pairs; and for a gate of several features no single
// one opens, one enabler per conjunct. Every candidate is proven by resolving the whole manifest
// with it (the `Run` a diagnosis hands over). Pure.

import type { IndexLine } from "../index/index-file.js";
import type { Registry } from "../index/registry.js";
import type { Addition, BurnDep, DiagnoseOptions, Run } from "../judge/diagnosis.js";
import { conjunctsOf } from "../resolve/cfg.js";
import { enablersOf } from "../resolve/enablers.js";
import { DIAGNOSIS_STEPS, type FeatureTarget, type WorkBudget } from "../resolve/resolve.js";

/** The smallest verified addition: the data's ready answers, then single enablers, then pairs. */
export function searchFix(
  run: Run,
  primary: BurnDep,
  burnDeps: BurnDep[],
  enablers: string[],
  pairs: string[][],
  ownDefaults: string[],
  target: FeatureTarget,
  opts: DiagnoseOptions,
): Addition | null {
  const fresh = (lists: string[][] | undefined) =>
    (lists ?? []).map((a) => a.filter((f) => !primary.effective.features.includes(f))).filter((a) => a.length > 0);
  const needed = fresh(opts.needed);
  const ready = [...needed, ...fresh(opts.additions)];
  const candidates = [...ready, ...candidateAdditions(primary.effective.features, enablers, pairs, opts.prefer ?? [])];
  // What the code needs comes first, whatever its build: the smallest build that leaves an import unresolved is no fix.
  const add =
    needed.find((a) => run(ownDefaults, { target: primary.decl, add: a }).on) ??
    smallestBuild(run, primary.decl, ownDefaults, candidates, opts);
  let fix: Addition | null = add && { decl: primary.decl, add };
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

/** Lexicographic order of two ranks. */
function before(a: readonly number[], b: readonly number[]): boolean {
  const j = a.findIndex((x, k) => x !== b[k]);
  return j >= 0 && a[j]! < b[j]!;
}

/** Resolutions the ranking may add after the first verified candidate (each a few thousand steps). */
const MAX_RANKED = 8;

/**
 * The verified candidate whose build is smallest: fewest crates in the resolved build of this
 * manifest (`autodiff` before `optim`, which brings burn-optim too; `std` and `dataset` before
 * `train`), then fewest features, then the search's order. A PR review's restoring what the PR
 * removed (`prefer`, the like-for-like answer: the base built with it) wins when it is as few
 * features as any. Past the first verified candidate, up to MAX_RANKED more of at most one feature
 * more are resolved, while the event's budget keeps a reserve for the verification.
 */
function smallestBuild(
  run: Run,
  decl: BurnDep["decl"],
  ownDefaults: string[],
  candidates: string[][],
  opts: DiagnoseOptions,
): string[] | null {
  const verified: Array<{ add: string[]; key: readonly number[] }> = [];
  let ranked = 0;
  for (const [i, add] of candidates.entries()) {
    const first = verified[0];
    if (first && (ranked >= MAX_RANKED || (opts.budget?.remaining ?? Infinity) < DIAGNOSIS_STEPS / 4)) break;
    if (first && add.length > first.add.length + 1) continue;
    if (first) ranked++;
    const state = run(ownDefaults, { target: decl, add });
    if (state.on) verified.push({ add, key: [state.crates?.length ?? Number.MAX_SAFE_INTEGER, add.length, i] });
  }
  if (verified.length === 0) return null;
  const fewest = Math.min(...verified.map((v) => v.add.length));
  const prefer = opts.prefer ?? [];
  const restores = verified.find((v) => v.add.length === fewest && v.add.every((f) => prefer.includes(f)));
  if (restores) return restores.add;
  return verified.reduce((a, b) => (before(b.key, a.key) ? b : a)).add;
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
export function searchConjuncts(
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
