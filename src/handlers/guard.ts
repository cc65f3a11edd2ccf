import type { Context } from "probot";
import { retryRateLimits } from "../github/rate-limit.js";

type Handler<C> = (context: C) => Promise<void>;

/**
 * Every handler runs with secondary-rate-limit retries, and a failure is logged with the
 * delivery's context before it propagates (Probot then answers the delivery with an error).
 */
export function guarded<C extends Context>(name: string, handler: Handler<C>): Handler<C> {
  return async (context) => {
    retryRateLimits(context.octokit, context.log);
    try {
      await handler(context);
    } catch (e) {
      const err = e as { status?: number; message?: string };
      context.log.error({ handler: name, delivery: context.id, event: context.name, status: err.status, error: err.message }, "handler failed");
      throw e;
    }
  };
}
