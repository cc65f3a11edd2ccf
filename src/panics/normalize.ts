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
  // Each pass only where its first character occurs: a memchr scan rules it out in 1 µs per 64 KiB,
  // where the regex's own scan took 20 to 36 (most issues hold no CR, colour, entity or escape).
  let out = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  if (out.includes("\u001b")) out = out.replace(ANSI, "");
  if (out.includes("&")) out = out.replace(ENTITY, (e) => ENTITIES[e] ?? e);
  return out.includes("\\") ? out.replace(MD_ESCAPE, "$1") : out;
}

/**
 * Collapses each run of whitespace (and a `> ` quote marker after a newline) into one space.
 * Both patterns are linear: the first only starts at a newline, the second is one greedy class.
 * Neither matches what it would leave as it is (a newline without a marker, a single space): a
 * log's every line and word were a replacement, 370 µs of a 64 KiB issue against 170.
 */
export function collapse(text: string): string {
  return text.replace(/\n[> ]+/g, "\n").replace(/\s{2,}|[^\S ]/g, " ");
}

/** V8 scans for a pattern of up to this many characters by a memchr for its first one. */
const SHORT_PATTERN = 6;

/**
 * What finds `piece` in a cleaned text exactly where `collapse(text).includes(piece)` would,
 * without collapsing it: each space of the piece is a whitespace run with the quote markers after
 * its newlines, read whole as `collapse` reads it. A lookahead and a back-reference stand in for
 * the atomic group JavaScript lacks: a run that could be split two ways would backtrack without
 * end. `collapse` rewrites every line of a log (170 µs over 64 KiB); this scans it.
 */
export function collapsedPattern(piece: string, flags = ""): RegExp {
  const words = piece.split(" ").map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  // `(?:)` ends each back-reference: before a word that starts with a digit, `\1` would read as `\14`.
  return new RegExp(words.map((w, k) => (k === 0 ? w : `(?=((?:[^\\S\\n]|\\n[> ]*)+))\\${k}(?:)${w}`)).join(""), flags);
}

/**
 * `collapsedPattern(piece).test`, tried only where the piece's first characters occur: the regular
 * expression's own scan for its first word read a 10 KiB issue in 2.9 µs, where a memchr scan for
 * it takes a tenth of that, and a burn issue that passed the word screen seldom holds it.
 */
export function collapsedFinder(piece: string): (text: string) => boolean {
  const pattern = collapsedPattern(piece, "y");
  const head = piece.split(" ")[0]!.slice(0, SHORT_PATTERN);
  return (text) =>
    someWhere(text, head, (at) => {
      pattern.lastIndex = at;
      return pattern.test(text);
    });
}

/**
 * Whether `holdsAt` is true at some place where `head` (at most SHORT_PATTERN characters) occurs:
 * a memchr scan finds each place, however long what is checked there. Each place is tried once,
 * the overlapping ones included (`aab` in `aaab` starts inside an earlier `aa`).
 */
export function someWhere(text: string, head: string, holdsAt: (at: number) => boolean): boolean {
  for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, at + 1)) if (holdsAt(at)) return true;
  return false;
}

export function collapseSpaces(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** Whether a text holds a literal. */
export type Has = (literal: string) => boolean;

/**
 * The lookups of a text made of parts joined by line breaks (an issue's title and body): a literal
 * without a line break is in the joined text exactly when it is in one of its parts. So screens run
 * over the parts, and the join (a copy of the body: 7 µs for 64 KiB, where the screens cost 32)
 * is made only for a text some screen passes. Each literal is looked up once: `burn` is the first
 * question of both the rustc and the cargo detectors, and `b` is a common letter (15 per KiB of
 * rustc's output), so V8's memchr scan for it stops often: 7 µs on a 64 KiB log.
 */
export function lookup(parts: readonly string[]): Has {
  // The literals are a few constants: a short list, which V8 searches by pointer, costs less per
  // event than a Map (0.78 µs against 1.1 for a 413-byte issue's screens).
  const asked: string[] = [];
  const answers: boolean[] = [];
  return (literal) => {
    const i = asked.indexOf(literal);
    if (i >= 0) return answers[i]!;
    if (literal.includes("\n")) throw new Error(`a screen's literal holds a line break: ${JSON.stringify(literal)}`);
    let found = false;
    for (const p of parts)
      if (holds(p, literal)) {
        found = true;
        break;
      }
    asked.push(literal);
    answers.push(found);
    return found;
  };
}

/**
 * `text.includes(literal)`, at the cost of a short pattern. V8 finds a pattern under seven
 * characters by a memchr scan for its first character, and a longer one by Boyer-Moore-Horspool,
 * which an absent word makes walk the whole text: `Expected` took 28 µs over a 64 KiB rustc log,
 * where `Expect` took 1.4. So a longer literal is looked for where its first six characters occur.
 */
export function holds(text: string, literal: string): boolean {
  if (literal.length <= SHORT_PATTERN) return text.includes(literal);
  return someWhere(text, literal.slice(0, SHORT_PATTERN), (at) => text.startsWith(literal, at));
}

let scope: { text: string; has: Has } | null = null;

/**
 * Runs `fn` with one set of lookups of `text` for every detector it asks of that text (`triage`
 * asks three in turn): `has`, when the caller asked them of the text's parts already. Nothing
 * outlives the call: a later text, even an equal one (every delivery of a benchmark, or a
 * redelivery), is looked up again, as a new issue would be.
 */
export function sharingLookups<T>(text: string, fn: () => T, has: Has = lookup([text])): T {
  if (scope?.text === text) return fn();
  const outer = scope;
  scope = { text, has };
  try {
    return fn();
  } finally {
    scope = outer;
  }
}

/** The lookups of one raw text: those of the `sharingLookups` call running on it, else its own. */
export function textLookup(text: string): Has {
  return scope !== null && scope.text === text ? scope.has : lookup([text]);
}
