// Finds a message's string literals in one Rust source file and says, for each, the item around
// it (`impl AutodiffBackend for Dispatch > fn backward`), the macro that prints it and the
// innermost `#[cfg]` that gates it. One pass over the characters, with a stack of open blocks:
// linear in the file, so a hostile or huge file costs its length and nothing more.

export interface ScannedSite {
  line: number;
  column: number;
  /** `unimplemented!`, `panic!`, `compile_error!`…; null for a bare literal. */
  macro: string | null;
  item: string;
  /** The innermost `#[cfg(...)]` on the statement, arm or an enclosing item, verbatim. */
  cfg: string | null;
}

/** Source files above this are not scanned (burn's largest file is far below it). */
export const MAX_SOURCE = 1024 * 1024;

/** Named items enclosing a block, innermost first, shared by every frame below them. */
interface Named {
  name: string;
  parent: Named | null;
}

interface Frame {
  header: string;
  attrs: string[];
  parens: number;
  /** The innermost `#[cfg]` of this block or an enclosing one: kept per frame, so a site costs O(1). */
  cfg: string | null;
  named: Named | null;
}

/** A file with more matching literals than this is not one of burn's (it has one to three). */
export const MAX_SITES = 64;
/** Item names shown per site (`impl … > fn …` is two). */
const MAX_ITEM_DEPTH = 8;

function itemPath(named: Named | null): string {
  const names: string[] = [];
  for (let n = named; n && names.length < MAX_ITEM_DEPTH; n = n.parent) names.push(n.name);
  return names.reverse().join(" > ");
}

const ITEM =
  /^(?:pub(?:\([^)]*\))?\s+)?(?:(?:unsafe|async|const|extern\s+"[^"]*")\s+)*(impl\b.*|fn\s+\w+|mod\s+\w+|trait\s+\w+|macro_rules!\s*\w+)/s;

function itemName(header: string): string | null {
  const m = ITEM.exec(header.replace(/\s+/g, " ").trim());
  if (!m) return null;
  let h = m[1]!;
  if (h.startsWith("fn ") || h.startsWith("mod ") || h.startsWith("trait ") || h.startsWith("macro_rules"))
    return h.split(/[<(]/)[0]!.trim();
  // `impl<B: Backend> Foo<B> for Bar where …` → `impl Foo for Bar`, the way the catalog names it.
  h = h.replace(/\swhere\s.*$/, "");
  let out = "";
  let depth = 0;
  for (const ch of h) {
    if (ch === "<") depth++;
    else if (ch === ">") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out.replace(/\s+/g, " ").trim();
}

const CFG = /^#!?\[\s*cfg\s*\(/;

/** Every occurrence of `message` (the literal text, placeholders included) in `source`. */
export function scanSource(source: string, message: string): ScannedSite[] {
  return new SourceScanner(source.length > MAX_SOURCE ? source.slice(0, MAX_SOURCE) : source, message).run();
}

/** One pass over one file: `i` only moves forward, each token kind has its method. */
class SourceScanner {
  private readonly sites: ScannedSite[] = [];
  private readonly stack: Frame[] = [];
  /** The text since the last `{`, `}` or `;` (bounded): the item keyword, the macro name. */
  private header = "";
  /** `#[cfg]` attributes seen since then. */
  private attrs: string[] = [];
  private parens = 0;
  /** The last `name!` seen: where a panic's printed location is. */
  private macro: { name: string; line: number; column: number } | null = null;
  private line = 1;
  private lineStart = 0;
  private i = 0;

  /** The message's longest run that no escape can write (see mayHold). */
  private readonly anchor: string;

  constructor(
    private readonly text: string,
    private readonly message: string,
  ) {
    this.anchor = anchorOf(message);
  }

  run(): ScannedSite[] {
    const { text } = this;
    const n = text.length;
    while (this.i < n && this.sites.length < MAX_SITES) {
      const i = this.i;
      const c = text[i]!;
      const next = text[i + 1];
      const raw =
        (c === "r" || c === "b") && (i === 0 || !/\w/.test(text[i - 1]!))
          ? /^b?r(#*)"/.exec(text.slice(i, i + 40))
          : null;
      if (c === "/" && next === "/") {
        const end = text.indexOf("\n", i);
        this.take(end < 0 ? n : end);
      } else if (c === "/" && next === "*") this.take(blockCommentEnd(text, i));
      else if (c === "#" && (next === "[" || (next === "!" && text[i + 2] === "["))) this.attribute();
      else if (c === '"' || raw) this.literal(raw);
      else if (c === "'" && /^'(?:\\.|[^\\'])'/.test(text.slice(i, i + 12))) this.take(text.indexOf("'", i + 2) + 1);
      else this.punctuation(c);
    }
    return this.sites;
  }

  /** Moves to `to`, counting the newlines passed. */
  private take(to: number): void {
    for (let k = this.i; k < to; k++)
      if (this.text.charCodeAt(k) === 10) {
        this.line++;
        this.lineStart = k + 1;
      }
    this.i = to;
  }

  private attribute(): void {
    const { text, i } = this;
    let depth = 0;
    let k = i;
    for (; k < text.length; k++) {
      if (text[k] === "[") depth++;
      else if (text[k] === "]" && --depth === 0) break;
      else if (text[k] === '"') k = skipString(text, k);
    }
    const attr = text.slice(i, k + 1);
    if (CFG.test(attr)) this.attrs.push(attr);
    this.take(Math.min(text.length, k + 1));
  }

  private literal(raw: RegExpExecArray | null): void {
    const { text, i } = this;
    const n = text.length;
    const startLine = this.line;
    const column = i - this.lineStart + 1;
    let end: number;
    let body: string;
    if (raw) {
      const close = `"${raw[1]}`;
      const from = i + raw[0].length;
      const at = text.indexOf(close, from);
      end = at < 0 ? n : at + close.length;
      body = text.slice(from, at < 0 ? n : at);
    } else {
      end = skipString(text, i) + 1;
      const inner = text.slice(i + 1, end - 1);
      body = mayHold(inner, this.anchor) ? unescapeRust(inner) : "";
    }
    if (body.includes(this.message)) {
      // A panic's printed location is its macro's, which may sit lines above a long message.
      const m = /(\w+)!\s*[([{]\s*$/.exec(this.header);
      const at = m && this.macro?.name === m[1] ? this.macro : null;
      const top = this.stack.at(-1);
      this.sites.push({
        line: at?.line ?? startLine,
        column: at?.column ?? column,
        macro: m ? `${m[1]}!` : null,
        item: itemPath(top?.named ?? null),
        cfg: this.attrs.at(-1) ?? top?.cfg ?? null,
      });
    }
    this.header += ' ""';
    this.take(Math.min(n, end));
  }

  /** Blocks open and close; a statement or a match arm ends; anything else extends the header. */
  private punctuation(c: string): void {
    if (c === "!") {
      const id = /(\w+)$/.exec(this.header);
      if (id) this.macro = { name: id[1]!, line: this.line, column: this.i - this.lineStart + 1 - id[1]!.length };
    }
    if (c === "{") {
      const parent = this.stack.at(-1);
      const name = itemName(this.header);
      const named = name ? { name, parent: parent?.named ?? null } : (parent?.named ?? null);
      const cfg = this.attrs.at(-1) ?? parent?.cfg ?? null;
      this.stack.push({ header: this.header, attrs: this.attrs, parens: this.parens, cfg, named });
      this.endHeader();
      this.parens = 0;
    } else if (c === "}") {
      this.parens = this.stack.pop()?.parens ?? 0;
      this.endHeader();
    } else if (c === ";" || (c === "," && this.parens === 0 && this.header.includes("=>"))) {
      this.endHeader();
    } else {
      if (c === "(" || c === "[") this.parens++;
      else if (c === ")" || c === "]") this.parens = Math.max(0, this.parens - 1);
      // Only the tail of a header matters (the item keyword, the macro name); keep it bounded.
      this.header = this.header.length < 400 ? this.header + c : this.header.slice(200) + c;
    }
    this.take(this.i + 1);
  }

  private endHeader(): void {
    this.header = "";
    this.attrs = [];
  }
}

/** Index just past the block comment (nested, as Rust's are) that opens at `start`. */
export function blockCommentEnd(text: string, start: number): number {
  let depth = 1;
  let k = start + 2;
  while (k < text.length && depth > 0) {
    if (text[k] === "/" && text[k + 1] === "*") {
      depth++;
      k += 2;
    } else if (text[k] === "*" && text[k + 1] === "/") {
      depth--;
      k += 2;
    } else k++;
  }
  return k;
}

/** Index of the closing quote of the string that opens at `start`. */
function skipString(text: string, start: number): number {
  let k = start + 1;
  while (k < text.length && text[k] !== '"') k += text[k] === "\\" ? 2 : 1;
  return Math.min(k, text.length - 1);
}

/**
 * The message's longest run of characters that a simple escape cannot write and a line
 * continuation cannot interrupt: not whitespace, not `\`, `"` or `'`.
 */
export function anchorOf(message: string): string {
  return message.split(/[\s\\"']+/).reduce((a, b) => (b.length > a.length ? b : a), "");
}

/**
 * Whether a string literal's raw text may hold the message once unescaped, by native searches
 * only: unescaping costs a call per escape (a 1 MiB line of `"\` took 170 ms idle), and a
 * literal without the message's anchor cannot hold it. In the unescaped text the anchor's
 * characters come from raw characters, with at most line continuations between them (`\`, the
 * newline, the indent), which are removed here first; `\u{…}` can write any character, so a
 * literal with one is unescaped whole.
 */
export function mayHold(inner: string, anchor: string): boolean {
  if (anchor === "" || inner.includes("\\u{")) return true;
  if (inner.includes(anchor)) return true;
  return inner.includes("\\\n") && inner.replace(/\\\n\s*/g, "").includes(anchor);
}

/** Rust string escapes, and `\` line continuations (which drop the newline and the indent). */
function unescapeRust(s: string): string {
  return s.replace(/\\(?:\n\s*|n|t|r|0|\\|"|'|u\{([0-9a-fA-F]+)\})/g, (m, hex: string | undefined) => {
    if (hex) {
      // rustc refuses `\u{110000}` and surrogates; here they are one replacement character, never a throw.
      const cp = Number.parseInt(hex.slice(0, 8), 16);
      return cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : "\ufffd";
    }
    if (m.startsWith("\\\n")) return "";
    return (
      (
        { "\\n": "\n", "\\t": "\t", "\\r": "\r", "\\0": "\0", "\\\\": "\\", '\\"': '"', "\\'": "'" } as Record<
          string,
          string
        >
      )[m] ?? m
    );
  });
}
