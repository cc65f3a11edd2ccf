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
  const text = source.length > MAX_SOURCE ? source.slice(0, MAX_SOURCE) : source;
  const sites: ScannedSite[] = [];
  const stack: Frame[] = [];
  let header = "";
  let attrs: string[] = [];
  let parens = 0;
  let macro: { name: string; line: number; column: number } | null = null;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const n = text.length;
  const take = (to: number) => {
    for (let k = i; k < to; k++)
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    i = to;
  };
  while (i < n) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      take(end < 0 ? n : end);
      continue;
    }
    if (c === "/" && next === "*") {
      let depth = 1;
      let k = i + 2;
      while (k < n && depth > 0) {
        if (text[k] === "/" && text[k + 1] === "*") {
          depth++;
          k += 2;
        } else if (text[k] === "*" && text[k + 1] === "/") {
          depth--;
          k += 2;
        } else k++;
      }
      take(k);
      continue;
    }
    if (c === "#" && (next === "[" || (next === "!" && text[i + 2] === "["))) {
      let depth = 0;
      let k = i;
      for (; k < n; k++) {
        if (text[k] === "[") depth++;
        else if (text[k] === "]" && --depth === 0) break;
        else if (text[k] === '"') k = skipString(text, k);
      }
      const attr = text.slice(i, k + 1);
      if (CFG.test(attr)) attrs.push(attr);
      take(Math.min(n, k + 1));
      continue;
    }
    const raw =
      (c === "r" || c === "b") && (i === 0 || !/\w/.test(text[i - 1]!))
        ? /^b?r(#*)"/.exec(text.slice(i, i + 40))
        : null;
    if (c === '"' || raw) {
      const startLine = line;
      const column = i - lineStart + 1;
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
        body = unescapeRust(text.slice(i + 1, end - 1));
      }
      if (body.includes(message)) {
        // A panic's printed location is its macro's, which may sit lines above a long message.
        const m = /(\w+)!\s*[([{]\s*$/.exec(header);
        const at = m && macro?.name === m[1] ? macro : null;
        const top = stack.at(-1);
        const cfg = attrs.at(-1) ?? top?.cfg ?? null;
        sites.push({
          line: at?.line ?? startLine,
          column: at?.column ?? column,
          macro: m ? `${m[1]}!` : null,
          item: itemPath(top?.named ?? null),
          cfg,
        });
        if (sites.length >= MAX_SITES) return sites;
      }
      header += ' ""';
      take(Math.min(n, end));
      continue;
    }
    if (c === "'" && /^'(?:\\.|[^\\'])'/.test(text.slice(i, i + 12))) {
      take(text.indexOf("'", i + 2) + 1);
      continue;
    }
    if (c === "!") {
      const id = /(\w+)$/.exec(header);
      if (id) macro = { name: id[1]!, line, column: i - lineStart + 1 - id[1]!.length };
    }
    if (c === "{") {
      const parent = stack.at(-1);
      const name = itemName(header);
      const named = name ? { name, parent: parent?.named ?? null } : (parent?.named ?? null);
      stack.push({ header, attrs, parens, cfg: attrs.at(-1) ?? parent?.cfg ?? null, named });
      header = "";
      attrs = [];
      parens = 0;
    } else if (c === "}") {
      parens = stack.pop()?.parens ?? 0;
      header = "";
      attrs = [];
    } else if (c === ";" || (c === "," && parens === 0 && header.includes("=>"))) {
      header = "";
      attrs = [];
    } else {
      if (c === "(" || c === "[") parens++;
      else if (c === ")" || c === "]") parens = Math.max(0, parens - 1);
      // Only the tail of a header matters (the item keyword, the macro name); keep it bounded.
      header = header.length < 400 ? header + c : header.slice(200) + c;
    }
    take(i + 1);
  }
  return sites;
}

/** Index of the closing quote of the string that opens at `start`. */
function skipString(text: string, start: number): number {
  let k = start + 1;
  while (k < text.length && text[k] !== '"') k += text[k] === "\\" ? 2 : 1;
  return Math.min(k, text.length - 1);
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
