// One rule's check run, from the review's answer: it summarises (a line per manifest, an
// annotation on each line at fault); the detail and the edit are the review's, said there once.
import type { ReviewAnswer, ReviewResult } from "../answer/review-answer.js";
import { code } from "./escape.js";
import { editText, feature, isProblem, lossText, refusedText, ruleOf } from "./review-words.js";

interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "warning" | "failure";
  message: string;
}

export interface CheckOutput {
  title: string;
  summary: string;
  annotations?: Annotation[];
}

/** A manifest cargo stops at stops every rule: it is in every check. */
const concerns = (rule: string, r: ReviewResult) => r.rule === "cargo" || r.rule === rule;

const plain = (s: string) => s;

/** The one line a check says of a problem. */
function summaryLine(r: ReviewResult): string {
  if (r.kind === "invalid-toml") return `- ${code(r.path)} does not parse: line ${r.line}, column ${r.column}.`;
  if (r.kind === "refused") return `- ${code(r.path)}: cargo will refuse it: ${refusedText(r)}.`;
  const rule = ruleOf(r.rule);
  return `- ${code(r.path)}: ${lossText(r.loss!, rule)}; ${feature(rule)} is off after it.`;
}

/** The edit that restores a result's feature: its own, or the one another rule's shares with it. */
function editFor(r: ReviewResult, a: ReviewAnswer) {
  if (r.edit || !r.sharedWith) return r.edit ?? null;
  return a.results.find((q) => q.rule === r.sharedWith && q.path === r.path && q.reported)?.edit ?? null;
}

type Refused = NonNullable<ReviewResult["refused"]>[number];

/** The refused features of a result by the place they are written (file and line), in order. */
function byPlace(r: ReviewResult): Array<{ path: string; line: number; refused: Refused[] }> {
  const out: Array<{ path: string; line: number; refused: Refused[] }> = [];
  for (const x of r.refused ?? []) {
    if (x.line === null) continue;
    const at = out.find((p) => p.path === x.path && p.line === x.line);
    if (at) at.refused.push(x);
    else out.push({ path: x.path, line: x.line, refused: [x] });
  }
  return out;
}

/** A refused manifest's annotations: one on each line a refused feature is written on (the result's line when none is known). */
function refusedAnnotations(r: ReviewResult): Annotation[] {
  const edit = r.edit ? ` The edit: ${editText(r.edit, plain)}.` : "";
  const places = byPlace(r);
  if (places.length === 0) places.push({ path: r.path, line: r.line!, refused: r.refused ?? [] });
  return places.map((p) => ({
    path: p.path,
    start_line: p.line,
    end_line: p.line,
    annotation_level: "failure" as const,
    message: `cargo will refuse this manifest: ${refusedText({ ...r, path: p.path, refused: p.refused }, plain)}.${edit}`,
  }));
}

function annotation(r: ReviewResult, ruleId: string, a: ReviewAnswer): Annotation[] {
  const edit = r.kind === "regression" ? editFor(r, a) : null;
  if (edit) {
    const target = ruleOf(ruleId).target.feature;
    const message = `${target} is off after this change; ${editText(edit, plain)}.`;
    // One on each run of the edit's lines, as the review's suggestions are.
    return edit.suggestions.map((s) => ({
      path: edit.path,
      start_line: s.startLine,
      end_line: s.endLine,
      annotation_level: "warning" as const,
      message,
    }));
  }
  if (r.kind === "refused") return refusedAnnotations(r);
  if (r.kind === "invalid-toml") {
    const message = `Cargo.toml does not parse: ${r.message}`;
    return [{ path: r.path, start_line: r.line!, end_line: r.line!, annotation_level: "failure", message }];
  }
  return [];
}

/** One rule's check run output: a title, a Markdown summary and one annotation per problem line. */
export function checkOutput(a: ReviewAnswer, ruleId: string): CheckOutput {
  const rule = ruleOf(ruleId);
  const problems = a.results.filter((r) => isProblem(r) && concerns(ruleId, r));
  const unresolved = a.results.filter((r) => r.reported && r.kind === "unresolved" && r.rule === ruleId);
  const notes = (a.notices ?? []).map((n) => `\n\n> **Note:** ${n}`).join("");
  if (problems.length === 0 && unresolved.length > 0) {
    const list = unresolved.map((u) => `- ${code(u.member ?? u.path)}: ${u.because}`).join("\n");
    return {
      title: `${rule.target.feature} could not be checked`,
      summary: `I could not tell whether this PR turns ${feature(rule)} off:\n\n${list}${notes}`,
    };
  }
  if (problems.length === 0)
    return {
      title: `${rule.target.feature} unchanged`,
      summary: `No Cargo.toml change in this PR turns ${feature(rule)} off for ${rule.words.code}.${notes}`,
    };
  const edit = problems.some((p) => p.edit) ? " and the edit" : "";
  const manifests = new Set(problems.map((p) => p.path)).size;
  return {
    title: `${manifests} manifest${manifests > 1 ? "s" : ""} need${manifests > 1 ? "" : "s"} attention`,
    summary: `${problems.map(summaryLine).join("\n")}\n\nThe review on this pull request says why${edit}.${notes}`,
    annotations: problems.flatMap((r) => annotation(r, ruleId, a)),
  };
}
