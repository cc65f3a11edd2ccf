import type { Probot } from "probot";
import { coordinationFromEnv, type Coordination } from "./github/coordination.js";
import { identityResolver } from "./github/identity.js";
import { Redeliveries } from "./github/retry.js";
import { onCommand } from "./handlers/command.js";
import type { Deps } from "./handlers/deps.js";
import { guarded } from "./handlers/guard.js";
import { onIssue } from "./handlers/issues.js";
import { onPullRequest } from "./handlers/pull-request.js";

export default (app: Probot): void => {
  let coordination: Promise<Coordination> | undefined;
  let redeliveries: Promise<Redeliveries> | undefined;
  const deps: Deps = {
    coordination: () => (coordination ??= coordinationFromEnv(process.env, app.log)),
    identity: identityResolver(process.env.GITHUB_ACTIONS === "true" ? "action" : "app"),
    redeliveries: () => (redeliveries ??= deps.coordination().then((c) => new Redeliveries(c, (d) => app.receive(d as Parameters<Probot["receive"]>[0]), app.log))),
  };
  // With Redis, every replica polls for retries, so one scheduled by a replica that died still runs.
  void deps.redeliveries().then(async (r) => ((await deps.coordination()).kind === "redis" ? r.start() : undefined));
  app.on(["issues.opened", "issues.edited"], guarded("issues", onIssue, deps));
  app.on(["pull_request.opened", "pull_request.synchronize", "pull_request.reopened", "pull_request.ready_for_review"], guarded("pull_request", onPullRequest, deps));
  app.on("issue_comment.created", guarded("command", onCommand, deps));
};
