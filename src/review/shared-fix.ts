// Two rules that lost their features on the same line would each suggest an edit of it, and
// GitHub cannot commit both. Their fixes are planned one after the other into one edit, proven
// for every rule it serves, and said as one suggestion. Pure: problems in, problems out.
import { changeBetween, planFix } from "../cargo/fix/fix.js";
import type { Regression } from "./manifest.js";
import { type ReviewRule, ruleById } from "./rules.js";

type Fixed = Regression & { crates: unknown[] };

const overlap = (a: Fixed, b: Fixed) => {
  const x = a.plan.change.suggestion;
  const y = b.plan.change.suggestion;
  return x.startLine <= y.endLine && y.startLine <= x.endLine;
};

/**
 * The fixes of `problems` that share lines in one manifest, merged: the first keeps a suggestion
 * that restores all of their features; the others point at it (`sharedWith`). A merge that does
 * not plan or verify for every rule is not made, and the fixes stay apart.
 */
export function shareFixes<P extends { kind: string }>(problems: P[], rules: readonly ReviewRule[]): P[] {
  const fixed = problems.filter((p): p is P & Fixed => p.kind === "regression" && !("member" in p && p.member));
  const out = new Map<P, P>();
  const done = new Set<P>();
  for (const first of fixed) {
    if (done.has(first)) continue;
    const group = fixed.filter((p) => p.path === first.path && !done.has(p) && overlap(first, p));
    if (group.length < 2) continue;
    const merged = plan(group, rules);
    if (!merged) continue;
    for (const p of group) done.add(p);
    out.set(first, { ...first, plan: { ...first.plan, change: merged } });
    for (const p of group.slice(1)) out.set(p, { ...p, inDiff: false, sharedWith: first.rule });
  }
  return problems.map((p) => out.get(p) ?? p);
}

function plan(group: Fixed[], rules: readonly ReviewRule[]) {
  const head = group[0]!.plan.change.before;
  const path = group[0]!.path;
  const root = group[0]!.headRoot ?? null;
  const target = (p: Fixed) => ruleById(p.rule, rules)!.target;
  let text = head;
  const added: string[] = [];
  for (const p of group) {
    const next = planFix({ path, text }, { root, target: target(p), prefer: p.loss.removed, needed: p.additions });
    if (next.kind === "already-on") continue;
    if (next.kind !== "fixed" || next.change.dependency !== group[0]!.plan.change.dependency) return null;
    text = next.change.after;
    added.push(...next.change.added);
  }
  // Features only add, but the merged edit is proven for every rule all the same.
  if (group.some((p) => planFix({ path, text }, { root, target: target(p) }).kind !== "already-on")) return null;
  return changeBetween(path, head, text, group[0]!.plan.change.dependency, added);
}
