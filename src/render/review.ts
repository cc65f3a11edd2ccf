import type { Suggestion } from "../cargo/fix/change.js";
import { targetName } from "../cargo/resolve/resolve.js";
import type { Loss, Regression, UnresolvedWhy } from "../review/manifest.js";
import {
  type CheckDecision,
  decidePullRequest,
  isBroken,
  type NeedingCrate,
  type PreviousReview,
  type Problem,
  type PrSnapshot,
  type ReviewDecision,
  type ReviewState,
} from "../review/pull-request.js";
import { type ReviewRule, reviewRules } from "../review/rules.js";
import { repoPermalink } from "../util/links.js";
import { andList, code, fence, text, withMarker } from "./escape.js";
import { assumptionText, changeText, diffBody } from "./manifest.js";
import { why } from "./why.js";

/** What identifies the bot's review whatever state its marker carries. */
export const REVIEW_MARKER = "<!-- burn-triage:review";

/** A rule's check run is named after it: `burn-triage / autodiff`. */
export const checkName = (rule: { id: string }) => `burn-triage / ${rule.id}`;

/** The rule a review names (every id in the data resolves; an unknown one is a bug in the caller). */
function ruleOf(id: string): ReviewRule {
  const r = reviewRules().find((x) => x.id === id);
  if (!r) throw new Error(`no review rule ${id}`);
  return r;
}

const feature = (r: ReviewRule) => code(targetName(r.target));

export interface ReviewComment {
  path: string;
  line: number;
  start_line?: number;
  side: "RIGHT";
  start_side?: "RIGHT";
  body: string;
}

interface Repo {
  owner: string;
  repo: string;
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

/** "sets `default-features = false` …", from what the PR changed. */
export function lossText(l: Loss, rule: ReviewRule): string {
  const f = rule.target.feature;
  const parts: string[] = [];
  if (l.removed.length > 0) parts.push(`removes ${andList(l.removed)} from ${code(l.dependency)}'s features`);
  if (l.defaultsOff) {
    const dropped =
      l.defaultsOff.length > 0
        ? `, which drops ${andList(l.defaultsOff)} from burn's default set (${l.defaultsOff.length > 1 ? "they" : "it"} brought ${f})`
        : "";
    parts.push(`sets ${code("default-features = false")} on ${code(l.dependency)}${dropped}`);
  }
  if (l.moved)
    parts.push(
      `moves ${code(l.dependency)} from ${code(l.moved.from)} to ${code(l.moved.to)}${l.moved.defaultsLost ? `, whose default features no longer bring ${f}` : ""}`,
    );
  return parts.length > 0 ? `This change ${parts.join(" and ")}` : "This change";
}

function evidenceText(c: NeedingCrate, rule: ReviewRule, repo: Repo, headSha: string): string {
  if (!c.evidence) return `${code(c.manifest)} (I did not read its sources; ${rule.words.assumed})`;
  const where = `${c.evidence.path}:${c.evidence.line}`;
  const url = repoPermalink(repo.owner, repo.repo, headSha, c.evidence.path, c.evidence.line);
  return `${url ? `[${code(where)}](${url})` : code(where)} uses ${code(c.evidence.what)}`;
}

function needsText(p: Extract<Problem, { crates: NeedingCrate[] }>, repo: Repo, headSha: string): string {
  const rule = ruleOf(p.rule);
  return `${p.crates.map((c) => evidenceText(c, rule, repo, headSha)).join("; ")}, so ${p.crates.length > 1 ? "these crates need" : "that crate needs"} ${rule.words.needs}`;
}

/** The line comment of a fix; `shared` are the problems whose features the same edit restores. */
export function suggestionComment(
  p: Regression & { crates: NeedingCrate[] },
  repo: Repo,
  headSha: string,
  shared: Array<Extract<Problem, { crates: NeedingCrate[] }>> = [],
): ReviewComment {
  const s = p.plan.change.suggestion;
  const rule = ruleOf(p.rule);
  const also = shared.map((q) => ` It also restores ${feature(ruleOf(q.rule))}: ${needsText(q, repo, headSha)}.`);
  const text = `${lossText(p.loss, rule)}: ${feature(rule)} is off after it, and ${needsText(p, repo, headSha)}. ${why(p.plan.diagnosis)}${also.join("")}`;
  return suggestionOn(p.path, s, text);
}

/** A line comment that says `text` above a suggestion replacing the lines of `s`. */
function suggestionOn(path: string, s: Suggestion, text: string): ReviewComment {
  const body = [text, "", fence(s.lines.join("\n"), "suggestion")].join("\n");
  return s.startLine === s.endLine
    ? { path, line: s.endLine, side: "RIGHT", body }
    : { path, line: s.endLine, start_line: s.startLine, side: "RIGHT", start_side: "RIGHT", body };
}

/** The edit past cargo's refusal, said once for the body and the line comment. */
function refusalEditText(p: Extract<Problem, { kind: "refused" }>): string {
  return `${capitalized(changeText(p.plan!.change))}: verified on burn ${code(p.diagnosis.graphVersion ?? "?")}'s feature graph.`;
}

/** The edit past cargo's refusal, as a suggestion on the lines it changes. */
function refusalSuggestion(p: Extract<Problem, { kind: "refused" }>): ReviewComment {
  return suggestionOn(p.path, p.plan!.change.suggestion, `${why(p.diagnosis)} ${refusalEditText(p)}`);
}

function reaches(p: Extract<Problem, { crates: NeedingCrate[] }>): string {
  if (!p.member) return "";
  const members = p.crates.map((c) => code(c.manifest));
  return ` for ${andList(p.crates.map((c) => c.manifest))}, which inherit${members.length > 1 ? "" : "s"} ${code(p.loss.dependency)} from this workspace`;
}

/** The problems of a review, under one heading per rule, in the rules' order (parse errors first). */
export function renderReviewBody(
  problems: Problem[],
  o: { headSha: string; repo: Repo; notices: string[]; lineComments: number },
): string {
  const lines: string[] = [];
  let verified: string | null = null;
  const invalid = problems.filter((p) => p.kind === "invalid-toml");
  if (invalid.length > 0) lines.push("### A Cargo.toml in this PR does not parse", "");
  for (const p of invalid)
    lines.push(`- ${code(p.path)} does not parse: line ${p.line}, column ${p.column}: ${text(p.message)}.`);
  const refused = problems.filter((p) => p.kind === "refused");
  if (refused.length > 0)
    lines.push(`${lines.length > 0 ? "\n" : ""}### cargo will refuse a Cargo.toml of this PR`, "");
  for (const p of refused) {
    lines.push(`- ${code(p.path)}: ${why(p.diagnosis)}`);
    if (p.plan) lines.push("", fence(diffBody(p.plan.change.diff), "diff"), "", refusalEditText(p));
  }
  const spoken = reviewRules().filter((r) => problems.some((p) => !isBroken(p) && p.rule === r.id));
  for (const rule of spoken) {
    if (lines.length > 0) lines.push("");
    lines.push(`### This PR turns off ${code(rule.target.feature)} for ${rule.words.code}`, "");
    for (const p of problems) {
      if (isBroken(p) || p.rule !== rule.id) continue;
      lines.push(
        `- ${code(p.path)}: ${lossText(p.loss, rule)}; ${feature(rule)} was on before it and is off after it${reaches(p)}. ${needsText(p, o.repo, o.headSha)}.`,
      );
      if (p.kind === "regression-unfixable")
        lines.push(`  ${why(p.after)} I found no verified fix: ${text(p.reason)}.`);
      else if (p.sharedWith)
        lines.push(`  The fix for ${feature(ruleOf(p.sharedWith))} edits the same lines and restores this too.`);
      else {
        verified ??= p.plan.diagnosis.graphVersion;
        if (!p.inDiff)
          lines.push(
            "",
            "  The fix touches lines outside this PR's diff, so here it is as a diff:",
            "",
            fence(diffBody(p.plan.change.diff), "diff"),
          );
      }
    }
  }
  for (const n of o.notices) lines.push("", `> **Note:** ${n}`);
  const restored = spoken.map((r) => r.target.feature).join(" and ");
  const commit =
    o.lineComments > 0
      ? ` "Commit suggestion" on the line comment${o.lineComments > 1 ? "s" : ""} restores ${restored}.`
      : "";
  const check = verified ? ` Each fix was verified on burn ${code(verified)}'s feature graph.` : "";
  lines.push("", `<sub>Checked at ${code(o.headSha.slice(0, 12))}.${commit}${check}</sub>`);
  const marker = reviewMarker(
    o.headSha,
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

/** Why a change could not be judged, in words. */
export function unresolvedText(why: UnresolvedWhy): string {
  return why.kind === "too-large"
    ? "the feature graph at the head is larger than the bot walks for one event"
    : assumptionText(why.assumption);
}

/** One rule's check run output: a title, a Markdown summary and one annotation per problem line. */
export function checkOutput(
  c: Pick<CheckDecision, "rule" | "problems" | "unresolved">,
  notices: string[],
): CheckOutput {
  const rule = ruleOf(c.rule);
  const { problems, unresolved } = c;
  const notes = notices.map((n) => `\n\n> **Note:** ${n}`).join("");
  if (problems.length === 0 && unresolved.length > 0) {
    const list = unresolved.map((u) => `- ${code(u.member ?? u.path)}: ${unresolvedText(u.why)}`).join("\n");
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
  const annotations = problems.flatMap((r): Annotation[] => {
    if (r.kind === "regression") {
      const s = r.plan.change.suggestion;
      return [
        {
          path: r.path,
          start_line: s.startLine,
          end_line: s.endLine,
          annotation_level: "warning",
          message: `${rule.target.feature} is off after this change; ${changeText(r.plan.change, JSON.stringify)}.`,
        },
      ];
    }
    // A manifest cargo stops at: a failure on its line.
    if (isBroken(r)) {
      const message =
        r.kind === "refused" ? why(r.diagnosis).replace(/`/g, "") : `Cargo.toml does not parse: ${r.message}`;
      return [{ path: r.path, start_line: r.line, end_line: r.line, annotation_level: "failure", message }];
    }
    return [];
  });
  return {
    title: `${problems.length} manifest${problems.length > 1 ? "s" : ""} need attention`,
    summary: `See the review on this pull request.${notes}`,
    annotations,
  };
}

export interface CheckRunAction {
  name: string;
  existingId: number | null;
  conclusion: "success" | "neutral" | "failure";
  output: CheckOutput;
}

/** The writes a decision names, worded. */
export interface PrActions {
  review: { body: string; comments: ReviewComment[] } | null;
  updateReview: { id: number; body: string } | null;
  checks: CheckRunAction[];
  /** Why nothing was said, for the log. */
  silent: string | null;
}

export function renderPrActions(d: ReviewDecision, s: Pick<PrSnapshot, "repo" | "headSha" | "notices">): PrActions {
  const sharing = (p: Regression) =>
    d.problems.filter(
      (q): q is Extract<Problem, { crates: NeedingCrate[] }> =>
        q.kind === "regression" && q.sharedWith === p.rule && q.path === p.path,
    );
  const comments = [
    ...d.suggestions.map((p) => suggestionComment(p, s.repo, s.headSha, sharing(p))),
    ...d.refusalSuggestions.map(refusalSuggestion),
  ];
  return {
    silent: d.silent,
    checks: d.checks.map((c) => ({
      name: checkName({ id: c.rule }),
      existingId: c.existingId,
      conclusion: c.conclusion,
      output: checkOutput(c, s.notices),
    })),
    review: d.review
      ? {
          body: renderReviewBody(d.problems, {
            headSha: s.headSha,
            repo: s.repo,
            notices: s.notices,
            lineComments: comments.length,
          }),
          comments,
        }
      : null,
    updateReview: d.previous && {
      id: d.previous.id,
      body: renderReviewState(s.headSha, d.previous.state, d.previous.rules),
    },
  };
}

/** Decide, then word: what the handler and the CLI publish for a snapshot. */
export function reviewPullRequest(s: PrSnapshot): PrActions {
  return renderPrActions(decidePullRequest(s), s);
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
