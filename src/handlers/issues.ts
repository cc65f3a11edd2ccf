import type { Context } from "probot";
import { issueEvent, planIssue } from "../answer/plan.js";
import type { Desired } from "../answer/publish-plan.js";
import { gatherAnswer } from "../github/answer.js";
import { loadConfig } from "../github/config.js";
import type { Deps } from "../github/deps.js";
import { renderIssueComment } from "../github/issue-comment.js";
import { convergeLocked, issueTarget, writesOf } from "../github/publish.js";
import { issueMarker, renderResolvedComment } from "../render/issue.js";

type IssueContext = Context<"issues.opened" | "issues.edited">;

export async function onIssue(context: IssueContext, deps: Deps): Promise<void> {
  const event = issueEvent(context.payload, { senderIsBot: context.isBot });
  // Decided from the payload alone: an issue without a known panic costs no API call.
  let plan = planIssue(event);
  const marker = issueMarker(context.payload.issue.updated_at);
  if (plan.kind === "retract")
    return publish(context, deps, { kind: "retract", body: renderResolvedComment(marker) }, "retract");
  if (plan.kind === "needs-config") plan = planIssue(event, (await loadConfig(context)).config);
  if (plan.kind !== "answer") return;
  const analysis = await gatherAnswer(context, deps, plan);
  const body = renderIssueComment(analysis, marker);
  if (body)
    await publish(
      context,
      deps,
      { kind: "answer", body, label: plan.label },
      analysis.kind === "panic" ? analysis.primary.id : analysis.kind,
    );
}

/**
 * Brings the issue's one comment (and label) to `desired` under the issue's lock: a delivery
 * older than the comment's answer changes nothing, an identical body costs no write.
 */
async function publish(context: IssueContext, deps: Deps, desired: Desired, finding: string): Promise<void> {
  const where = context.issue();
  const who = await deps.identity(context.octokit);
  const coordination = await deps.coordination();
  const { updated_at, comments } = context.payload.issue;
  const target = issueTarget(coordination, where, updated_at, comments);
  const decision = await convergeLocked(coordination, writesOf(context.octokit, who), target, desired);
  context.log.info(
    { ...where, finding, outcome: decision.outcome, steps: decision.steps.map((s) => s.op) },
    decision.outcome === "stale" ? "older delivery ignored: the comment answers a newer edit" : "issue triaged",
  );
}
