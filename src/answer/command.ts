// `/explain-panic` in a comment: only at the start of a line of a paragraph, as GitHub's
// Markdown parses it. Code (fenced, indented, or a fence never closed), block quotes and HTML
// comments hide it, so pasted logs and quoted replies that mention it do not trigger it.
// The blocks of the whole comment are parsed, then only the paragraphs that name the command,
// for what can hide a line start (src/util/markdown.ts: both passes bounded).
import { blockTokens, inlineTokens } from "../util/markdown.js";

export interface Command {
  args: string;
  help: boolean;
  /** The comment without the command line: pasted logs to analyse first. */
  rest: string;
}

/** GitHub's own limit for a comment body; the parser is not asked to read more. */
export const MAX_COMMENT_CHARS = 65536;
const NAME = "/explain-panic";
const COMMAND = /^\/explain-panic(?=\s|$)(.*)$/;

/** The source line (0-based) of the paragraph's first line that starts with a visible command. */
function commandLine(content: string, firstLine: number): number | null {
  let line = firstLine;
  let atStart = true;
  for (const t of inlineTokens(content, { emphasis: false })) {
    if (t.type === "softbreak" || t.type === "hardbreak") {
      line++;
      atStart = true;
      continue;
    }
    if (atStart && t.type === "text" && COMMAND.test(t.content)) return line;
    atStart = false;
  }
  return null;
}

export function parseCommand(input: string): Command | null {
  if (!input.includes(NAME)) return null;
  const body = input.slice(0, MAX_COMMENT_CHARS).replace(/\r\n?/g, "\n");
  if (!body.includes(NAME)) return null;
  const lines = body.split("\n");
  let quoted = 0;
  let inParagraph = false;
  for (const t of blockTokens(body)) {
    if (t.type === "blockquote_open") quoted++;
    else if (t.type === "blockquote_close") quoted--;
    else if (t.type === "paragraph_open") inParagraph = true;
    else if (t.type === "paragraph_close") inParagraph = false;
    else if (t.type === "inline" && inParagraph && quoted === 0 && t.map && t.content.includes(NAME)) {
      const at = commandLine(t.content, t.map[0]);
      if (at !== null) return commandAt(lines, at);
    }
  }
  return null;
}

function commandAt(lines: string[], at: number): Command {
  const raw = lines[at]!;
  // The arguments are the line as written, from the command on (a list item's `- ` before it).
  const args = COMMAND.exec(raw.slice(raw.indexOf(NAME)))?.[1]?.trim() ?? "";
  const rest = [...lines.slice(0, at), ...lines.slice(at + 1)].join("\n").replace(/\n$/, "");
  return { args, help: /^help\b/i.test(args), rest };
}
