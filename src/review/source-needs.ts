// The burn features a crate's own sources need through the gated paths they import: `use
// burn::optim::AdamConfig;` needs `optim` at 0.22 (data/gated.json: `feature = "burn/optim"`). A review
// that restores a lost feature tries these first, so its edit also restores what the code imports
// (`optim`, which turns `autodiff` on as well), not only the rule's feature. Pure.
import type { Diagnosis } from "../cargo/judge/diagnosis.js";
import { conjunctsOf } from "../cargo/resolve/cfg.js";
import { gateAt, refOfVersion } from "../compile/gated.js";
import { usePaths } from "../compile/use-tree.js";

/** burn:: paths kept per crate: what a few files import, not a whole crate's surface. */
const MAX_PATHS = 200;

/** The `burn::…` paths the `use` declarations of `texts` import, in order, once each. */
export function burnImports(texts: string[]): string[] {
  const out = new Set<string>();
  for (const text of texts)
    for (const p of usePaths(text)) if (p.startsWith("burn::") && out.size < MAX_PATHS) out.add(p);
  return [...out];
}

/** `feature = "burn/optim"` → `optim`: a gate term that is one of burn's own features. */
const burnFeature = (conjunct: string) => /^feature\s*=\s*"burn\/([\w-]+)"$/.exec(conjunct.trim())?.[1];

/**
 * The additions, one per gated path the crate imports, that its head manifest does not list: the
 * `burn/…` features its gate requires at the head's release (`burn::optim` → `optim`). A gate on
 * other crates' features only (`burn-core/std`) is left to the rule's own search; [] when the
 * release has no gated-path data or the dependency is not `burn` itself.
 */
export function sourceAdditions(imports: readonly string[], after: Diagnosis): string[][] {
  const dep = after.primary?.effective;
  const ref = after.graphVersion ? refOfVersion(after.graphVersion) : null;
  if (dep?.name !== "burn" || !ref) return [];
  const out = new Map<string, string[]>();
  for (const path of imports) {
    const gate = gateAt(ref, { path, exact: false })?.gate.gate;
    const add = gate ? conjunctsOf(gate).flatMap((c) => burnFeature(c) ?? []) : [];
    if (add.length === 0 || add.every((f) => dep.features.includes(f))) continue;
    out.set(add.join("+"), add);
  }
  return [...out.values()];
}
