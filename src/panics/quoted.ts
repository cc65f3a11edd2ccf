// A message quoted as documentation is not a report: in a block quote that holds none of the
// program's own output around it (the `panicked at` header, the `not implemented: ` that std
// prints before the message), in bold or italics, or as inline code in a list item (release
// notes: "- Fix `No backend feature enabled.` when …"). A message pasted in prose, inline code
// included, or in a code block, is the user's own output and still is one.
//
// Decided from the Markdown structure (src/util/markdown.ts): the blocks of the whole text, then the
// inline structure of each paragraph that holds a message, emphasis included only for paragraphs
// of at most PARAGRAPH_LIMIT characters; texts over GitHub's body limit are not read as Markdown.
import { blockTokens, inlineTokens, type Token } from "../util/markdown.js";

/** GitHub's limit for an issue body; a longer text (a log given to the CLI) is not Markdown. */
export const MARKDOWN_LIMIT = 65536;
/** A longer paragraph is left as it is: its emphasis is not parsed. */
const PARAGRAPH_LIMIT = 8192;

/** The paragraph's text outside bold and italics (and, in a list item, outside inline code). */
function plainText(content: string, inListItem: boolean): string {
  const out: string[] = [];
  let emphasis = 0;
  for (const t of inlineTokens(content, { emphasis: true })) {
    if (t.type === "strong_open" || t.type === "em_open") emphasis++;
    else if (t.type === "strong_close" || t.type === "em_close") emphasis--;
    else if (emphasis > 0) continue;
    else if (t.type === "text") out.push(t.content);
    else if (t.type === "code_inline" && !inListItem) out.push(t.content);
    else if (t.type === "softbreak" || t.type === "hardbreak") out.push("\n");
  }
  return out.join("");
}

/** Whether this paragraph quotes a message as documentation rather than reporting it. */
function documents(t: Token, quoted: { outputInside: boolean } | null, inListItem: boolean, holds: Holds): boolean {
  if (!holds(t.content)) return false;
  if (quoted) return !quoted.outputInside;
  if (t.content.length > PARAGRAPH_LIMIT) return false;
  // Many write the message's own backticks escaped inside inline code (`` `Requires \`autodiff\`
  // feature` ``): a backslash does not escape in a code span, so Markdown splits it in three, but
  // the user showed one message. An escaped backtick is read as a backtick of the text.
  // A private-use character stands in while parsing (Markdown turns a NUL into U+FFFD).
  const ESCAPED = "\ue000";
  const plain = plainText(t.content.replaceAll("\\`", ESCAPED), inListItem).replaceAll(ESCAPED, "`");
  return !holds(plain);
}

export type Holds = (text: string) => boolean;

/**
 * The text with every paragraph that quotes a message as documentation blanked (its lines kept,
 * empty), so that positions by line still hold. `holds` says whether a text holds a message;
 * `output` whether a block quote's lines hold the program's own output.
 */
export function reportView(
  text: string,
  { holds, output }: { holds: Holds; output: (line: string) => boolean },
): string {
  if (text.length > MARKDOWN_LIMIT) return text;
  const lines = text.split("\n");
  const quotes: Array<{ outputInside: boolean }> = [];
  let lists = 0;
  let paragraph = false;
  for (const t of blockTokens(text)) {
    if (t.type === "blockquote_open") {
      const [from, to] = t.map ?? [0, 0];
      quotes.push({
        outputInside: quotes.at(-1)?.outputInside || lines.slice(from, to).some(output),
      });
    } else if (t.type === "blockquote_close") quotes.pop();
    else if (t.type === "list_item_open") lists++;
    else if (t.type === "list_item_close") lists--;
    else if (t.type === "paragraph_open") paragraph = true;
    else if (t.type === "paragraph_close") paragraph = false;
    else if (t.type === "inline" && paragraph && t.map && documents(t, quotes.at(-1) ?? null, lists > 0, holds))
      for (let i = t.map[0]; i < t.map[1]; i++) lines[i] = "";
  }
  return lines.join("\n");
}
