import type { Probot } from "probot";

/** The benchmark's baseline: a Probot app that receives the same events and does nothing. */
export default (app: Probot): void => {
  app.on(
    ["issues.opened", "issues.edited", "pull_request.opened", "pull_request.synchronize", "issue_comment.created"],
    async () => {},
  );
};
