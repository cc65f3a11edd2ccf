// Every PR review fixture as a snapshot, and what a review says measured: its paragraphs (so a
// test can check none is said twice) and its words. Shared by test/review/surfaces.test.ts and
// bench/review-words.ts (the figure in BENCHMARKS.md), so both count the same way.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { type PrActions, reviewPullRequest } from "../../src/render/review.js";
import type { PrSnapshot } from "../../src/review/pull-request.js";
import { projectRoot } from "./root.js";

const root = projectRoot(import.meta.url);
export const HEAD = "b".repeat(40);

interface PrCase {
  name: string;
  changed: PrSnapshot["changed"];
  base: Record<string, string>;
  head: Record<string, string>;
  tree: string[];
  evidence: PrSnapshot["evidence"];
  options?: Partial<PrSnapshot["options"]>;
}

/** What a PR case gives: the files a shell would have gathered, and the options. */
export type PrCaseInput = Pick<PrSnapshot, "changed" | "base" | "head" | "tree"> & {
  evidence?: PrSnapshot["evidence"];
  options?: Partial<PrSnapshot["options"]>;
};

/** A PR case as the snapshot the shell would have gathered (no earlier review unless given). */
export function caseSnapshot(
  c: PrCaseInput,
  previous: PrSnapshot["previous"] = { review: null, checkRuns: {} },
): PrSnapshot {
  return {
    repo: { owner: "alice", repo: "mnist-demo" },
    headSha: HEAD,
    changed: c.changed,
    base: c.base,
    head: c.head,
    tree: c.tree,
    evidence: c.evidence ?? {},
    previous,
    notices: [],
    options: { checkRun: true, conclusion: "neutral", reviewBurnRepo: false, ...c.options },
  };
}

/** fixtures/prs/cases.yml, each case as the snapshot the shell would have gathered. */
export function prCaseSnapshots(): Array<{ name: string; snapshot: PrSnapshot }> {
  const cases = load(readFileSync(join(root, "fixtures/prs/cases.yml"), "utf8")) as PrCase[];
  return cases.map((c) => ({ name: c.name, snapshot: caseSnapshot(c) }));
}

/** The review's texts a reader sees: the body, then each line comment. */
export const reviewTexts = (a: PrActions): string[] =>
  a.review ? [a.review.body, ...a.review.comments.map((c) => c.body)] : [];

/** Paragraphs of Markdown: blank-line separated blocks, a list item each, code fences and the marker left out. */
export function paragraphs(md: string): string[] {
  const prose = md.replace(/^<!--.*-->$/gm, "").replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, "");
  return prose
    .split(/\n\s*\n|\n(?=- )/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p.length > 0);
}

export const words = (md: string) => paragraphs(md).join(" ").split(" ").filter(Boolean).length;

/**
 * The passages a review says more than once (across its body and line comments): any run of
 * `run` words found twice, within a paragraph or across two. A paragraph repeated word for word
 * is one; so is a sentence copied from the body onto the line.
 */
export function repeatedParagraphs(texts: string[], run = 12): string[] {
  const seen = new Map<string, number>();
  for (const p of texts.flatMap(paragraphs)) {
    const w = p.split(" ");
    const mine = new Set<string>();
    for (let i = 0; i + run <= w.length; i++) {
      const key = w.slice(i, i + run).join(" ");
      seen.set(key, (seen.get(key) ?? 0) + (mine.has(key) ? 1 : 1));
      mine.add(key);
    }
  }
  // Overlapping runs of one passage count once: keep those that do not extend the previous one.
  const repeated = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
  return repeated.filter(
    (k, i) => i === 0 || repeated[i - 1]!.split(" ").slice(1).join(" ") !== k.split(" ").slice(0, -1).join(" "),
  );
}

export interface ReviewFigures {
  cases: number;
  reviews: number;
  repeated: number;
  bodyWords: number[];
  commentWords: number[];
  /** Body and line comments together: what a reader of one review reads. */
  reviewWords: number[];
}

/** Every PR fixture's review, measured. */
export function reviewFigures(): ReviewFigures {
  const all = prCaseSnapshots().map((c) => reviewPullRequest(c.snapshot));
  const reviews = all.filter((a) => a.review);
  return {
    cases: all.length,
    reviews: reviews.length,
    repeated: reviews.reduce((n, a) => n + repeatedParagraphs(reviewTexts(a)).length, 0),
    bodyWords: reviews.map((a) => words(a.review!.body)),
    commentWords: reviews.flatMap((a) => a.review!.comments.map((c) => words(c.body))),
    reviewWords: reviews.map((a) => reviewTexts(a).reduce((n, t) => n + words(t), 0)),
  };
}
