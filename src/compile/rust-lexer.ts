// Rust source to tokens for the item reader (src/compile/rust-items.ts) and the impl reader:
// comments dropped, string and char literals one `"` token, tokens made as the reader asks.

import { blockCommentEnd } from "../panics/source-scan.js";

export interface Tok {
  t: string;
  line: number;
  start: number;
  end: number;
}

export const IDENT = /[A-Za-z_]/;
const IDENT_REST = /[A-Za-z0-9_]/;
/**
 * The rest of a word or number from `lastIndex`, matched in one call (a file is read once, before
 * the JIT has compiled the reader, and a test per character was most of its tokenising time).
 * Without the `u` flag a class ranges over UTF-16 code units: `\u0080-\uffff` is the
 * `charCodeAt(i) > 127` words may hold.
 */
const WORD_REST = /[A-Za-z0-9_\u0080-\uffff]*/y;
const NUMBER_REST = /[0-9A-Za-z_.]*/y;
const BLANKS = /[ \t\r]*/y;

/** `[A-Za-z_]` or past ASCII, by code: a regex call per token was a tenth of the tokeniser's time. */
function wordStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code > 127;
}

/** The index past the run `sticky` matches at `i` (by `test`: `exec` would make an array a token). */
function runEnd(sticky: RegExp, src: string, i: number): number {
  sticky.lastIndex = i;
  sticky.test(src);
  return sticky.lastIndex;
}

/** A string literal's opening at `i` (`"`, `b"`, `r#…#"`, `br#…#"`), with its parts, or null. */
const STRING_OPEN = /(b?)(r?)(#*)"/y;
/** What follows the `r` or `b` of a string's opening: other words (`burn_core`) skip the regex. */
const STRING_NEXT = new Set(['"', "#", "r"]);
function stringAt(src: string, i: number): RegExpExecArray | null {
  STRING_OPEN.lastIndex = i;
  const m = STRING_OPEN.exec(src);
  // `#` only after `r`: `b#"` is no string.
  return m && (m[2] || !m[3]) ? m : null;
}

/** Tokens of Rust source without comments; string and char literals become one `"` token. */
export function rustTokens(src: string): Tok[] {
  const k = new Lexer(src);
  k.fill(Number.POSITIVE_INFINITY);
  const { t, line, start, end } = k.out;
  return t.map((x, j) => ({ t: x, line: line[j]!, start: start[j]!, end: end[j]! }));
}

/**
 * Tokens as columns: the item reader's form. An object per token made a 128 KiB file's 30,000
 * tokens a third of its first read in the garbage collector (each copied as it survived).
 */
export interface Tokens {
  t: string[];
  line: number[];
  start: number[];
  end: number[];
}

/**
 * The tokens, made as the reader asks for them: a file the reader stops in (MAX_ITEMS) is not
 * tokenised past where it stopped.
 */
export class Lexer {
  readonly out: Tokens = { t: [], line: [], start: [], end: [] };
  private i = 0;
  private line = 1;
  constructor(private readonly src: string) {}

  /** Tokens until there are `count` or the text ends. */
  fill(count: number): void {
    const { src, out } = this;
    let { i, line } = this;
    const n = src.length;
    const add = (t: string, tokLine: number, start: number) => {
      out.t.push(t);
      out.line.push(tokLine);
      out.start.push(start);
      out.end.push(i);
    };
    const push = (t: string, start: number) => add(t, line, start);
    while (i < n && out.t.length < count) {
      const c = src[i]!;
      if (c === "\n") {
        line++;
        i++;
      } else if (c === " " || c === "\t" || c === "\r") i = runEnd(BLANKS, src, i);
      else if (c === "/" && src[i + 1] === "/") {
        while (i < n && src[i] !== "\n") i++;
      } else if (c === "/" && src[i + 1] === "*") {
        const end = blockCommentEnd(src, i);
        for (let k = i; k < end; k++) if (src.charCodeAt(k) === 10) line++;
        i = end;
      } else if (c === '"' || ((c === "r" || c === "b") && STRING_NEXT.has(src[i + 1]!) && stringAt(src, i))) {
        const start = i;
        const startLine = line;
        // Any number of `#`: rustc takes up to 255, and a reader that stops at a few reads the
        // rest of the string as code.
        const m = stringAt(src, i)!;
        i += m[0].length;
        const close = `"${m[3]}`;
        while (i < n) {
          if (src[i] === "\n") line++;
          if (!m[2] && src[i] === "\\") i += 2;
          else if (src.startsWith(close, i)) {
            i += close.length;
            break;
          } else i++;
        }
        add('"', startLine, start);
      } else if (c === "'") {
        const start = i;
        // A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a, 'static).
        const m = /^'(?:\\(?:u\{[0-9A-Fa-f]{1,6}\}|x[0-9A-Fa-f]{2}|.)|[^\\'\n])'/u.exec(src.slice(i, i + 12));
        if (m) {
          i += m[0].length;
          push('"', start);
        } else {
          i++;
          while (i < n && IDENT_REST.test(src[i]!)) i++;
          push("'", start);
        }
      } else if (wordStart(src.charCodeAt(i))) {
        const start = i;
        const raw = c === "r" && src[i + 1] === "#" && IDENT.test(src[i + 2] ?? "");
        i = runEnd(WORD_REST, src, raw ? i + 2 : i);
        push(src.slice(raw ? start + 2 : start, i), start);
      } else if (/[0-9]/.test(c)) {
        const start = i;
        i = runEnd(NUMBER_REST, src, i);
        push("0", start);
      } else if (c === ":" && src[i + 1] === ":") {
        i += 2;
        push("::", i - 2);
      } else {
        i++;
        push(c, i - 1);
      }
    }
    this.i = i;
    this.line = line;
  }
}
