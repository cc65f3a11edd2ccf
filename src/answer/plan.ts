// What to do with an issue event, decided from the event (and the repository's config) alone, as
// triagebot's `parse_input → Option<Input>`: the handler only gathers what the plan names and
// publishes. The CLI and `/explain-panic` call the same `triage` and `planIssue`.

import { detectCargoRefusal, mayHoldRefusal } from "../cargo/judge/cargo-error.js";
import { extractSnippets, shownText } from "../cargo/manifest/extract.js";
import { gatedFindings } from "../compile/analyze.js";
import { mayMentionGated } from "../compile/detect.js";
import { type AnswerKind, type Config, DEFAULTS, ignoredBy, labelFor } from "../config/config-defaults.js";
import { detect, mayHoldPanic } from "../panics/detect.js";
import { type Has, lookup, sharingLookups, textLookup } from "../panics/normalize.js";

/** What a text holds, before any API call. */
export interface Triage {
  /** A known panic, or a rustc error for a path some burn release gates. */
  answerable: boolean;
  /** Which answer: a panic from a feature left off, a rustc error, a panic from misuse. */
  kind: AnswerKind | null;
  /** The answer needs the reporter's manifest and burn's feature graph (not a misuse panic). */
  featureOff: boolean;
  /** The text pastes a manifest (or a fragment of one) itself. */
  hasManifest: boolean;
}

export function triage(text: string): Triage {
  return sharingLookups(text, () => triageShared(text));
}

function triageShared(text: string): Triage {
  const panics = detect(text);
  const compile = panics.length > 0 ? [] : gatedFindings(text);
  // cargo's refusal stops the build before rustc: answered as a build error, with the manifest.
  const refused = panics.length === 0 && compile.length === 0 && detectCargoRefusal(text) !== null;
  const answerable = panics.length > 0 || compile.length > 0 || refused;
  const featureOff = panics.some((f) => f.cause === "feature-off") || compile.length > 0 || refused;
  const kind = !answerable ? null : compile.length > 0 || refused ? "compile" : featureOff ? "feature-off" : "misuse";
  return {
    answerable,
    kind,
    featureOff,
    hasManifest: answerable && extractSnippets(text).some((s) => s.kind === "manifest"),
  };
}

/** What the issue shows: its title and body, without what GitHub does not display. */
export function issueText(title: string, body: string | null | undefined): string {
  return joined(title, shownText(body ?? ""));
}

const joined = (title: string, shown: string) => `${title}\n\n${shown}`;

/**
 * An issue's text and its triage; null when every detector's screen rules it out, asked of the
 * title and the body apart, so that the text most issues are (one that holds nothing to answer) is
 * never joined: the join copies the body.
 */
function triageIssue(title: string, body: string | null | undefined): { text: string; triage: Triage } | null {
  const shown = shownText(body ?? "");
  // A short body is joined first: the copy costs less than asking each literal of the title too,
  // and the detectors then reuse the joined text's answers.
  if (shown.length < JOIN_BELOW) {
    const text = joined(title, shown);
    return sharingLookups(text, () => (screensPass(textLookup(text)) ? { text, triage: triage(text) } : null));
  }
  const has = lookup([title, shown]);
  if (!screensPass(has)) return null;
  // The parts answer for the joined text: its detectors reuse what the screens asked.
  const text = joined(title, shown);
  return { text, triage: sharingLookups(text, () => triage(text), has) };
}

/** Whether any detector's screen lets the text through. */
const screensPass = (has: Has) => mayHoldPanic(has) || mayMentionGated(has) || mayHoldRefusal(has);

/** Characters: joining 4 KiB costs about what the screens' twenty lookups of a title do. */
const JOIN_BELOW = 4096;

/** The parts of an `issues.opened` / `issues.edited` payload a decision reads. */
export interface IssueEvent {
  action: "opened" | "edited";
  title: string;
  body: string | null;
  /** The body before an edit, when the edit changed it. */
  previousBody?: string | null;
  author: { login: string; type: string };
  locked: boolean;
  labels: string[];
  /** The event came from a bot account (Probot's `context.isBot`). */
  senderIsBot: boolean;
}

/** The shape of an `issues` webhook payload this reads (structural: the core imports no Probot type). */
export interface IssuesPayload {
  action: string;
  issue: {
    title: string;
    body?: string | null;
    locked?: boolean;
    user?: { login?: string; type?: string } | null;
    labels?: Array<string | { name?: string }>;
  };
  /** `edited` carries `{ body?: { from } }`; other actions carry other changes, never read. */
  changes?: object;
}

/** The decision's inputs, from the payload. */
export function issueEvent(payload: IssuesPayload, { senderIsBot }: { senderIsBot: boolean }): IssueEvent {
  const { issue } = payload;
  return {
    action: payload.action === "edited" ? "edited" : "opened",
    title: issue.title,
    body: issue.body ?? null,
    previousBody:
      payload.action === "edited"
        ? (payload.changes as { body?: { from?: string } } | undefined)?.body?.from
        : undefined,
    author: { login: issue.user?.login ?? "", type: issue.user?.type ?? "User" },
    locked: issue.locked ?? false,
    labels: (issue.labels ?? []).map((l) => (typeof l === "string" ? l : (l.name ?? ""))),
    senderIsBot,
  };
}

/**
 * Whether a delivery of `issues.opened` or `issues.edited` is ignored from its payload alone (no
 * config, no API call): the one answer the server's early reply (early-answer.ts) and the
 * handler's guard (index.ts) both ask. The sender is a bot as Probot's `context.isBot` says.
 */
export function ignoresIssueDelivery(payload: IssuesPayload & { sender?: { type?: string } | null }): boolean {
  return planIssue(issueEvent(payload, { senderIsBot: payload.sender?.type === "Bot" })).kind === "ignore";
}

export type IssuePlan =
  | { kind: "ignore"; reason: "bot" | "locked" | "nothing-to-answer" | "disabled" | "ignored-user" | "ignored-label" }
  /** The edit removed what was answered: replace the advice. */
  | { kind: "retract" }
  /** Answerable: the config decides the rest (read it, then plan again with it). */
  | { kind: "needs-config" }
  | {
      kind: "answer";
      text: string;
      featureOff: boolean;
      /** Read the repository's manifests: the answer needs one and the text has none. */
      readRepository: boolean;
      /** The label to add when the comment is created (null: none). */
      label: string | null;
    };

/** `config` undefined: not read yet; an event that needs it returns `needs-config`, costing nothing before. */
export function planIssue(event: IssueEvent, config?: Config): IssuePlan {
  if (event.senderIsBot || event.author.type === "Bot") return { kind: "ignore", reason: "bot" };
  if (event.locked) return { kind: "ignore", reason: "locked" };
  const issue = triageIssue(event.title, event.body);
  if (!issue?.triage.answerable) {
    const before = event.action === "edited" ? event.previousBody : undefined;
    if (before !== undefined && before !== null && triageIssue(event.title, before)?.triage.answerable)
      return { kind: "retract" };
    return { kind: "ignore", reason: "nothing-to-answer" };
  }
  const { text, triage: t } = issue;
  if (!config) return { kind: "needs-config" };
  if (!config.issues.enabled) return { kind: "ignore", reason: "disabled" };
  const ignored = ignoredBy(config, event.author.login, event.labels);
  if (ignored) return { kind: "ignore", reason: ignored };
  const wanted = labelFor(config, t.kind!);
  const label = wanted && !event.labels.includes(wanted) ? wanted : null;
  return {
    kind: "answer",
    text,
    featureOff: t.featureOff,
    readRepository: t.featureOff && !t.hasManifest && config.issues.fetch_manifests,
    label,
  };
}

/** A text planned as an issue a person opened, under the default config (the CLI, the command). */
export function planText(title: string, body: string): IssuePlan {
  return planIssue(
    {
      action: "opened",
      title,
      body,
      author: { login: "", type: "User" },
      locked: false,
      labels: [],
      senderIsBot: false,
    },
    DEFAULTS,
  );
}

/**
 * What `/explain-panic` answers: the command's own text when the plan would answer it, else the
 * issue's. The command's own gates (who may ask, cooldown) are the `commands` config's, checked
 * by its handler before this.
 */
export function commandText(
  own: string,
  issue: { title: string; body: string | null },
): { text: string; featureOff: boolean } {
  const mine = planText("", own);
  if (mine.kind === "answer") return { text: own, featureOff: mine.featureOff };
  const theirs = planText(issue.title, issue.body ?? "");
  return { text: issueText(issue.title, issue.body), featureOff: theirs.kind === "answer" && theirs.featureOff };
}
