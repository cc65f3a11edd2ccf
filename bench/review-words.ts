// What a PR review says, over every fixture of fixtures/prs/cases.yml: paragraphs said twice
// (issue 52: none), and the words of the body and of each line comment. `npm run bench` writes it
// with the rest; runnable alone:
// `npm run build:dev && node build/bench/review-words.js` prints the section; `--write` puts it
// in BENCHMARKS.md in place of the previous one (the rest of the file is left as it is).
import { reviewFigures } from "../test/support/review-surfaces.js";
import { writeBenchSection } from "./section.js";

const HEADING = "## What a PR review says";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export function reviewWordsSection(): string {
  const f = reviewFigures();
  const span = (xs: number[]) => `median ${median(xs)}, longest ${Math.max(0, ...xs)}`;
  return [
    HEADING,
    "",
    `Over the ${f.cases} PR fixtures (\`fixtures/prs/cases.yml\`), ${f.reviews} of which get a review: passages of 12 words or more said twice in one review (body and line comments): **${f.repeated}**. Words of a whole review (body and line comments): ${span(f.reviewWords)}; of the body: ${span(f.bodyWords)}; of a line comment: ${span(f.commentWords)} (outside code fences and the marker). \`node build/bench/review-words.js\` after \`npm run build:dev\`.`,
    "",
  ].join("\n");
}

/** Run alone (not imported by run.ts, which puts the section in the BENCHMARKS.md it writes). */
function main() {
  const section = reviewWordsSection();
  if (!process.argv.includes("--write")) return process.stdout.write(`${section}\n`);
  writeBenchSection(HEADING, section);
  process.stdout.write(`${section}\n`);
}

if (process.argv[1]?.endsWith("review-words.js")) main();
