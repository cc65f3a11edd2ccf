// The module-level items of one Rust source file, as name resolution needs them: `mod`
// declarations (inline bodies parsed too), `use` declarations (with src/compile/use-tree.ts), and
// the names items define, each with its `#[cfg(...)]` and line. Bodies of functions, impls and
// types are skipped by bracket matching, never parsed. One pass over the characters to tokens and
// one over the tokens: linear in the file, which is capped (a file comes through the contents API).

import { IDENT, Lexer, type Tokens } from "./rust-lexer.js";
import { type Import, useTree } from "./use-tree.js";

/** burn's lib.rs and mod.rs files are a few KiB; a bigger file is not followed (the path stays unknown). */
export const MAX_RUST_FILE = 128 * 1024;
/** Files kept parsed: an event's rounds of reads parse each file once, not once per round. */
const MEMO = 32;
const memo = new Map<string, RustModule | null>();
const MAX_MOD_DEPTH = 16;
const MAX_IMPORTS = 4096;
/**
 * Items read per file: past it the file is opaque, never "absent". burn's files hold at most 122
 * (every .rs file at v0.16.0, v0.18.0, v0.20.1, v0.21.0, v0.22.0-pre.2 and main, counted
 * 2026-12-07). At 2,048, two lib.rs of 2,000 globs were read whole, most of that event's stall.
 */
const MAX_ITEMS = 1024;

export interface RustItem {
  kind: "mod" | "use" | "def";
  /** The name in scope (for a use: its alias or last segment); null for a glob. */
  name: string | null;
  pub: boolean;
  /** Every `#[cfg(...)]` on the item, each verbatim (whitespace collapsed). */
  cfgs: string[];
  line: number;
  /** Line of the last `#[cfg]`, when there is one. */
  cfgLine: number | null;
  /** mod: its items when written inline, null when they are in another file. */
  body?: RustModule | null;
  /** mod: a `#[path]` attribute moves the file where this reader does not follow. */
  pathAttr?: boolean;
  /** use: the imported path and whether it is a glob. */
  import?: Import;
}

export interface RustModule {
  items: RustItem[];
  /** The module's inner `#![cfg(...)]`s. */
  cfgs: string[];
  /** Item-level macro calls may define names this reader cannot see: "absent" is never said. */
  opaque: boolean;
}

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const DEFINES = new Set(["struct", "enum", "union", "trait", "type", "fn", "const", "static"]);
const QUALIFIERS = new Set(["unsafe", "async", "default", "auto", "extern", "safe"]);

class ItemReader {
  i = 0;
  private readonly toks: Tokens;
  /** Stopped (MAX_ITEMS): no token is asked for past here. */
  private ended = false;
  constructor(
    private readonly lexer: Lexer,
    private readonly src: string,
  ) {
    this.toks = lexer.out;
  }

  /** The token `k` after the current one. Tokens before the current one are all made already. */
  private at(k = 0): string | undefined {
    if (this.ended) return undefined;
    const j = this.i + k;
    if (j >= this.toks.t.length) this.lexer.fill(j + 256);
    return this.toks.t[j];
  }

  /** Past the bracketed group that starts at the current token; linear over the group. */
  private skipGroup(): void {
    const stack: string[] = [];
    do {
      const t = this.at();
      if (t === undefined) return;
      if (OPEN[t]) stack.push(OPEN[t]!);
      else if (t === stack.at(-1)) stack.pop();
      this.i++;
    } while (stack.length > 0);
  }

  /** Past the end of an item: its `;`, or the `}` of its body when no `;` follows at that level. */
  private skipItem(endsWithSemicolon: boolean): void {
    while (this.at() !== undefined) {
      const t = this.at()!;
      if (t === ";") {
        this.i++;
        return;
      }
      if (t === "}") return;
      if (OPEN[t]) {
        const brace = t === "{";
        this.skipGroup();
        if (brace && !endsWithSemicolon) return;
      } else this.i++;
    }
  }

  private text(from: number, to: number): string {
    return this.src.slice(this.toks.start[from], this.toks.end[to]).replace(/\s+/g, " ");
  }

  /** `#[…]` or `#![…]` at the current token: its content's token range. */
  private attribute(): { inner: boolean; from: number; to: number } | null {
    if (this.at() !== "#") return null;
    const inner = this.at(1) === "!";
    if (this.at(inner ? 2 : 1) !== "[") return null;
    this.i += inner ? 2 : 1;
    const open = this.i;
    this.skipGroup();
    return { inner, from: open + 1, to: this.i - 2 };
  }

  private items = 0;
  /** Stopped at MAX_ITEMS: every module of the file may miss names. */
  truncated = false;

  module(depth: number): RustModule {
    const mod: RustModule = { items: [], cfgs: [], opaque: false };
    while (this.at() !== undefined && this.at() !== "}") {
      const before = mod.items.length;
      this.item(mod, depth);
      this.items += mod.items.length - before;
      if (this.items > MAX_ITEMS) {
        this.truncated = true;
        this.ended = true;
      }
    }
    return mod;
  }

  /** `#[cfg_attr(pred, path = "x.rs")]`: in some builds the file is elsewhere, so the module is opaque. */
  private setsPath(from: number, to: number): boolean {
    for (let k = from; k < to; k++) if (this.toks.t[k] === "path" && this.toks.t[k + 1] === "=") return true;
    return false;
  }

  /** The item's outer attributes (inner `#![cfg]`s go to the module). */
  private attributes(mod: RustModule): { cfgs: string[]; cfgLine: number | null; pathAttr: boolean } {
    const out = { cfgs: [] as string[], cfgLine: null as number | null, pathAttr: false };
    for (let a = this.attribute(); a; a = this.attribute()) {
      if (a.to < a.from) continue;
      const name = this.toks.t[a.from]!;
      if (name === "cfg" && this.toks.t[a.from + 1] === "(" && a.to > a.from + 2) {
        const cfg = this.text(a.from + 2, a.to - 1);
        if (a.inner) mod.cfgs.push(cfg);
        else {
          out.cfgs.push(cfg);
          out.cfgLine = this.toks.line[a.from]!;
        }
      } else if (name === "path" || (name === "cfg_attr" && this.setsPath(a.from, a.to))) out.pathAttr = true;
    }
    return out;
  }

  /** `pub` (not `pub(crate)`) and the qualifiers before the item's keyword. */
  private visibility(): boolean {
    let pub = false;
    if (this.at() === "pub") {
      this.i++;
      if (this.at() === "(") this.skipGroup();
      else pub = true;
    }
    while (
      (QUALIFIERS.has(this.at() ?? "") && !(this.at() === "extern" && this.at(1) === "crate")) ||
      (this.at() === "const" && /^(?:fn|unsafe|async|extern)$/.test(this.at(1) ?? ""))
    ) {
      this.i++;
      if (this.at() === '"') this.i++; // extern "C"
    }
    return pub;
  }

  private modItem(mod: RustModule, depth: number, base: Omit<RustItem, "kind" | "name">): void {
    const name = this.at(1)!;
    this.i += 2;
    let body: RustModule | null = null;
    if (this.at() === "{" && depth < MAX_MOD_DEPTH) {
      this.i++;
      body = this.module(depth + 1);
      this.i++;
    } else if (this.at() === "{") {
      this.skipGroup();
      mod.opaque = true;
    } else this.i++;
    mod.items.push({ ...base, kind: "mod", name, body });
  }

  private useItem(mod: RustModule, base: Omit<RustItem, "kind" | "name">): void {
    this.i++;
    const from = this.i;
    while (this.at() !== undefined && this.at() !== ";" && this.at() !== "}") this.i++;
    const toks = this.toks.t.slice(from, this.i);
    if (this.at() === ";") this.i++;
    // The fields written out: a spread of `base` here was most of reading 2,000 `pub use` lines
    // (6.6 of 15 ms, once compiled).
    const { pub, cfgs, line, cfgLine } = base;
    for (const imp of useTree(toks, MAX_IMPORTS))
      mod.items.push({ pub, cfgs, line, cfgLine, kind: "use", name: imp.name, import: imp });
  }

  private item(mod: RustModule, depth: number): void {
    const { cfgs, cfgLine, pathAttr } = this.attributes(mod);
    if (this.at() === undefined || this.at() === "}") return;
    const line = this.toks.line[this.i]!;
    const pub = this.visibility();
    const kw = this.at();
    const base = { pub, cfgs, line, cfgLine };
    if (kw === "mod" && this.at(1) !== undefined) this.modItem(mod, depth, { ...base, pathAttr });
    else if (kw === "use") this.useItem(mod, base);
    else if (kw === "extern" && this.at(1) === "crate") {
      // `extern crate burn_core as core;`: the crate under a name.
      const crate = this.at(2) ?? "";
      const alias = this.at(3) === "as" ? (this.at(4) ?? crate) : crate;
      this.skipItem(true);
      mod.items.push({ ...base, kind: "use", name: alias, import: { segs: [crate], name: alias, glob: false } });
    } else if (kw === "macro_rules" && this.at(1) === "!") {
      const name = this.at(2) ?? null;
      this.i += 3;
      this.skipItem(false);
      mod.items.push({ ...base, kind: "def", name });
    } else if (kw !== undefined && DEFINES.has(kw)) {
      const name = this.at(1) ?? null;
      this.i++;
      this.skipItem(kw === "const" || kw === "static" || kw === "type");
      if (name && IDENT.test(name) && name !== "_") mod.items.push({ pub, cfgs, line, cfgLine, kind: "def", name });
    } else if (this.at(1) === "!") {
      // A macro call at item level (`foo! { … }`, `foo!(…);`) may define any name.
      mod.opaque = true;
      this.i += 2;
      if (IDENT.test(this.at() ?? "")) this.i++;
      this.skipGroup();
      if (this.at() === ";") this.i++;
    } else {
      // impl blocks and `extern { … }` define no path a user writes.
      const before = this.i;
      this.skipItem(false);
      if (this.i === before) this.i++;
    }
  }

  /** Past a `}` that closes nothing at the top level; false at the end of the file. */
  advancePastStray(): boolean {
    if (this.at() === undefined) return false;
    this.i++;
    return true;
  }
}

/** The items of a Rust file (null above MAX_RUST_FILE or when it holds a NUL: not a source file). */
export function rustItems(src: string): RustModule | null {
  if (memo.has(src)) return memo.get(src)!;
  const out = parseItems(src);
  if (memo.size >= MEMO) memo.delete(memo.keys().next().value!);
  memo.set(src, out);
  return out;
}

function markOpaque(mod: RustModule): void {
  mod.opaque = true;
  for (const i of mod.items) if (i.body) markOpaque(i.body);
}

function parseItems(src: string): RustModule | null {
  if (src.length > MAX_RUST_FILE || src.includes("\u0000")) return null;
  const r = new ItemReader(new Lexer(src), src);
  const mod: RustModule = { items: [], cfgs: [], opaque: false };
  // A stray `}` at the top level is skipped, not the end of the file.
  do {
    const part = r.module(0);
    mod.items.push(...part.items);
    mod.cfgs.push(...part.cfgs);
    mod.opaque ||= part.opaque;
  } while (r.advancePastStray());
  if (r.truncated) markOpaque(mod);
  return mod;
}
