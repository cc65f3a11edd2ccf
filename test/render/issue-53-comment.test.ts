// Issue 53, the issue comment's part (the maintainer's findings 10 and 17, a typo near two names,
// and the folded verification said once). Each case is a real-shaped fixture and fails when its
// rule is removed.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { answerIssue } from "../../src/answer/answer.js";
import { renderAnswerComment } from "../../src/render/issue.js";
import { fixture } from "../helpers/fixtures.js";

const answerOf = (name: string) => answerIssue(analyze({ text: fixture(`issues/${name}`) }));
const commentOf = (name: string) => renderAnswerComment(answerOf(name))!;

/** The first words of each `<summary>` and of the paragraph folded under it. */
function foldedOpenings(body: string): Array<{ summary: string; next: string }> {
  return [...body.matchAll(/<details><summary>([^<]*)<\/summary>\n\n([^\n]*)/g)].map((m) => ({
    summary: m[1]!,
    next: m[2]!.replace(/^<sub>/, ""),
  }));
}

describe("the folded verification says its graph once", () => {
  it("the line under `Verified on burn X` does not start with the same words", () => {
    const body = commentOf("pos-html-entities.md");
    const folds = foldedOpenings(body).filter((f) => f.summary.startsWith("Verified on"));
    expect(folds.length).toBe(1);
    for (const f of folds) expect(f.next.split(" ").slice(0, 3)).not.toEqual(f.summary.split(" ").slice(0, 3));
    expect(body).toContain("Its feature graph from the bundled data");
  });
});
