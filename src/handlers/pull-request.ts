import type { Context } from "probot";
import { type Config, ignoredBy } from "../config/config.js";
import { loadConfig } from "../github/config.js";
import type { Deps } from "../github/deps.js";
import { changedManifests } from "../github/pr-changes.js";
import { graphqlEnabled } from "../github/pr-reads.js";
import { gatherPr } from "../github/pr-snapshot.js";
import { reviewPullRequest } from "../render/review.js";

type PrContext = Context<
  "pull_request.opened" | "pull_request.synchronize" | "pull_request.reopened" | "pull_request.ready_for_review"
>;

/** Whether the config takes this PR up: reviews on, and neither its author nor a label ignored. */
function reviewed(context: PrContext, config: Config): boolean {
  const pr = context.payload.pull_request;
  if (!config.pull_requests.enabled) return false;
  const ignored = ignoredBy(
    config,
    pr.user?.login,
    (pr.labels ?? []).map((l) => l.name),
  );
  if (ignored)
    context.log.info({ ...context.repo(), pull_number: pr.number, ignored }, "pull request ignored by config");
  return !ignored;
}

/** Gather (bounded reads), decide (pure), act (the writes the decision names, nothing else). */
export async function onPullRequest(context: PrContext, deps: Deps): Promise<void> {
  const pr = context.payload.pull_request;
  if (pr.draft || pr.state !== "open") return;
  const repo = context.repo();
  const start = await changedManifests(context.octokit, repo, pr);
  if (!start) return;
  const accept = (config: Config) => reviewed(context, config);
  // By GraphQL the config rides in the first read query; by REST it is read first, and a
  // repository that turned reviews off costs nothing more.
  const known = graphqlEnabled() ? null : (await loadConfig(context)).config;
  if (known && !accept(known)) return;
  const who = await deps.identity(context.octokit);
  const where = { ...repo, pull_number: pr.number };
  await (await deps.coordination()).lock(`${repo.owner}/${repo.repo}#${pr.number}`, async () => {
    const source = known ? { known } : { context, accept };
    const snapshot = await gatherPr(context.octokit, repo, pr, who, source, start);
    if (!snapshot) return;
    const actions = reviewPullRequest(snapshot);
    const { checks, review, updateReview } = actions;
    for (const check of checks) {
      const run = {
        name: check.name,
        status: "completed" as const,
        conclusion: check.conclusion,
        output: check.output,
      };
      if (check.existingId !== null)
        await context.octokit.rest.checks.update({ ...repo, check_run_id: check.existingId, ...run });
      else await context.octokit.rest.checks.create({ ...repo, head_sha: pr.head.sha, ...run });
    }
    if (review)
      await context.octokit.rest.pulls.createReview({
        ...where,
        commit_id: pr.head.sha,
        event: "COMMENT",
        body: review.body,
        comments: review.comments,
      });
    if (updateReview)
      await context.octokit.rest.pulls.updateReview({ ...where, review_id: updateReview.id, body: updateReview.body });
    context.log.info(
      {
        ...where,
        manifests: snapshot.changed.length,
        checks: Object.fromEntries(checks.map((c) => [c.name, c.conclusion])),
        review: review !== null,
        silent: actions.silent,
      },
      "pull request reviewed",
    );
  });
}
