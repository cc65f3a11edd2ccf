import type { ManifestReview } from "../review.js";
import { diffBody } from "./issue.js";
import { code, fence, text, withMarker } from "./escape.js";
import { why } from "./why.js";

export const REVIEW_MARKER = "<!-- burn-triage:review -->";
export const CHECK_NAME = "burn-triage / autodiff";

type Regression = Extract<ManifestReview, { kind: "regression" }>;

export function suggestionComment(r: Regression): { path: string; line: number; start_line?: number; side: "RIGHT"; start_side?: "RIGHT"; body: string } {
  const s = r.plan.change.suggestion;
  const body = [
    `This turns ${code("burn-dispatch/autodiff")} off for a crate that computes gradients. ${why(r.plan.diagnosis)}`,
    "",
    fence(s.lines.join("\n"), "suggestion"),
  ].join("\n");
  return s.startLine === s.endLine
    ? { path: r.path, line: s.endLine, side: "RIGHT", body }
    : { path: r.path, line: s.endLine, start_line: s.startLine, side: "RIGHT", start_side: "RIGHT", body };
}

export function renderReviewBody(reviews: ManifestReview[], headSha: string): string {
  const lines = [`### This PR turns off \`autodiff\` for code that trains`, ""];
  for (const r of reviews) {
    if (r.kind === "regression") {
      const whom = r.member ? ` for ${code(r.member)}, which inherits ${code(r.plan.change.dependency)} from this workspace` : "";
      lines.push(`- ${code(r.path)}: autodiff was on before this change and is off after it${whom}.`);
      if (!r.inDiff) lines.push("", `  The fix touches lines outside this PR's diff, so here it is as a diff:`, "", fence(diffBody(r.plan.change.diff), "diff"));
    } else if (r.kind === "regression-unfixable") {
      lines.push(`- ${code(r.path)}: autodiff was on before and is off after. ${why(r.after)} I found no verified fix: ${text(r.reason)}.`);
    } else if (r.kind === "invalid-toml") {
      lines.push(`- ${code(r.path)} does not parse: line ${r.line}, column ${r.column}: ${text(r.message)}.`);
    }
  }
  lines.push("", `<sub>Checked at ${code(headSha.slice(0, 12))}. "Commit suggestion" on the line comment restores autodiff; the edit was verified with the feature resolver.</sub>`);
  return withMarker(REVIEW_MARKER, `${lines.join("\n")}\n`);
}

export function renderSuperseded(headSha: string, fixed: boolean): string {
  return fixed
    ? `${REVIEW_MARKER}\n✅ Fixed at ${code(headSha.slice(0, 12))}: ${code("burn-dispatch/autodiff")} is on again. This earlier review no longer applies.\n`
    : `${REVIEW_MARKER}\nSuperseded by a newer review at ${code(headSha.slice(0, 12))}.\n`;
}

interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "warning" | "failure";
  message: string;
}

/** The check run's output: a title, a Markdown summary and one annotation per problem line. */
export function checkOutput(problems: ManifestReview[]): { title: string; summary: string; annotations?: Annotation[] } {
  if (problems.length === 0) return { title: "autodiff unchanged", summary: "No Cargo.toml change in this PR turns `burn-dispatch/autodiff` off." };
  const annotations = problems.flatMap((r): Annotation[] => {
    if (r.kind === "regression") {
      const s = r.plan.change.suggestion;
      return [{ path: r.path, start_line: s.startLine, end_line: s.endLine, annotation_level: "warning", message: `autodiff is off after this change; add ${r.plan.change.added.map((a) => JSON.stringify(a)).join(", ")} to ${JSON.stringify(r.plan.change.dependency)}'s features.` }];
    }
    if (r.kind === "invalid-toml") return [{ path: r.path, start_line: r.line, end_line: r.line, annotation_level: "failure", message: `Cargo.toml does not parse: ${r.message}` }];
    return [];
  });
  return { title: `${problems.length} manifest${problems.length > 1 ? "s" : ""} need attention`, summary: "See the review on this pull request.", annotations };
}
