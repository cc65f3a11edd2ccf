import type { Probot } from "probot";
import { onCommand } from "./handlers/command.js";
import { onIssue } from "./handlers/issues.js";
import { onPullRequest } from "./handlers/pull-request.js";

export default (app: Probot): void => {
  app.on(["issues.opened", "issues.edited"], onIssue);
  app.on(["pull_request.opened", "pull_request.synchronize", "pull_request.reopened", "pull_request.ready_for_review"], onPullRequest);
  app.on("issue_comment.created", onCommand);
};
