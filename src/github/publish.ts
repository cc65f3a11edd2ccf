// The one publisher of the bot's comment on a conversation and the issue's label: the webhook
// handler, its retries, `/explain-panic`, the Action and `scan --apply` all call `converge`.
// It observes (reads), lets `publish-plan.ts` decide, then writes the steps. What may write is a
// type: a report is planned with `GitHubReads`, which has no method that writes, so a read-only
// run cannot delete or post anything, whatever path it takes.
import {
  type Decision,
  type Desired,
  decide,
  type LabelHistory,
  labelHistoryOf,
  type Observed,
} from "../answer/publish-plan.js";
import { ISSUE_MARKER_PREFIX, markedUpdatedAt } from "../render/issue.js";
import { type Comment, type Find, findMarked, REMEMBER_ABOVE_COMMENTS, rememberedIn } from "./comments.js";
import type { Coordination } from "./coordination.js";
import type { Identity } from "./identity.js";
import { transient } from "./retry.js";
import { listPages, type Octokit, type RepoRef } from "./types.js";

export type Where = RepoRef & { issue_number: number };

/** An issue's label history longer than this many pages of events is `unknown`: no label then. */
export const MAX_EVENT_PAGES = 3;

/** What a plan may ask of GitHub: reads only. */
export interface GitHubReads {
  marked(where: Where, marker: string, find?: Find): Promise<Comment[]>;
  labelHistory(where: Where, label: string): Promise<LabelHistory>;
}

/** What a publisher may do besides: the four writes of a conversation. */
export interface GitHubWrites extends GitHubReads {
  createComment(where: Where, body: string): Promise<number>;
  updateComment(where: Where, id: number, body: string): Promise<void>;
  deleteComment(where: Where, id: number): Promise<void>;
  addLabel(where: Where, name: string): Promise<void>;
}

export function readsOf(octokit: Octokit, who: Identity): GitHubReads {
  return {
    marked: (where, marker, find) => findMarked(octokit, who, where, marker, find),
    labelHistory: async (where, label) => {
      const events: Array<{ event?: string; label?: { name?: string } | null }> = [];
      const pages = octokit.paginate.iterator(octokit.rest.issues.listEvents, { ...where, per_page: 100 });
      let read = 0;
      for await (const page of listPages<(typeof events)[number]>(pages, "issue events")) {
        if (++read > MAX_EVENT_PAGES) return "unknown";
        events.push(...page);
      }
      return labelHistoryOf(events, label);
    },
  };
}

export function writesOf(octokit: Octokit, who: Identity): GitHubWrites {
  const at = (w: Where) => ({ owner: w.owner, repo: w.repo });
  return {
    ...readsOf(octokit, who),
    // Octokit's own retry is off for a create: a retried POST after a lost answer posts twice.
    createComment: async (where, body) =>
      (await octokit.rest.issues.createComment({ ...where, body, request: { retries: 0 } })).data.id,
    updateComment: async (where, id, body) => {
      await octokit.rest.issues.updateComment({ ...at(where), comment_id: id, body });
    },
    deleteComment: async (where, id) => {
      await octokit.rest.issues.deleteComment({ ...at(where), comment_id: id });
    },
    addLabel: async (where, name) => {
      await octokit.rest.issues.addLabels({ ...where, labels: [name] });
    },
  };
}

export interface Target {
  where: Where;
  marker: string;
  /** The conversation's `updated_at` the answer is for (null: no staleness check). */
  updatedAt: string | null;
  find?: Find;
  /** Compare answers without their markers: a scan, which reads the issue as it is now. */
  answersOnly?: boolean;
}

/** An issue's comment: found by its remembered id first on an issue of many comments. */
export function issueTarget(
  cache: Parameters<typeof rememberedIn>[0],
  where: Where,
  updatedAt: string | null | undefined,
  comments: number | undefined,
): Target {
  const long = (comments ?? 0) > REMEMBER_ABOVE_COMMENTS;
  return {
    where,
    marker: ISSUE_MARKER_PREFIX,
    updatedAt: updatedAt ?? null,
    find: long ? { memo: rememberedIn(cache, where, ISSUE_MARKER_PREFIX) } : {},
  };
}

/** What GitHub shows of the conversation, and the decision on it: everything but the writes. */
export async function plan(gh: GitHubReads, t: Target, desired: Desired): Promise<Decision> {
  const mine = await gh.marked(t.where, t.marker, t.find);
  const observed: Observed = {
    mine: mine.map((c) => ({ id: c.id, body: c.body ?? "", answeredAt: markedUpdatedAt(c.body) })),
    updatedAt: t.updatedAt,
    answersOnly: t.answersOnly,
  };
  const first = decide(observed, desired);
  if (!first.needsLabelHistory || desired.kind !== "answer" || !desired.label) return first;
  return decide({ ...observed, labelHistory: await gh.labelHistory(t.where, desired.label) }, desired);
}

/** `converge` under the conversation's lock (shared by replicas when the store is Redis). */
export function convergeLocked(
  coordination: Pick<Coordination, "lock">,
  gh: GitHubWrites,
  t: Target,
  desired: Desired,
): Promise<Decision> {
  return coordination.lock(`${t.where.owner}/${t.where.repo}#${t.where.issue_number}`, () => converge(gh, t, desired));
}

/** Plans, then writes the plan's steps. */
export async function converge(gh: GitHubWrites, t: Target, desired: Desired): Promise<Decision> {
  const decision = await plan(gh, t, desired);
  for (const step of decision.steps) {
    if (step.op === "create") {
      const created = await createOnce(gh, t, step.body);
      if (created.op === "updated") return converge(gh, t, desired);
    } else if (step.op === "update") await gh.updateComment(t.where, step.id, step.body);
    else if (step.op === "delete") await gh.deleteComment(t.where, step.id);
    else await gh.addLabel(t.where, step.name);
  }
  return decision;
}

/**
 * A create that failed in a way that passes may have been stored before the error (a 502 after
 * the write): the conversation is read again, and the stored comment counts as created.
 */
async function createOnce(gh: GitHubWrites, t: Target, body: string): Promise<{ op: "created" | "updated" }> {
  // Created first, then remembered: `memo?.remember(await create())` would skip the create
  // when there is no memo (optional chaining does not evaluate the arguments).
  const create = async () => {
    const id = await gh.createComment(t.where, body);
    await t.find?.memo?.remember(id);
  };
  try {
    await create();
    return { op: "created" };
  } catch (e) {
    if (!transient(e)) throw e;
    const [stored] = await gh.marked(t.where, t.marker, t.find);
    if (stored?.body === body) return { op: "created" };
    // Stored with another body (a concurrent writer): plan again from what is there.
    if (stored) return { op: "updated" };
    await create();
    return { op: "created" };
  }
}
