import type { Probot } from "probot";
import { onCommand } from "./handlers/command.js";
import { guarded } from "./handlers/guard.js";
import { onIssue } from "./handlers/issues.js";
import { onPullRequest } from "./handlers/pull-request.js";

export default (app: Probot): void => {
  app.on(["issues.opened", "issues.edited"], guarded("issues", onIssue));
  app.on(["pull_request.opened", "pull_request.synchronize", "pull_request.reopened", "pull_request.ready_for_review"], guarded("pull_request", onPullRequest));
  app.on("issue_comment.created", guarded("command", onCommand));
};
