// Where a method or associated item of an inherent impl is written in one Rust file, with every
// `#[cfg(...)]` on its impl block and on the item itself: what gates `Tensor::backward` (a cfg on
// the whole `impl<const D: usize> Tensor<D>` block) or `Device::cuda` (a cfg on the fn). For
// releases newer than the gated-path data. One pass over the file's tokens; the file is capped
// where it is read (MAX_RUST_FILE).
import { rustTokens, type Tok } from "./rust-lexer.js";

export interface MemberSite {
  /** The impl block's cfgs, then the item's, each with the line of its `#[cfg`. */
  cfgs: Array<{ cfg: string; line: number }>;
  /** The line of the item's `fn` / `const` / `type`. */
  line: number;
}

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };

/** The index past the group that opens at `i` (brackets, or `<…>` when `angles`). */
function past(toks: Tok[], i: number, angles: boolean): number {
  const stack: string[] = [];
  do {
    const t = toks[i]?.t;
    if (t === undefined) return i;
    if (OPEN[t] && (angles || t !== "<")) stack.push(OPEN[t]!);
    else if (t === stack.at(-1)) stack.pop();
    i++;
  } while (stack.length > 0);
  return i;
}

/** `#[cfg(…)]` at `i`: its predicate and the index past it; any other attribute: no predicate. */
function attribute(src: string, toks: Tok[], i: number): { cfg: string | null; next: number } {
  const next = past(toks, i + 1, false);
  const isCfg = toks[i + 2]?.t === "cfg" && toks[i + 3]?.t === "(";
  const cfg = isCfg
    ? src
        .slice(toks[i + 4]!.start, toks[next - 2]!.start)
        .replace(/\s+/g, " ")
        .trim()
    : null;
  return { cfg, next };
}

/** The self type of an inherent impl header (`impl<const D: usize> Tensor<D>`), null for a trait impl. */
function selfType(toks: Tok[], from: number, to: number): string | null {
  let i = toks[from]?.t === "<" ? past(toks, from, true) : from;
  let last: string | null = null;
  while (i < to) {
    const t = toks[i]!.t;
    if (t === "for" && toks[i + 1]?.t !== "<") return null;
    if (t === "where") break;
    if (t === "<") i = past(toks, i, true);
    else {
      if (/^[A-Za-z_]\w*$/.test(t) && t !== "dyn" && t !== "mut") last = t;
      i++;
    }
  }
  return last;
}

/** The first inherent impl item `name` of `type` in `src`, or null (not written in this file). */
export function memberSite(src: string, type: string, name: string): MemberSite | null {
  const toks = rustTokens(src);
  let pending: MemberSite["cfgs"] = [];
  for (let i = 0; i < toks.length; ) {
    const t = toks[i]!.t;
    if (t === "#" && toks[i + 1]?.t === "[") {
      const a = attribute(src, toks, i);
      if (a.cfg) pending.push({ cfg: a.cfg, line: toks[i]!.line });
      i = a.next;
    } else if (t === "impl") {
      let open = i + 1;
      while (open < toks.length && toks[open]!.t !== "{" && toks[open]!.t !== ";")
        open = toks[open]!.t === "<" ? past(toks, open, true) : open + 1;
      const end = past(toks, open, false);
      if (selfType(toks, i + 1, open) === type) {
        const hit = inBody(src, toks, open + 1, end - 1, name);
        if (hit) return { cfgs: [...pending, ...hit.cfgs], line: hit.line };
      }
      pending = [];
      i = end;
    } else {
      if (OPEN[t] && t !== "<") i = past(toks, i, false);
      else i++;
      if (t === ";" || t === "{" || t === "}") pending = [];
    }
  }
  return null;
}

/** `fn name`, `const NAME` or `type Name` among the items of one impl body (tokens from..to). */
function inBody(src: string, toks: Tok[], from: number, to: number, name: string): MemberSite | null {
  let pending: MemberSite["cfgs"] = [];
  for (let i = from; i < to; ) {
    const t = toks[i]!.t;
    if (t === "#" && toks[i + 1]?.t === "[") {
      const a = attribute(src, toks, i);
      if (a.cfg) pending.push({ cfg: a.cfg, line: toks[i]!.line });
      i = a.next;
      continue;
    }
    if ((t === "fn" || t === "const" || t === "type") && toks[i + 1]?.t === name)
      return { cfgs: pending, line: toks[i]!.line };
    if (t === "{" || t === "(" || t === "[") {
      i = past(toks, i, false);
      // A fn's body ends its item; a `(…)` or `[…]` is inside a signature.
      if (t === "{") pending = [];
      continue;
    }
    if (t === ";") pending = [];
    i++;
  }
  return null;
}
