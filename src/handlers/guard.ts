import type { Context } from "probot";
import type { Deps } from "../github/deps.js";
import { attemptOf, classify } from "../github/retry.js";
import type { Octokit } from "../github/types.js";

type Handler<C> = (context: C, deps: Deps) => Promise<void>;

export interface Guard<C> {
  /** False when the pure plan says the event needs nothing (decided from the payload alone). */
  relevant?: (context: C) => boolean | Promise<boolean>;
}

/**
 * Every handler runs once per delivery id across replicas (when Redis is shared). A failure is
 * logged with the delivery's context, released so a redelivery may run, scheduled for a retry
 * when it may pass, and then propagated (Probot answers the delivery with an error).
 */
export function guarded<C extends Context>(
  name: string,
  handler: Handler<C>,
  deps: Deps,
  opts: Guard<C> = {},
): (context: C) => Promise<void> {
  return async (context) => {
    // An event the core already knows it will not answer costs nothing: no claim, no handler.
    if (opts.relevant && !(await opts.relevant(context))) return;
    const coordination = await deps.coordination();
    if (!(await coordination.claimDelivery(context.id))) {
      context.log.info({ handler: name, delivery: context.id }, "delivery already taken by another replica");
      return;
    }
    try {
      // A retry runs minutes later: it answers the issue, PR or comment as it is now, not as the
      // failed delivery carried it (an edit may have removed the panic meanwhile).
      if (
        attemptOf(context.id) > 0 &&
        !(await freshen(context.octokit as unknown as Octokit, context.payload as Payload))
      ) {
        context.log.info(
          { handler: name, delivery: context.id },
          "retry skipped: what the delivery was about is gone or has moved on",
        );
        return;
      }
      await handler(context, deps);
      // The end of every attempt that did not fail: what a watcher (or a test) waits for.
      context.log.info({ handler: name, delivery: context.id }, "delivery done");
    } catch (e) {
      const err = e as { status?: number; message?: string };
      await coordination.releaseDelivery(context.id);
      const retryInMs = await (await deps.redeliveries()).schedule(
        { id: context.id, name: context.name, payload: context.payload },
        e,
      );
      const failure = classify(e);
      context.log.error(
        {
          handler: name,
          delivery: context.id,
          event: context.name,
          failure: failure.kind,
          status: err.status,
          error: err.message,
          ...(failure.kind === "bug" ? { stack: (e as Error).stack } : {}),
          retry_in_s: retryInMs === null ? null : retryInMs / 1000,
        },
        failure.kind === "bug" ? "handler failed: a bug, not retried" : "handler failed",
      );
      throw e;
    }
  };
}

interface Payload {
  repository?: { owner: { login: string }; name: string };
  issue?: { number: number };
  pull_request?: { number: number; head: { sha: string } };
  comment?: { id: number; body?: string };
}

/**
 * Replaces the payload's issue, comment or pull request with GitHub's current copy. False when
 * it is gone (404) or, for a pull request, when its head has moved (the newer push's delivery
 * answers that one).
 */
export async function freshen(octokit: Octokit, payload: Payload): Promise<boolean> {
  const repo = payload.repository;
  if (!repo) return true;
  const where = { owner: repo.owner.login, repo: repo.name };
  try {
    if (payload.comment) {
      const { data } = await octokit.rest.issues.getComment({ ...where, comment_id: payload.comment.id });
      payload.comment = { ...payload.comment, ...(data as object) };
    } else if (payload.pull_request) {
      const { data } = await octokit.rest.pulls.get({ ...where, pull_number: payload.pull_request.number });
      if ((data as { head: { sha: string } }).head.sha !== payload.pull_request.head.sha) return false;
      payload.pull_request = { ...payload.pull_request, ...(data as object) };
      return true;
    }
    if (payload.issue) {
      const { data } = await octokit.rest.issues.get({ ...where, issue_number: payload.issue.number });
      payload.issue = { ...payload.issue, ...(data as object) };
    }
    return true;
  } catch (e) {
    if ((e as { status?: number }).status === 404 || (e as { status?: number }).status === 410) return false;
    throw e;
  }
}
