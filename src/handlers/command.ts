import type { Context } from "probot";
import { analyze } from "../analyze.js";
import { parseCommand } from "../command.js";
import { upsertComment } from "../github/comments.js";
import { loadConfig } from "../github/config.js";
import { withLock } from "../github/lock.js";
import { commandMarker, renderHelp, renderNothingFound } from "../render/command.js";
import { renderIssueComment } from "../render/issue.js";
import { issueText } from "./issues.js";

const TRUSTED = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);
/** Last command answered per conversation, for the cooldown. Per process: replicas each keep their own. */
const lastReply = new Map<string, { at: number; commentId: number }>();

export async function onCommand(context: Context<"issue_comment.created">): Promise<void> {
  const { comment, issue } = context.payload;
  if (context.isBot || comment.user?.type === "Bot" || comment.body.includes("<!-- burn-triage:")) return;
  const command = parseCommand(comment.body);
  if (!command) return;
  const loaded = await loadConfig(context);
  if (!loaded?.config.commands.enabled) return;
  const { config } = loaded;
  const where = context.issue();
  if (config.commands.allowed === "collaborators" && !TRUSTED.has(comment.author_association)) {
    context.log.info({ ...where, user: comment.user?.login, association: comment.author_association }, "command ignored: not a collaborator");
    return;
  }
  const key = `${where.owner}/${where.repo}#${where.issue_number}`;
  const now = Date.now();
  const last = lastReply.get(key);
  // A redelivery of the same comment is not spam: it must be able to finish an interrupted reply.
  if (last && last.commentId !== comment.id && now - last.at < config.commands.cooldown_seconds * 1000) {
    context.log.info({ ...where, comment_id: comment.id }, "command ignored: cooldown");
    return;
  }
  lastReply.set(key, { at: now, commentId: comment.id });

  await context.octokit.rest.reactions.createForIssueComment({ owner: where.owner, repo: where.repo, comment_id: comment.id, content: "eyes" });
  const marker = commandMarker(comment.id);
  let body: string;
  if (command.help) body = renderHelp(marker);
  else {
    const own = analyze({ text: `${command.args}\n${command.rest}` });
    const analysis = own.primary ? own : analyze({ text: issueText(issue.title, issue.body) });
    body = renderIssueComment(analysis, marker, "command") ?? renderNothingFound(marker);
  }
  await withLock(key, () => upsertComment(context.octokit, where, marker, body));
}
