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

/** Markdown escapes a reporter typed so that backticks render: ``Requires \`autodiff\` feature``. */
const MD_ESCAPE = /\\([`*_])/g;

export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(ANSI, "")
    .replace(ENTITY, (e) => ENTITIES[e] ?? e)
    .replace(MD_ESCAPE, "$1");
}

/**
 * Collapses each run of whitespace (and a `> ` quote marker after a newline) into one space.
 * Both patterns are linear: the first only starts at a newline, the second is one greedy class.
 */
export function collapse(text: string): string {
  return text.replace(/\n[> ]*/g, "\n").replace(/\s+/g, " ");
}

export function collapseSpaces(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

let probed: string | null = null;
let probedNamesBurn = false;

/**
 * Whether a raw text names burn at all, the first question of the rustc and the cargo detectors,
 * asked of one text in turn by `triage`. `b` is a common letter (15 per KiB of rustc's output),
 * so V8's memchr scan stops often: 7 µs on a 64 KiB log, paid once per text instead of per
 * detector. The last text is kept by reference: the same string compares by pointer.
 */
export function namesBurn(text: string): boolean {
  if (text !== probed) {
    probed = text;
    probedNamesBurn = text.includes("burn");
  }
  return probedNamesBurn;
}
