// The PR review's words, from its answer object only (`answer/review-answer.ts`): a short body
// (one or two lines per manifest: what cargo or the rule objects to, and who needs the feature),
// the detail once, on the line with its suggestion (or under the bullet when the edit cannot be a
// suggestion), and the state notes of earlier reviews. The check runs are `review-check.ts`'s.
import { buildReviewAnswer, type ReviewWords } from "../answer/build-review-answer.js";
import type { ReviewAnswer, ReviewEdit, ReviewResult } from "../answer/review-answer.js";
import { targetName } from "../cargo/resolve/resolve.js";
import type { PreviousReview, PrSnapshot, ReviewState } from "../review/pull-request.js";
import { reviewRules } from "../review/rules.js";
import { andList, code, fence, text, withMarker } from "./escape.js";
import { diffBody, filesDiff } from "./manifest.js";
import { type CheckOutput, checkOutput } from "./review-check.js";
import {
  capitalized,
  editText,
  feature,
  lossText,
  needsText,
  problemsOf,
  refusedText,
  ruleOf,
  suggestedFiles,
  suggestedLinesText,
  suggestionCount,
  suggestionsText,
  unresolvedText,
} from "./review-words.js";
import { why } from "./why.js";

export { type CheckOutput, checkOutput } from "./review-check.js";
export { unresolvedText } from "./review-words.js";

/** What identifies the bot's review whatever state its marker carries. */
export const REVIEW_MARKER = "<!-- burn-triage:review";

/** A rule's check run is named after it: `burn-triage / autodiff`. */
export const checkName = (rule: { id: string }) => `burn-triage / ${rule.id}`;

/** The sentences the answer carries, in the review's words. */
export const REVIEW_WORDS: ReviewWords = {
  why: (d, change, at) => why(d, { ...(change ? { change } : {}), ...(at ? { manifest: at.manifest } : {}) }),
  unresolved: unresolvedText,
};

/** The answer object of a snapshot: what every review surface renders and `review --json` prints. */
export const reviewAnswer = (s: PrSnapshot): ReviewAnswer => buildReviewAnswer(s, REVIEW_WORDS);

export interface ReviewComment {
  path: string;
  line: number;
  start_line?: number;
  side: "RIGHT";
  start_side?: "RIGHT";
  body: string;
}

export function reviewMarker(sha: string, state: ReviewState, rules: string[]): string {
  const data = { sha: /^[0-9a-f]{40}$/.test(sha) ? sha : null, state, rules };
  return `${REVIEW_MARKER} ${JSON.stringify(data)} -->`;
}

/** What a marker records: a previous review without its id. */
type Marked = Omit<PreviousReview, "id">;

/** Reviews from before rules were data spoke for autodiff alone. */
const FIRST_RULES = ["autodiff"];

/** The state an earlier review's marker records; a marker without data is an open review. */
export function markedReviewState(body: string | null | undefined): Marked | null {
  if (!body?.startsWith(REVIEW_MARKER)) return null;
  const m = /^<!-- burn-triage:review (\{[^\n]*?\}) -->/.exec(body);
  const unknown = { sha: null, state: "open" as const, rules: FIRST_RULES };
  if (!m) return unknown;
  try {
    const data = JSON.parse(m[1]!) as { sha?: unknown; state?: unknown; rules?: unknown };
    const state = data.state === "fixed" || data.state === "superseded" ? data.state : "open";
    const known = new Set(reviewRules().map((r) => r.id));
    const rules = Array.isArray(data.rules) ? data.rules.filter((r): r is string => known.has(r)) : FIRST_RULES;
    return { sha: typeof data.sha === "string" ? data.sha : null, state, rules };
  } catch {
    return unknown;
  }
}

/** A result whose edit is a suggestion on its lines (the detail goes there, once). */
const onLine = (r: ReviewResult): r is ReviewResult & { edit: ReviewEdit } => !!r.edit && r.onLines === true;

type Suggestion = ReviewEdit["suggestion"];

/** A line comment that says `words` above a suggestion replacing lines `s` of `path`. */
function suggestionOn(path: string, s: Suggestion, words: string): ReviewComment {
  const body = [words, "", fence(s.lines.join("\n"), "suggestion")].join("\n");
  return s.startLine === s.endLine
    ? { path, line: s.endLine, side: "RIGHT", body }
    : { path, line: s.endLine, start_line: s.startLine, side: "RIGHT", start_side: "RIGHT", body };
}

const within = (line: number | null, s: Suggestion) => line !== null && line >= s.startLine && line <= s.endLine;

/**
 * The comments of one edit: a suggestion on each run of its lines (a feature renamed on two lines
 * is two suggestions, each on its own line). The first says why; each other names what cargo
 * refuses on its lines, and all say they are one edit, verified whole.
 */
function suggestionsOn(r: ReviewResult & { edit: ReviewEdit }, words: string): ReviewComment[] {
  const e = r.edit;
  // A two-file edit is suggested in each file the PR's diff shows; the rest is a diff in the body.
  const all = suggestedFiles(e).flatMap((f) => f.suggestions.map((s) => ({ path: f.path, s })));
  const [first, ...rest] = all;
  const unshown = unshownOf(e).map((o) => code(o.path));
  const body =
    unshown.length > 0
      ? ` Its change${unshown.length > 1 ? "s" : ""} to ${unshown.join(" and ")} ${unshown.length > 1 ? "are" : "is"} in the review's body.`
      : "";
  if (rest.length === 0) return [suggestionOn(first!.path, first!.s, `${words}${body}`)];
  const together = `This edit is ${all.length} suggestions, on ${suggestedLinesText(e)}: commit them together ("Add suggestion to batch"), as it was verified whole.${body}`;
  const head = suggestionOn(first!.path, first!.s, `${words}\n\n${together}`);
  const at =
    first!.s.startLine === first!.s.endLine
      ? `line ${first!.s.startLine}`
      : `lines ${first!.s.startLine}–${first!.s.endLine}`;
  const start = first!.path === e.path && !e.others?.some((o) => o.onLines) ? at : `${code(first!.path)} ${at}`;
  return [
    head,
    ...rest.map(({ path, s }) => {
      const here = (r.refused ?? []).filter((x) => x.path === path && within(x.line, s));
      const said = here.length > 0 ? `${capitalized(refusedText({ ...r, path, refused: here }))}. ` : "";
      return suggestionOn(
        path,
        s,
        `${said}Part of the edit in the comment on ${start} (${editText(e)}): commit it with that one.`,
      );
    }),
  ];
}

/**
 * The other files of a two-file edit the PR's diff does not show: GitHub takes a review comment
 * only on a line of the diff, so each is a diff in the body, to commit with the suggestions.
 */
const unshownOf = (e: ReviewEdit) => (e.others ?? []).filter((o) => !o.onLines);
const unshownNames = (e: ReviewEdit) =>
  unshownOf(e)
    .map((o) => code(o.path))
    .join(" and ");

function unshownBelow(e: ReviewEdit): string[] {
  const unshown = unshownOf(e);
  if (unshown.length === 0) return [];
  const names = unshownNames(e);
  return [
    "",
    `  The edit changes ${names} too, which this PR does not change: GitHub accepts suggestions only on lines of the PR's diff, so that part is here as a diff. Commit it with the suggestions: the edit was verified whole, every file together, and any part of it alone is still refused.`,
    ...unshown.flatMap((o) => ["", fence(filesDiff(o.diff), "diff")]),
  ];
}

/** The line comments of a result: why, then the edit as a suggestion on each run of its lines. */
export function lineComment(r: ReviewResult & { edit: ReviewEdit }, a: ReviewAnswer): ReviewComment[] {
  if (r.kind === "refused") return suggestionsOn(r, `${r.because} ${capitalized(editText(r.edit))}.`);
  const also = a.results
    .filter((q) => q.reported && q.sharedWith === r.rule && q.path === r.path)
    .map((q) => ` It also restores ${feature(ruleOf(q.rule))}.`);
  return suggestionsOn(r, `${r.because}${also.join("")}`);
}

export const lineComments = (a: ReviewAnswer): ReviewComment[] =>
  problemsOf(a)
    .filter(onLine)
    .flatMap((r) => lineComment(r, a));

/** The detail of a result that has no line to say it on, indented under its bullet. */
function detailBelow(r: ReviewResult): string[] {
  // An edit over several files keeps each file's header: which lines are whose is in the diff.
  const diff = r.edit
    ? ["", fence(r.edit.others?.length ? filesDiff(r.edit.diff) : diffBody(r.edit.diff), "diff")]
    : [];
  if (r.kind === "refused") {
    const none = r.noEdit ? ["", `  I found no verified edit past it: ${text(r.noEdit.replace(/`/g, ""))}.`] : [];
    return ["", `  ${r.because}`, ...(r.edit ? [...diff, "", `${capitalized(editText(r.edit))}.`] : none)];
  }
  if (r.kind === "regression-unfixable") return [`  ${r.because} I found no verified fix: ${text(r.noEdit ?? "")}.`];
  if (r.sharedWith)
    return [`  The fix for ${feature(ruleOf(r.sharedWith))} edits the same lines and restores this too.`];
  return [
    "",
    `  ${r.because}`,
    "",
    "  The fix touches lines outside this PR's diff, so here it is as a diff:",
    ...diff,
  ];
}

function reaches(r: ReviewResult): string {
  if (!r.member) return "";
  const crates = (r.crates ?? []).map((c) => c.manifest);
  return ` for ${andList(crates)}, which inherit${crates.length > 1 ? "" : "s"} ${code(r.loss!.dependency)} from this workspace`;
}

/** One bullet (and its detail when it has no line comment) per result, under one heading per kind or rule. */
function bodyLines(a: ReviewAnswer): string[] {
  const problems = problemsOf(a);
  const out: string[] = [];
  const section = (title: string) => out.push(...(out.length > 0 ? [""] : []), title, "");
  const invalid = problems.filter((p) => p.kind === "invalid-toml");
  if (invalid.length > 0) section("### A Cargo.toml in this PR does not parse");
  for (const p of invalid)
    out.push(`- ${code(p.path)} does not parse: line ${p.line}, column ${p.column}: ${text(p.message ?? "")}.`);
  const refused = problems.filter((p) => p.kind === "refused");
  if (refused.length > 0) section("### cargo will refuse a Cargo.toml of this PR");
  for (const p of refused) {
    const unshown = onLine(p) ? unshownNames(p.edit) : "";
    const past = !(p.edit && onLine(p))
      ? ""
      : unshown
        ? ` ${suggestionsText(p.edit, ["and", "and"]).replace(/ and$/, "")} and the change to ${unshown} below get past it together.`
        : ` ${suggestionsText(p.edit, ["gets", "get"])} past it.`;
    out.push(`- ${code(p.path)}: ${refusedText(p)}.${past}`, ...(onLine(p) ? unshownBelow(p.edit) : detailBelow(p)));
  }
  const said = new Set<string>();
  for (const rule of reviewRules()) {
    const mine = problems.filter((p) => p.rule === rule.id);
    if (mine.length > 0) section(`### This PR turns off ${code(rule.target.feature)} for ${rule.words.code}`);
    for (const p of mine) {
      const fix = onLine(p) ? ` ${suggestionsText(p.edit, ["restores", "restore"])} it.` : "";
      // The change on a manifest is said once; another rule's bullet says what it did to its feature.
      const again = said.has(p.path);
      said.add(p.path);
      out.push(
        `- ${code(p.path)}: ${lossText(p.loss!, rule, again)}; ${feature(rule)} was on before it and is off after it${reaches(p)}. ${needsText(p, a)}.${fix}`,
        ...(onLine(p) ? [] : detailBelow(p)),
      );
    }
  }
  return out;
}

/** The footer: where it was checked, what committing the suggestions does, where the edits were verified. */
function footer(a: ReviewAnswer): string {
  const shown = problemsOf(a).filter(onLine);
  const restored = [
    ...new Set(shown.filter((r) => r.kind !== "refused").flatMap((r) => [r.rule, ...sharers(a, r)])),
  ].map((id) => ruleOf(id).target.feature);
  const does = [
    // Plain words, as the footer is: `autodiff and std`.
    ...(restored.length > 0 ? [`restores ${restored.join(" and ")}`] : []),
    ...(shown.some((r) => r.kind === "refused") ? ["gets past cargo's refusal"] : []),
  ];
  const many = shown.reduce((n, r) => n + suggestionCount(r.edit), 0) > 1;
  // A two-file edit's part in a file the PR does not change is committed by hand, with the suggestions.
  const unshown = shown.map((r) => unshownNames(r.edit)).filter((n) => n !== "");
  const also = unshown.length > 0 ? `, with the change to ${unshown.join(" and ")} shown above,` : "";
  const commit =
    does.length > 0 ? ` "Commit suggestion" on the line comment${many ? "s" : ""}${also} ${does.join(" and ")}.` : "";
  const releases = [...new Set(problemsOf(a).flatMap((r) => (r.edit?.verifiedOn ? [r.edit.verifiedOn] : [])))];
  const verified =
    releases.length > 0
      ? ` ${problemsOf(a).filter((r) => r.edit).length > 1 ? "Each edit was" : "The edit was"} verified on burn ${andList(releases)}'s feature graph.`
      : "";
  // The command line reviews files, not a commit: no commit to name there.
  const at = /^[0-9a-f]{7,40}$/.test(a.headSha) ? `Checked at ${code(a.headSha.slice(0, 12))}.` : "";
  const said = `${at}${commit}${verified}`.trim();
  return said ? `<sub>${said}</sub>` : "";
}

const sharers = (a: ReviewAnswer, r: ReviewResult) =>
  a.results.filter((q) => q.reported && q.sharedWith === r.rule && q.path === r.path).map((q) => q.rule);

/** The review's body: the problems under their headings, the notices, the footer and the marker. */
export function renderReviewBody(a: ReviewAnswer): string {
  const lines = bodyLines(a);
  for (const n of a.notices ?? []) lines.push("", `> **Note:** ${n}`);
  const end = footer(a);
  if (end) lines.push("", end);
  const spoken = reviewRules().filter((r) => problemsOf(a).some((p) => p.rule === r.id));
  const marker = reviewMarker(
    a.headSha,
    "open",
    spoken.map((r) => r.id),
  );
  return withMarker(marker, `${lines.join("\n")}\n`);
}
export function renderReviewState(headSha: string, state: "fixed" | "superseded", ruleIds: string[]): string {
  const rules = ruleIds.map(ruleOf);
  const on =
    rules.length > 0
      ? `${andList(rules.map((r) => targetName(r.target)))} ${rules.length > 1 ? "are" : "is"} on again`
      : "what it named is fixed";
  const body =
    state === "fixed"
      ? `✅ Fixed at ${code(headSha.slice(0, 12))}: ${on}. This earlier review no longer applies.`
      : `Superseded by a newer review at ${code(headSha.slice(0, 12))}.`;
  return `${reviewMarker(headSha, state, ruleIds)}\n${body}\n`;
}

export interface CheckRunAction {
  name: string;
  existingId: number | null;
  conclusion: "success" | "neutral" | "failure";
  output: CheckOutput;
}

/** The writes an answer names, worded. */
export interface PrActions {
  review: { body: string; comments: ReviewComment[] } | null;
  updateReview: { id: number; body: string } | null;
  checks: CheckRunAction[];
  /** Why nothing was said, for the log. */
  silent: string | null;
}

export function renderPrActions(a: ReviewAnswer): PrActions {
  return {
    silent: a.silent,
    checks: a.checks.map((c) => ({
      name: checkName({ id: c.rule }),
      existingId: c.existingId,
      conclusion: c.conclusion,
      output: checkOutput(a, c.rule),
    })),
    review: a.review ? { body: renderReviewBody(a), comments: lineComments(a) } : null,
    updateReview: a.previous
      ? { id: a.previous.id, body: renderReviewState(a.headSha, a.previous.state, a.previous.rules) }
      : null,
  };
}

/** Decide, then word: what the handler and the CLI publish for a snapshot. */
export function reviewPullRequest(s: PrSnapshot): PrActions {
  return renderPrActions(reviewAnswer(s));
}
