import type { Loss, Regression, UnresolvedWhy } from "../review/manifest.js";
import {
  decidePullRequest,
  type NeedsGradients,
  type PrSnapshot,
  type Problem,
  type ReviewDecision,
  type ReviewState,
  type Unresolved,
} from "../review/pull-request.js";
import { assumptionText, diffBody } from "./manifest.js";
import { andList, code, fence, text, withMarker } from "./escape.js";
import { repoPermalink } from "../links.js";
import { why } from "./why.js";

/** What identifies the bot's review whatever state its marker carries. */
export const REVIEW_MARKER = "<!-- burn-triage:review";
export const CHECK_NAME = "burn-triage / autodiff";

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

export function reviewMarker(sha: string, state: ReviewState): string {
  return `${REVIEW_MARKER} ${JSON.stringify({ sha: /^[0-9a-f]{40}$/.test(sha) ? sha : null, state })} -->`;
}

/** The state an earlier review's marker records; a marker without data is an open review. */
export function markedReviewState(body: string | null | undefined): { sha: string | null; state: ReviewState } | null {
  if (!body?.startsWith(REVIEW_MARKER)) return null;
  const m = /^<!-- burn-triage:review (\{[^\n]*?\}) -->/.exec(body);
  if (!m) return { sha: null, state: "open" };
  try {
    const data = JSON.parse(m[1]!) as { sha?: unknown; state?: unknown };
    const state = data.state === "fixed" || data.state === "superseded" ? data.state : "open";
    return { sha: typeof data.sha === "string" ? data.sha : null, state };
  } catch {
    return { sha: null, state: "open" };
  }
}

/** "sets `default-features = false` …", from what the PR changed. */
export function lossText(l: Loss): string {
  const parts: string[] = [];
  if (l.removed.length > 0) parts.push(`removes ${andList(l.removed)} from ${code(l.dependency)}'s features`);
  if (l.defaultsOff) {
    const dropped =
      l.defaultsOff.length > 0
        ? `, which drops ${andList(l.defaultsOff)} from burn's default set (${l.defaultsOff.length > 1 ? "they" : "it"} brought autodiff)`
        : "";
    parts.push(`sets ${code("default-features = false")} on ${code(l.dependency)}${dropped}`);
  }
  if (l.moved)
    parts.push(
      `moves ${code(l.dependency)} from ${code(l.moved.from)} to ${code(l.moved.to)}${l.moved.defaultsLost ? `, whose default features no longer bring autodiff` : ""}`,
    );
  return parts.length > 0 ? `This change ${parts.join(" and ")}` : "This change";
}

function evidenceText(c: NeedsGradients, repo: Repo, headSha: string): string {
  if (!c.evidence) return `${code(c.manifest)} (I did not read its sources; assumed to train)`;
  const where = `${c.evidence.path}:${c.evidence.line}`;
  const url = repoPermalink(repo.owner, repo.repo, headSha, c.evidence.path, c.evidence.line);
  return `${url ? `[${code(where)}](${url})` : code(where)} uses ${code(c.evidence.what)}`;
}

function needsText(p: Extract<Problem, { crates: NeedsGradients[] }>, repo: Repo, headSha: string): string {
  return `${p.crates.map((c) => evidenceText(c, repo, headSha)).join("; ")}, so ${p.crates.length > 1 ? "these crates need" : "that crate needs"} gradients`;
}

export function suggestionComment(
  p: Regression & { crates: NeedsGradients[] },
  repo: Repo,
  headSha: string,
): ReviewComment {
  const s = p.plan.change.suggestion;
  const body = [
    `${lossText(p.loss)}: ${code("burn-dispatch/autodiff")} is off after it, and ${needsText(p, repo, headSha)}. ${why(p.plan.diagnosis)}`,
    "",
    fence(s.lines.join("\n"), "suggestion"),
  ].join("\n");
  return s.startLine === s.endLine
    ? { path: p.path, line: s.endLine, side: "RIGHT", body }
    : { path: p.path, line: s.endLine, start_line: s.startLine, side: "RIGHT", start_side: "RIGHT", body };
}

function reaches(p: Extract<Problem, { crates: NeedsGradients[] }>): string {
  if (!p.member) return "";
  const members = p.crates.map((c) => code(c.manifest));
  return ` for ${andList(p.crates.map((c) => c.manifest))}, which inherit${members.length > 1 ? "" : "s"} ${code(p.loss.dependency)} from this workspace`;
}

export function renderReviewBody(
  problems: Problem[],
  o: { headSha: string; repo: Repo; notices: string[]; lineComments: number },
): string {
  const lines = [`### This PR turns off \`autodiff\` for code that trains`, ""];
  let verified: string | null = null;
  for (const p of problems) {
    if (p.kind === "invalid-toml") {
      lines.push(`- ${code(p.path)} does not parse: line ${p.line}, column ${p.column}: ${text(p.message)}.`);
      continue;
    }
    lines.push(
      `- ${code(p.path)}: ${lossText(p.loss)}; ${code("burn-dispatch/autodiff")} was on before it and is off after it${reaches(p)}. ${needsText(p, o.repo, o.headSha)}.`,
    );
    if (p.kind === "regression-unfixable") lines.push(`  ${why(p.after)} I found no verified fix: ${text(p.reason)}.`);
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
  for (const n of o.notices) lines.push("", `> **Note:** ${n}`);
  const commit =
    o.lineComments > 0
      ? ` "Commit suggestion" on the line comment${o.lineComments > 1 ? "s" : ""} restores autodiff.`
      : "";
  const check = verified ? ` Each fix was verified on burn ${code(verified)}'s feature graph.` : "";
  lines.push("", `<sub>Checked at ${code(o.headSha.slice(0, 12))}.${commit}${check}</sub>`);
  return withMarker(reviewMarker(o.headSha, "open"), `${lines.join("\n")}\n`);
}

export function renderReviewState(headSha: string, state: "fixed" | "superseded"): string {
  const body =
    state === "fixed"
      ? `✅ Fixed at ${code(headSha.slice(0, 12))}: ${code("burn-dispatch/autodiff")} is on again. This earlier review no longer applies.`
      : `Superseded by a newer review at ${code(headSha.slice(0, 12))}.`;
  return `${reviewMarker(headSha, state)}\n${body}\n`;
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

/** The check run's output: a title, a Markdown summary and one annotation per problem line. */
export function checkOutput(problems: Problem[], unresolved: Unresolved[], notices: string[]): CheckOutput {
  const notes = notices.map((n) => `\n\n> **Note:** ${n}`).join("");
  if (problems.length === 0 && unresolved.length > 0) {
    const list = unresolved.map((u) => `- ${code(u.member ?? u.path)}: ${unresolvedText(u.why)}`).join("\n");
    return {
      title: "autodiff could not be checked",
      summary: `I could not tell whether this PR turns \`burn-dispatch/autodiff\` off:\n\n${list}${notes}`,
    };
  }
  if (problems.length === 0)
    return {
      title: "autodiff unchanged",
      summary: `No Cargo.toml change in this PR turns \`burn-dispatch/autodiff\` off for a crate that trains.${notes}`,
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
          message: `autodiff is off after this change; add ${r.plan.change.added.map((a) => JSON.stringify(a)).join(", ")} to ${JSON.stringify(r.plan.change.dependency)}'s features.`,
        },
      ];
    }
    if (r.kind === "invalid-toml")
      return [
        {
          path: r.path,
          start_line: r.line,
          end_line: r.line,
          annotation_level: "failure",
          message: `Cargo.toml does not parse: ${r.message}`,
        },
      ];
    return [];
  });
  return {
    title: `${problems.length} manifest${problems.length > 1 ? "s" : ""} need attention`,
    summary: `See the review on this pull request.${notes}`,
    annotations,
  };
}

/** The writes a decision names, worded. */
export interface PrActions {
  review: { body: string; comments: ReviewComment[] } | null;
  updateReview: { id: number; body: string } | null;
  check: { existingId: number | null; conclusion: "success" | "neutral" | "failure"; output: CheckOutput } | null;
  /** Why nothing was said, for the log. */
  silent: string | null;
}

export function renderPrActions(d: ReviewDecision, s: Pick<PrSnapshot, "repo" | "headSha" | "notices">): PrActions {
  const comments = d.suggestions.map((p) => suggestionComment(p, s.repo, s.headSha));
  return {
    silent: d.silent,
    check: d.check && { ...d.check, output: checkOutput(d.problems, d.unresolved, s.notices) },
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
    updateReview: d.previous && { id: d.previous.id, body: renderReviewState(s.headSha, d.previous.state) },
  };
}

/** Decide, then word: what the handler and the CLI publish for a snapshot. */
export function reviewPullRequest(s: PrSnapshot): PrActions {
  return renderPrActions(decidePullRequest(s), s);
}
