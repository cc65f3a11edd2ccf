// How long the issue comment is where a reader looks: visible words (outside the marker and the
// folded `<details>` bodies; a `<summary>` line counts) of the comment for every issue-side
// fixture the bot answers, offline on the bundled data. Runs alone: `npm run bench:words` (add
// `--each` for every comment's count); `npm run bench` writes the same section into BENCHMARKS.md.
import { pathToFileURL } from "node:url";
import { analyze } from "../src/answer/analyze.js";
import { renderIssueComment } from "../src/github/issue-comment.js";
import { issueTexts, medianAndMax, visibleWords } from "../test/support/issue-texts.js";

export interface CommentWords {
  answered: number;
  median: number;
  max: number;
  longest: string;
  each: Array<[number, string]>;
}

export function commentWords(): CommentWords {
  const each: Array<[number, string]> = [];
  for (const [name, text] of issueTexts()) {
    const comment = renderIssueComment(analyze({ text }));
    if (comment) each.push([visibleWords(comment), name]);
  }
  each.sort((a, b) => a[0] - b[0]);
  const { median, max } = medianAndMax(each.map(([n]) => n));
  return { answered: each.length, median, max, longest: each.at(-1)?.[1] ?? "", each };
}

/** BENCHMARKS.md's section. */
export function commentWordsSection(w: CommentWords): string[] {
  return [
    "## Issue comment length",
    "",
    `Visible words of the issue comment (outside the hidden marker and the bodies of its \`<details>\`; a \`<summary>\` line counts, and so do the diff's lines) over every issue-side fixture the bot answers (${w.answered}: \`fixtures/issues\`, cargo's refusals alone and with their manifest, rustc's logs, the compile, E0599, feature-family and evidence cases), offline on the bundled data. \`npm run bench:words\` measures it alone. Targets: median ≤ 120, longest ≤ 180.`,
    "",
    "| median | longest | longest fixture |",
    "|---:|---:|---|",
    `| ${w.median} | ${w.max} | ${w.longest.replace(/\|/g, "\\|")} |`,
    "",
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const w = commentWords();
  console.log(
    `issue comments: ${w.answered} fixtures answered; visible words median ${w.median}, longest ${w.max} (${w.longest})`,
  );
  if (process.argv.includes("--each")) for (const [n, name] of w.each) console.log(`${n}\t${name}`);
}
