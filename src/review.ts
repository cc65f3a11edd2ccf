// The pure half of PR review: given base and head text of each changed manifest (and whether
// the crate's code needs gradients), decide what regressed and what to suggest.
import type { Diagnosis } from "./cargo/diagnose.js";
import { type FixPlan, type ManifestFile, planFix } from "./cargo/fix.js";

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
  | { kind: "regression"; path: string; before: Diagnosis; plan: FixPlan & { kind: "fixed" }; inDiff: boolean }
  | { kind: "regression-unfixable"; path: string; before: Diagnosis; after: Diagnosis; reason: string }
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
  for (const l of patch.split("\n")) {
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
  if (head.kind === "fixed") {
    const s = head.change.suggestion;
    const inDiff = Array.from({ length: s.endLine - s.startLine + 1 }, (_, i) => s.startLine + i).every((l) => c.commentable.has(l));
    return { kind: "regression", path: c.path, before, plan: head, inDiff };
  }
  return { kind: "regression-unfixable", path: c.path, before, after, reason: head.kind === "no-fix" ? head.reason : "no fix" };
}
