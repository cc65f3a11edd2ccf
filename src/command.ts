// `/explain-panic` in a comment: only at the start of a line of a paragraph, as GitHub's
// Markdown parses it. Code (fenced, indented, or a fence never closed), block quotes and HTML
// comments hide it, so pasted logs and quoted replies that mention it do not trigger it.
import type { Nodes, Parent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

export interface Command {
  args: string;
  help: boolean;
  /** The comment without the command line: pasted logs to analyse first. */
  rest: string;
}

/** GitHub's own limit for a comment body; the parser is not asked to read more. */
export const MAX_COMMENT_CHARS = 65536;
const COMMAND = /^[ \t]*\/explain-panic(?=\s|$)(.*)$/;

/** Paragraphs outside block quotes, in source order. */
function paragraphs(node: Nodes, out: Nodes[] = []): Nodes[] {
  if (node.type === "blockquote" || node.type === "code" || node.type === "html") return out;
  if (node.type === "paragraph") {
    out.push(node);
    return out;
  }
  for (const child of (node as Parent).children ?? []) paragraphs(child as Nodes, out);
  return out;
}

/** Offsets covered by inline code and inline HTML (comments included) inside a paragraph. */
function hidden(node: Nodes, out: Array<[number, number]> = []): Array<[number, number]> {
  if ((node.type === "inlineCode" || node.type === "html") && node.position)
    out.push([node.position.start.offset!, node.position.end.offset!]);
  for (const child of (node as Parent).children ?? []) hidden(child as Nodes, out);
  return out;
}

export function parseCommand(input: string): Command | null {
  if (!input.includes("/explain-panic")) return null;
  const body = input.slice(0, MAX_COMMENT_CHARS).replace(/\r\n?/g, "\n");
  const tree = fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  for (const p of paragraphs(tree as Nodes)) {
    const start = p.position!.start.offset!;
    const end = p.position!.end.offset!;
    const raw = body.slice(start, end);
    let masked = raw;
    for (const [a, b] of hidden(p)) masked = masked.slice(0, a - start) + " ".repeat(b - a) + masked.slice(b - start);
    const rawLines = raw.split("\n");
    let offset = start;
    for (const [i, line] of masked.split("\n").entries()) {
      if (COMMAND.test(line)) {
        const lineStart = body.lastIndexOf("\n", offset - 1) + 1;
        const lineEnd = body.indexOf("\n", offset);
        // The masked line only locates the command; its arguments are the text as written.
        const args = COMMAND.exec(rawLines[i]!)![1]!.trim();
        const rest = `${body.slice(0, lineStart)}${lineEnd < 0 ? "" : body.slice(lineEnd + 1)}`.replace(/\n$/, "");
        return { args, help: /^help\b/i.test(args), rest };
      }
      offset += line.length + 1;
    }
  }
  return null;
}
