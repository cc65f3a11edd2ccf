import type { Context, Probot } from "probot";
import { type Coordination, coordinationFromEnv } from "./github/coordination.js";
import type { Deps } from "./github/deps.js";
import { identityResolver } from "./github/identity.js";
import { Redeliveries } from "./github/retry.js";
import { guarded } from "./handlers/guard.js";

/**
 * A handler whose module loads on its first event: the server answers /ping without the
 * analysis code, the Markdown parser or the data, and each event kind pays only for its own.
 */
function lazy<C extends Context>(load: () => Promise<(context: C, deps: Deps) => Promise<void>>) {
  let handler: Promise<(context: C, deps: Deps) => Promise<void>> | undefined;
  return async (context: C, deps: Deps) => {
    handler ??= load();
    return (await handler)(context, deps);
  };
}

export default (app: Probot): void => {
  let coordination: Promise<Coordination> | undefined;
  let redeliveries: Promise<Redeliveries> | undefined;
  const deps: Deps = {
    coordination: () => (coordination ??= coordinationFromEnv(process.env, app.log)),
    identity: identityResolver(process.env.GITHUB_ACTIONS === "true" ? "action" : "app"),
    redeliveries: () =>
      (redeliveries ??= deps
        .coordination()
        .then((c) => new Redeliveries(c, (d) => app.receive(d as Parameters<Probot["receive"]>[0]), app.log))),
  };
  // With Redis, every replica polls for retries, so one scheduled by a replica that died still runs.
  void deps.redeliveries().then(async (r) => ((await deps.coordination()).kind === "redis" ? r.start() : undefined));
  // The plan's first, config-free decision: an issue it would ignore loads nothing else.
  let plan: Promise<typeof import("./answer/plan.js")> | undefined;
  const relevant = async (context: Context<"issues.opened" | "issues.edited">) => {
    plan ??= import("./answer/plan.js");
    return !(await plan).ignoresIssueDelivery(context.payload);
  };
  app.on(
    ["issues.opened", "issues.edited"],
    guarded(
      "issues",
      lazy(async () => (await import("./handlers/issues.js")).onIssue),
      deps,
      { relevant },
    ),
  );
  app.on(
    ["pull_request.opened", "pull_request.synchronize", "pull_request.reopened", "pull_request.ready_for_review"],
    guarded(
      "pull_request",
      lazy(async () => (await import("./handlers/pull-request.js")).onPullRequest),
      deps,
    ),
  );
  app.on(
    "issue_comment.created",
    guarded(
      "command",
      lazy(async () => (await import("./handlers/command.js")).onCommand),
      deps,
    ),
  );
};
