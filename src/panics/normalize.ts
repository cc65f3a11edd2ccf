// Turns pasted text into something the detector can search linearly: no ANSI colours, no HTML
// entities, LF line ends, and a whitespace-collapsed copy that still maps back to the original
// offsets (messages get wrapped across lines by terminals and by GitHub's editor).

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

export interface Collapsed {
  text: string;
  /** offsets[i] is the index in the cleaned text of collapsed character i. */
  offsets: Int32Array;
}

/** Collapses each run of whitespace (and a `> ` quote marker after a newline) into one space. */
export function collapse(text: string): Collapsed {
  const out: string[] = [];
  const offsets = new Int32Array(text.length + 1);
  let n = 0;
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const ws = c === " " || c === "\n" || c === "\t" || c === "\u00a0";
    if (ws) {
      if (!inSpace) {
        offsets[n++] = i;
        out.push(" ");
        inSpace = true;
      }
      if (c === "\n") {
        // A wrapped line inside a Markdown quote starts with "> ": part of the indentation.
        while (text[i + 1] === ">" || text[i + 1] === " ") i++;
      }
      continue;
    }
    inSpace = false;
    offsets[n++] = i;
    out.push(c);
  }
  offsets[n] = text.length;
  return { text: out.join(""), offsets: offsets.subarray(0, n + 1) };
}

export function collapseSpaces(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
