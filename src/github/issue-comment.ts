// The issue comment for an analysis: its answer, worded. The renderers take only the answer (what
// `--json` prints); this is where the shell joins the two steps.

import type { Analysis } from "../answer/analyze.js";
import { answerIssue } from "../answer/answer.js";
import { ISSUE_MARKER, renderAnswerComment } from "../render/issue.js";

/** `issue`: the bot's comment on an issue; `command`: its reply to an `/explain-panic` comment. */
export function renderIssueComment(
  a: Analysis,
  marker = ISSUE_MARKER,
  replyTo: "issue" | "command" = "issue",
): string | null {
  return renderAnswerComment(answerIssue(a), marker, replyTo);
}
