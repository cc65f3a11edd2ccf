// Markdown as GitHub parses it (CommonMark, markdown-it), bounded for text anyone can post: the
// blocks of a whole text without inline parsing, then the inline structure of one paragraph at a
// time, only where a caller needs it. Nesting stops at NESTING: each line of a paragraph is
// checked against every open quote and list, so a 64 KiB comment of one 20-deep quote and 30,000
// lazy lines held markdown-it for 190 ms at its default of 20 (and micromark, used before, for
// minutes on such input: bench "Event-loop stalls"). What is nested deeper is not parsed.
import type MarkdownIt from "markdown-it";
import { markdownIt } from "./lazy-modules.js";

const NESTING = 6;
// markdown-it reads `maxNesting` from its options; its types leave it out.
const OPTIONS = { html: true, maxNesting: NESTING };

// Made on first use: three parsers cost a process that never reads Markdown 10 ms to build.
let parsers: { blocks: MarkdownIt; inlineAll: MarkdownIt; inlineCode: MarkdownIt } | undefined;

function made() {
  if (parsers) return parsers;
  const Parser = markdownIt();
  const blocks = new Parser("commonmark", OPTIONS);
  blocks.core.ruler.disable(["inline", "text_join"]);
  const inlineAll = new Parser("commonmark", OPTIONS);
  // Only what can hide the start of a line: code spans and inline HTML (emphasis and links are
  // where an unclosed `[a](` or a run of `*a` costs most, and they hide nothing).
  const inlineCode = new Parser("commonmark", OPTIONS);
  inlineCode.inline.ruler.enableOnly(["text", "newline", "escape", "backticks", "html_inline"]);
  inlineCode.inline.ruler2.enableOnly([]);
  parsers = { blocks, inlineAll, inlineCode };
  return parsers;
}

export type Token = ReturnType<MarkdownIt["parse"]>[number];

/** The block tokens of `text`; an `inline` token's `content` is its paragraph, unparsed. */
export function blockTokens(text: string): Token[] {
  return made().blocks.parse(text, {});
}

/** The inline tokens of one paragraph: all of them, or only code spans, inline HTML and breaks. */
export function inlineTokens(content: string, { emphasis }: { emphasis: boolean }): Token[] {
  const { inlineAll, inlineCode } = made();
  return (emphasis ? inlineAll : inlineCode).parseInline(content, {})[0]?.children ?? [];
}
