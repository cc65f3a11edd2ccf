// Turns pasted text into something the detector can search linearly: no ANSI colours, no HTML
// entities, LF line ends, and whitespace runs collapsed (messages get wrapped across lines by
// terminals and by GitHub's editor).

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
const ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
  "&quot;": '"',
  "&#39;": "'",
  "&apos;": "'",
  "&#x27;": "'",
  "&#96;": "`",
  "&#x60;": "`",
  "&nbsp;": " ",
};
const ENTITY = /&(?:lt|gt|amp|quot|apos|nbsp|#39|#x27|#96|#x60);/g;

export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(ANSI, "").replace(ENTITY, (e) => ENTITIES[e] ?? e);
}

/** Collapses each run of whitespace (and a `> ` quote marker after a newline) into one space. */
export function collapse(text: string): string {
  const out: string[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === " " || c === "\n" || c === "\t" || c === "\u00a0") {
      if (!inSpace) out.push(" ");
      inSpace = true;
      // A wrapped line inside a Markdown quote starts with "> ": part of the indentation.
      if (c === "\n") while (text[i + 1] === ">" || text[i + 1] === " ") i++;
      continue;
    }
    inSpace = false;
    out.push(c);
  }
  return out.join("");
}

export function collapseSpaces(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
