import type { Context } from "probot";
import { indexRoots } from "../answer/analyze.js";
import { parseCommand } from "../answer/command.js";
import { commandText } from "../answer/plan.js";
import { registries } from "../cargo/index/live-registries.js";
import { withSources } from "../github/answer.js";
import { loadConfig } from "../github/config.js";
import type { Deps } from "../github/deps.js";
import { renderIssueComment } from "../github/issue-comment.js";
import { convergeLocked, writesOf } from "../github/publish.js";
import { commandMarker, renderHelp, renderNothingFound } from "../render/command.js";

const TRUSTED = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

export async function onCommand(context: Context<"issue_comment.created">, deps: Deps): Promise<void> {
  const { comment, issue } = context.payload;
  if (context.isBot || comment.user?.type === "Bot" || comment.body.includes("<!-- burn-triage:")) return;
  const command = parseCommand(comment.body);
  if (!command) return;
  const { config } = await loadConfig(context);
  if (!config.commands.enabled) return;
  const where = context.issue();
  if (config.ignore.users.includes(comment.user?.login ?? "")) {
    context.log.info({ ...where, user: comment.user?.login }, "command ignored: ignore.users");
    return;
  }
  if (config.commands.allowed === "collaborators" && !TRUSTED.has(comment.author_association)) {
    context.log.info(
      { ...where, user: comment.user?.login, association: comment.author_association },
      "command ignored: not a collaborator",
    );
    return;
  }
  const key = `${where.owner}/${where.repo}#${where.issue_number}`;
  const coordination = await deps.coordination();
  if (!(await coordination.cooldown(key, config.commands.cooldown_seconds * 1000, comment.id))) {
    context.log.info({ ...where, comment_id: comment.id }, "command ignored: cooldown");
    return;
  }

  await context.octokit.rest.reactions.createForIssueComment({
    owner: where.owner,
    repo: where.repo,
    comment_id: comment.id,
    content: "eyes",
  });
  const marker = commandMarker(comment.id);
  let body: string;
  if (command.help) body = renderHelp(marker);
  else {
    const { text, featureOff } = commandText(`${command.args}\n${command.rest}`, {
      title: issue.title,
      body: issue.body ?? null,
    });
    const index = featureOff ? await registries(context.log, indexRoots(text)) : undefined;
    const analysis = await withSources(context, deps, { text, registries: index });
    body = renderIssueComment(analysis, marker, "command") ?? renderNothingFound(marker);
  }
  const who = await deps.identity(context.octokit);
  const since = typeof comment.created_at === "string" ? comment.created_at : undefined;
  // A reply has no staleness to check: each command gets its own comment (its marker names it).
  await convergeLocked(
    coordination,
    writesOf(context.octokit, who),
    { where, marker, updatedAt: null, find: { since } },
    { kind: "answer", body, label: null },
  );
}
