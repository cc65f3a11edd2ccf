// A manifest cargo refuses for a name no release has, with several names of that release near it
// (`rocn`: `rocm` or `doc`): nothing says which was meant, so no plan picks one (refusal-fix.ts).
// Each near name is planned as its own edit, verified as any is; every surface (the issue comment,
// `fix`, `why`) shows the same list, the nearest first.

import type { FixOptions, FixPlan } from "./fix-plan.js";

export type FixedPlan = FixPlan & { kind: "fixed" };

/** The plan to show, and the other near names' edits after it (empty: no such choice). */
export interface TypoChoices {
  plan: FixPlan;
  alternatives: FixedPlan[];
}

/**
 * `replan` plans the same manifest with a typo's pick (`{ rocn: "doc" }`). Only the first refused
 * name near several is split so (two such names would multiply the edits); a plan that is not
 * such a refusal, or whose every pick fails verification, is returned as it is.
 */
export function typoChoices(plan: FixPlan, replan: (typos: FixOptions["typos"]) => FixPlan): TypoChoices {
  const none = { plan, alternatives: [] };
  if (plan.kind !== "no-fix" || plan.diagnosis.verdict !== "refused") return none;
  const typo = plan.diagnosis.refused?.find((r) => r.history.kind === "never" && r.history.closest.length > 1);
  if (typo?.history.kind !== "never") return none;
  const plans = typo.history.closest
    .map((to) => replan({ [typo.feature]: to }))
    .filter((x): x is FixedPlan => x.kind === "fixed");
  return plans.length > 0 ? { plan: plans[0]!, alternatives: plans.slice(1) } : none;
}
