import type { Context } from "probot";
import type { Deps } from "./deps.js";

type Handler<C> = (context: C, deps: Deps) => Promise<void>;

/**
 * Every handler runs once per delivery id across replicas (when Redis is shared). A failure is
 * logged with the delivery's context, released so a redelivery may run, scheduled for a retry
 * when it may pass, and then propagated (Probot answers the delivery with an error).
 */
export function guarded<C extends Context>(name: string, handler: Handler<C>, deps: Deps): (context: C) => Promise<void> {
  return async (context) => {
    const coordination = await deps.coordination();
    if (!(await coordination.claimDelivery(context.id))) {
      context.log.info({ handler: name, delivery: context.id }, "delivery already taken by another replica");
      return;
    }
    try {
      await handler(context, deps);
    } catch (e) {
      const err = e as { status?: number; message?: string };
      await coordination.releaseDelivery(context.id);
      const retryInMs = await (await deps.redeliveries()).schedule({ id: context.id, name: context.name, payload: context.payload }, e);
      context.log.error({ handler: name, delivery: context.id, event: context.name, status: err.status, error: err.message, retry_in_s: retryInMs === null ? null : retryInMs / 1000 }, "handler failed");
      throw e;
    }
  };
}
