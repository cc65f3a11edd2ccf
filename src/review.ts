// The pure half of PR review: given base and head text of each changed manifest, decide what
// turned autodiff off and what to suggest. Whether the crate needs gradients is the handler's
// question (it takes reads); a regression here is only reported when it does.
import type { Diagnosis } from "./cargo/diagnose.js";
import { type FixPlan, type ManifestFile, planFix, planWorkspaceFix } from "./cargo/fix.js";

export interface ManifestChange {
  path: string;
  base: string | null;
  head: string;
  baseRoot?: ManifestFile | null;
  headRoot?: ManifestFile | null;
  /** Set of head-side line numbers GitHub lets a review comment on (from the patch). */
  commentable: Set<number>;
}

export type ManifestReview =
  | { kind: "regression"; path: string; before: Diagnosis; plan: FixPlan & { kind: "fixed" }; inDiff: boolean; member?: string }
  | { kind: "regression-unfixable"; path: string; before: Diagnosis; after: Diagnosis; reason: string; member?: string }
  | { kind: "invalid-toml"; path: string; line: number; column: number; message: string }
  | { kind: "fine"; path: string; burn: boolean };

function diagnosisOf(plan: FixPlan): Diagnosis | null {
  return plan.kind === "invalid-toml" ? null : plan.diagnosis;
}

/** Head-side line numbers present in a unified diff patch (added or context lines). */
export function commentableLines(patch: string | undefined): Set<number> {
  const lines = new Set<number>();
  if (!patch) return lines;
  let n = 0;
  for (const l of patch.replace(/\n$/, "").split("\n")) {
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) {
      n = Number(h[1]);
      continue;
    }
    if (l.startsWith("-") || l.startsWith("\\")) continue;
    lines.add(n++);
  }
  return lines;
}

function inDiff(plan: FixPlan & { kind: "fixed" }, commentable: Set<number>): boolean {
  const s = plan.change.suggestion;
  for (let l = s.startLine; l <= s.endLine; l++) if (!commentable.has(l)) return false;
  return true;
}

export interface RootChange {
  path: string;
  base: string | null;
  head: string;
  /** Members that inherit burn from this root, at both refs (base null when the member is new). */
  members: Array<{ path: string; base: string | null; head: string }>;
  commentable: Set<number>;
}

/**
 * A changed workspace root reaches every member that inherits from it: a member whose autodiff
 * was on at the base and is off at the head is a regression, fixed in the root's own line.
 */
export function reviewWorkspaceRoot(c: RootChange): ManifestReview[] {
  const out: ManifestReview[] = [];
  const headRoot = { path: c.path, text: c.head };
  for (const m of c.members) {
    const after = planFix({ path: m.path, text: m.head }, { root: headRoot });
    if (after.kind === "invalid-toml") return [{ kind: "invalid-toml", path: after.path, line: after.error.line, column: after.error.column, message: after.error.message.replace(/^\d+:\d+: /, "") }];
    const before = c.base === null ? null : diagnosisOf(planFix({ path: m.path, text: m.base ?? m.head }, { root: { path: c.path, text: c.base } }));
    if (before?.verdict !== "on" || after.diagnosis.verdict === "on") continue;
    const plan = planWorkspaceFix(headRoot, { path: m.path, text: m.head });
    if (plan.kind === "fixed") out.push({ kind: "regression", path: c.path, before, plan, inDiff: inDiff(plan, c.commentable), member: m.path });
    else out.push({ kind: "regression-unfixable", path: c.path, before, after: after.diagnosis, reason: plan.kind === "no-fix" ? plan.reason : "no fix", member: m.path });
    // One suggestion per root line: the same edit serves every member.
    break;
  }
  return out;
}

export function reviewManifest(c: ManifestChange): ManifestReview {
  const head = planFix({ path: c.path, text: c.head }, { root: c.headRoot });
  if (head.kind === "invalid-toml") {
    return { kind: "invalid-toml", path: head.path, line: head.error.line, column: head.error.column, message: head.error.message.replace(/^\d+:\d+: /, "") };
  }
  const after = head.diagnosis;
  const basePlan = c.base === null ? null : planFix({ path: c.path, text: c.base }, { root: c.baseRoot });
  const before = basePlan ? diagnosisOf(basePlan) : null;
  const burn = after.verdict !== "no-burn";
  if (before?.verdict !== "on" || after.verdict === "on") return { kind: "fine", path: c.path, burn };
  if (head.kind === "fixed") return { kind: "regression", path: c.path, before, plan: head, inDiff: inDiff(head, c.commentable) };
  return { kind: "regression-unfixable", path: c.path, before, after, reason: head.kind === "no-fix" ? head.reason : "no fix" };
}
