import type { Context } from "probot";
import { type AnalyzeInput, type Analysis, analyzeWithSources, indexRoots } from "../analyze.js";
import { readBurnSources } from "../github/burn-source.js";
import {
  type Find,
  findMarked,
  REMEMBER_ABOVE_COMMENTS,
  rememberedIn,
  type Upserted,
  upsertComment,
} from "../github/comments.js";
import { attemptOf } from "../github/retry.js";
import { loadConfig } from "../github/config.js";
import { repoManifests } from "../github/manifests.js";
import { type IssuePlan, issueEvent, planIssue } from "../plan.js";
import {
  ISSUE_MARKER_PREFIX,
  issueMarker,
  markedUpdatedAt,
  renderIssueComment,
  renderResolvedComment,
} from "../render/issue.js";
import type { Deps } from "./deps.js";
import { registries } from "../cargo/live-registries.js";

type IssueContext = Context<"issues.opened" | "issues.edited">;

/** Analyzes; for a release newer than the data, reads the burn files it asks for at that tag. */
export async function withSources(
  context: Pick<IssueContext, "octokit" | "log">,
  deps: Deps,
  input: AnalyzeInput,
): Promise<Analysis> {
  return analyzeWithSources(input, async (reads) =>
    readBurnSources(context.octokit, reads, await deps.coordination(), context.log),
  );
}

export async function onIssue(context: IssueContext, deps: Deps): Promise<void> {
  const event = issueEvent(context.payload, { senderIsBot: context.isBot });
  // Decided from the payload alone: an issue without a known panic costs no API call.
  let plan = planIssue(event);
  if (plan.kind === "retract") return retract(context, deps);
  if (plan.kind === "needs-config") plan = planIssue(event, (await loadConfig(context)).config);
  if (plan.kind !== "answer") return;
  const analysis = await gatherAnswer(context, deps, plan);
  const body = renderIssueComment(analysis, issueMarker(context.payload.issue.updated_at));
  if (body)
    await publishAnswer(context, deps, {
      body,
      label: plan.label,
      finding: analysis.kind === "panic" ? analysis.primary.id : analysis.kind,
    });
}

type Answer = Extract<IssuePlan, { kind: "answer" }>;
type Gathering = Pick<IssueContext, "octokit" | "log" | "repo">;

/**
 * What the bot's comment on this issue would say: the plan's reads (repository manifests, burn's
 * graph, burn's source at a newer tag) and the analysis. `scan` calls it too, with the
 * repository's manifests read once for all issues.
 */
export async function gatherAnswer(
  context: Gathering,
  deps: Deps,
  plan: Answer,
  readRepository = () => repoManifests(context.octokit, context.repo(), context.log),
): Promise<Analysis> {
  const { text, featureOff } = plan;
  const repo = plan.readRepository ? await readRepository() : null;
  const index = featureOff ? await registries(context.log, indexRoots(text, repo?.manifests)) : undefined;
  return withSources(context, deps, {
    text,
    repoManifests: repo?.manifests,
    repoRoot: repo?.root,
    repoLock: repo?.lock,
    registries: index,
  });
}

/**
 * Writes the issue's one comment under the issue's lock: a delivery older than the comment's
 * answer is dropped, an identical body costs nothing, and the label goes on with a new comment.
 */
export async function publishAnswer(
  context: IssueContext,
  deps: Deps,
  answer: { body: string; label: string | null; finding: string },
): Promise<Upserted["action"] | "stale"> {
  const { issue } = context.payload;
  const where = context.issue();
  const who = await deps.identity(context.octokit);
  const coordination = await deps.coordination();
  const find = finding(coordination, where, issue.comments);
  const result = await coordination.lock(`${where.owner}/${where.repo}#${where.issue_number}`, async () => {
    const existing = await findMarked(context.octokit, who, where, ISSUE_MARKER_PREFIX, find);
    if (stale(existing?.body, issue.updated_at)) return { action: "stale" as const, id: existing!.id };
    return upsertComment(context.octokit, who, where, ISSUE_MARKER_PREFIX, answer.body, existing, find);
  });
  context.log.info(
    { ...where, finding: answer.finding, comment: result },
    result.action === "stale" ? "older delivery ignored: the comment answers a newer edit" : "issue triaged",
  );
  if (answer.label && labelOwed(result.action, attemptOf(context.id)))
    await context.octokit.rest.issues.addLabels({ ...where, labels: [answer.label] });
  return result.action;
}

/**
 * The label goes on with the comment that creates it, once: a maintainer who removes it later is
 * not overruled by the next edit. A retry that finds its comment already current means the
 * failed attempt created it and then failed on the label (the only write after it), so the label
 * is still owed; the retry re-read the issue's labels first.
 */
export function labelOwed(action: Upserted["action"] | "stale", attempt: number): boolean {
  return action === "created" || (attempt > 0 && action === "unchanged");
}

/** How the issue's comment is found: by its remembered id first on an issue of many comments. */
function finding(
  cache: Parameters<typeof rememberedIn>[0],
  where: ReturnType<IssueContext["issue"]>,
  comments: number | undefined,
): Find {
  return (comments ?? 0) > REMEMBER_ABOVE_COMMENTS ? { memo: rememberedIn(cache, where, ISSUE_MARKER_PREFIX) } : {};
}

/** The comment already answers a later version of the issue than this delivery carries. */
function stale(commentBody: string | undefined, updatedAt: string | undefined): boolean {
  const answered = markedUpdatedAt(commentBody);
  return answered !== null && typeof updatedAt === "string" && Date.parse(updatedAt) < Date.parse(answered);
}

/** The edit removed the panic: replace the advice rather than leave it stale. */
async function retract(context: IssueContext, deps: Deps): Promise<void> {
  const where = context.issue();
  const who = await deps.identity(context.octokit);
  const { issue } = context.payload;
  const coordination = await deps.coordination();
  await coordination.lock(`${where.owner}/${where.repo}#${where.issue_number}`, async () => {
    const mine = await findMarked(
      context.octokit,
      who,
      where,
      ISSUE_MARKER_PREFIX,
      finding(coordination, where, issue.comments),
    );
    if (!mine || stale(mine.body, issue.updated_at)) return;
    const body = renderResolvedComment(issueMarker(issue.updated_at));
    if (mine.body !== body)
      await context.octokit.rest.issues.updateComment({
        owner: where.owner,
        repo: where.repo,
        comment_id: mine.id,
        body,
      });
  });
}
