import type { Context } from "probot";
import { type Config, ignoredBy } from "../config/config.js";
import { loadConfig } from "../github/config.js";
import type { Deps } from "../github/deps.js";
import { changedManifests } from "../github/pr-changes.js";
import { graphqlEnabled } from "../github/pr-reads.js";
import { gatherPr } from "../github/pr-snapshot.js";
import { reviewPullRequest } from "../render/review.js";
import type { PrSnapshot } from "../review/pull-request.js";

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

type Review = NonNullable<ReturnType<typeof reviewPullRequest>["review"]>;

/**
 * Posts the review. Where the changes came from the trees, the lines a comment may sit on were
 * computed, not GitHub's: if GitHub still refuses a comment's line (422), the review is decided
 * again with no line commentable, every suggestion in its body, and posted once more.
 */
async function postReview(context: PrContext, snapshot: PrSnapshot, review: Review, computed: boolean) {
  const pr = context.payload.pull_request;
  const post = (r: Review) =>
    context.octokit.rest.pulls.createReview({
      ...context.repo(),
      pull_number: pr.number,
      commit_id: pr.head.sha,
      event: "COMMENT",
      body: r.body,
      comments: r.comments,
    });
  try {
    await post(review);
  } catch (e) {
    if (!computed || review.comments.length === 0 || (e as { status?: number }).status !== 422) throw e;
    context.log.warn({ ...context.repo(), pull_number: pr.number }, "review comment refused; suggestions in the body");
    const again = reviewPullRequest({ ...snapshot, changed: snapshot.changed.map((f) => ({ ...f, patch: "" })) });
    if (again.review) await post(again.review);
  }
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
    if (review) await postReview(context, snapshot, review, start.patchesComputed === true);
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
