// What the bot's one comment on a conversation (and the label) must become, decided from
// what GitHub shows now and the answer wanted. The same function decides for a webhook delivery,
// its retry, `/explain-panic`, the Action and `scan --apply`, from any starting state: so a retry,
// a rerun or a run after a kill ends where one clean run ends, and nothing is written twice.

/** One of the bot's own comments carrying the conversation's marker. */
export interface OwnComment {
  id: number;
  body: string;
  /** The conversation's `updated_at` its marker records (null: none recorded). */
  answeredAt: string | null;
}

export type Desired =
  /** `label`: the label the answer wants that the issue does not carry now (null: none owed). */
  | { kind: "answer"; body: string; label: string | null }
  /** The text no longer shows what was answered: replace the advice, where there is any. */
  | { kind: "retract"; body: string };

/**
 * The history of one label, read only when it decides something: `removed` means a person
 * took it off after it was added (their decision stands), `unknown` that the history was longer
 * than the read cap (then no label: a silence, never a label put back against someone's will).
 */
export type LabelHistory = "never" | "added" | "removed" | "unknown";

export interface Observed {
  /** The bot's marked comments, oldest first. */
  mine: OwnComment[];
  /** The conversation's `updated_at` this answer is for; null where none applies (a command reply). */
  updatedAt: string | null;
  labelHistory?: LabelHistory;
  /** Compare answers without their markers (a scan); a delivery compares whole bodies. */
  answersOnly?: boolean;
}

export type Step =
  | { op: "create"; body: string }
  | { op: "update"; id: number; body: string }
  | { op: "delete"; id: number }
  | { op: "label"; name: string };

export type Outcome = "created" | "updated" | "unchanged" | "retracted" | "stale" | "none";

export interface Decision {
  outcome: Outcome;
  /** In order: the comment, then the label, then duplicates of the comment removed. */
  steps: Step[];
  /** The label decision waits for the label history (`Observed.labelHistory`). */
  needsLabelHistory: boolean;
}

/** The comment answers a later version of the conversation than this run saw. */
export function isStale(comment: OwnComment | undefined, updatedAt: string | null): boolean {
  if (!comment?.answeredAt || !updatedAt) return false;
  return Date.parse(updatedAt) < Date.parse(comment.answeredAt);
}

/** A comment's answer: everything after its marker line (which records the `updated_at` it answered). */
export function answerOf(body: string): string {
  return body.slice(body.indexOf("\n") + 1);
}

export function decide(observed: Observed, desired: Desired): Decision {
  // A delivery moves the marker to its version even when the answer is unchanged: a delayed
  // delivery of an older version, with another answer, must then find itself stale. A scan reads
  // the issue as it is now and compares answers only: the bot's own writes move `updated_at`, and
  // rewriting every marker for them would never end.
  const same = (a: string, b: string) => (observed.answersOnly ? answerOf(a) === answerOf(b) : a === b);
  const [kept, ...extra] = observed.mine;
  // Two replicas racing without a shared lock may each have created one: the oldest stays.
  const deletes: Step[] = extra.map((c) => ({ op: "delete", id: c.id }));
  const done = (outcome: Outcome, steps: Step[], needsLabelHistory = false): Decision => ({
    outcome,
    steps: [...steps, ...deletes],
    needsLabelHistory,
  });
  if (isStale(kept, observed.updatedAt)) return done("stale", []);
  if (desired.kind === "retract") {
    if (!kept) return done("none", []);
    if (same(kept.body, desired.body)) return done("unchanged", []);
    return done("retracted", [{ op: "update", id: kept.id, body: desired.body }]);
  }
  const comment: Step[] = !kept
    ? [{ op: "create", body: desired.body }]
    : same(kept.body, desired.body)
      ? []
      : [{ op: "update", id: kept.id, body: desired.body }];
  const outcome: Outcome = !kept ? "created" : comment.length > 0 ? "updated" : "unchanged";
  if (!desired.label) return done(outcome, comment);
  // A new comment brings its label. An existing one owes it only if nobody ever added or removed
  // it: a run killed (or a label POST failed) between the comment and the label left it owed.
  if (!kept) return done(outcome, [...comment, { op: "label", name: desired.label }]);
  if (observed.labelHistory === undefined) return done(outcome, comment, true);
  const owed = observed.labelHistory === "never";
  return done(outcome, owed ? [...comment, { op: "label", name: desired.label }] : comment);
}

/** The last add or removal of `label` in an issue's events, oldest first. */
export function labelHistoryOf(
  events: Array<{ event?: string; label?: { name?: string } | null }>,
  label: string,
): Exclude<LabelHistory, "unknown"> {
  let last: LabelHistory = "never";
  for (const e of events) {
    if (e.label?.name !== label) continue;
    if (e.event === "labeled") last = "added";
    else if (e.event === "unlabeled") last = "removed";
  }
  return last as Exclude<LabelHistory, "unknown">;
}
