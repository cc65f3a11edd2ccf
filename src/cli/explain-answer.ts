// What `burn-triage explain` answers for a text, apart from where the text and the data come
// from: the command line (explain.ts) and the web page (web/) both call these, so that for any
// text the page shows the comment the command prints. No Node here: the page bundles it.
import { type Analysis, analyze } from "../answer/analyze.js";
import { planText } from "../answer/plan.js";
import { answerIssue, type IssueAnswer } from "../answer/answer.js";
import { renderAnswerComment } from "../render/issue.js";

/** Whether the bot, with the default config, reads the index for this text (an issue body opened by a person). */
export function explainReadsIndex(text: string): boolean {
  const plan = planText("", text);
  return plan.kind === "answer" && plan.featureOff;
}

/** The answer (answer.schema.json's `issue` branch) and the comment worded from it. */
export type ExplainAnswer = IssueAnswer & {
  /** The comment the bot would post; null when it would post none. */
  comment: string | null;
};

export function explainAnswer(analysis: Analysis): ExplainAnswer {
  const answer = answerIssue(analysis);
  // The answer's own fields (all of them plain data), then the comment.
  return { ...answer, comment: renderAnswerComment(answer) };
}

/** The answer on the bundled data alone (no index reads): what `explain --offline` prints. */
export const explainOffline = (text: string): ExplainAnswer => explainAnswer(analyze({ text }));
