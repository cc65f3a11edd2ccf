// Thin, typed access to the span-aware TOML AST (toml-eslint-parser) plus an independent
// second opinion from @iarna/toml. Ranges are UTF-16 offsets into the JS string, which is what
// String.prototype.slice uses, so edits never split a surrogate pair or a multi-byte character.
// The string parser alone: the package's index also loads its stream parser, and node:stream with it.
import parseToml from "@iarna/toml/parse-string.js";
import type { AST } from "toml-eslint-parser";
import { getStaticTOMLValue, parseTOML } from "toml-eslint-parser";
import { TomlError } from "./toml-error.js";
import { guardToml } from "./toml-guard.js";

export type TomlNode = AST.TOMLNode;
export type KeyValue = AST.TOMLKeyValue;
export type Table = AST.TOMLTable;
export type Program = AST.TOMLProgram;

export { TomlError };

/** cargo accepts a UTF-8 byte-order mark; a space in its place keeps every offset the same. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
}

export function parseSpans(text: string): Program {
  guardToml(text);
  try {
    return parseTOML(withoutBom(text));
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number; column?: number };
    if (typeof err.lineNumber === "number")
      throw new TomlError(err.message ?? "invalid TOML", err.lineNumber, (err.column ?? 0) + 1);
    throw new TomlError(String(err.message ?? e), 1, 1);
  }
}

/** The independent parser used to verify every edit (and to catch what the span parser accepts). */
export function parsePlain(text: string): Record<string, unknown> {
  guardToml(text);
  try {
    // @iarna/toml rejects the CR of a CRLF that ends a comment line; line endings carry no
    // meaning outside multi-line strings, so both sides of every comparison are normalised.
    return flatStrings(parseToml(withoutBom(text).replace(/\r\n/g, "\n")) as Record<string, unknown>);
  } catch (e) {
    const err = e as { message?: string; line?: number; col?: number };
    const first = String(err.message ?? e)
      .split("\n")[0]!
      .replace(/ at row \d+, col \d+, pos \d+:?$/, "");
    throw new TomlError(first, (err.line ?? 0) + 1, (err.col ?? 0) + 1);
  }
}

/** Strings shorter than this are left as the parser made them: what one holds is bounded by it. */
const FLAT_FROM = 64;

/**
 * The parsed value with every long string a flat copy, in place (the parser's tables keep their
 * marks). @iarna/toml builds a string a character at a time, and V8 keeps such a string as a rope
 * of one 32-byte node a character: a pasted 30 KB requirement held 1.9 MiB for as long as its
 * parsed manifest was kept (manifest.ts keeps recent ones, bounded by their texts' length), so
 * the first 30 long requirements held 33 MiB. JSON.parse returns a flat string. Nesting is capped
 * (toml-guard.ts), so the recursion is.
 */
function flatStrings<T>(v: T): T {
  if (typeof v === "string") return (v.length >= FLAT_FROM ? JSON.parse(JSON.stringify(v)) : v) as T;
  if (v === null || typeof v !== "object" || v instanceof Date) return v;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const flat = flatStrings(o[k]);
    // defineProperty, not assignment: a TOML key may be `__proto__`.
    if (flat !== o[k])
      Object.defineProperty(o, k, { value: flat, writable: true, enumerable: true, configurable: true });
  }
  return v;
}

export function staticValue(node: TomlNode): unknown {
  return getStaticTOMLValue(node as AST.TOMLValue);
}

export function keyNames(kv: KeyValue): string[] {
  return kv.key.keys.map((k) => (k.type === "TOMLBare" ? k.name : String(k.value)));
}

/** Line numbers for many offsets into one text: one pass to index, a binary search per lookup. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** Line (1-based) of a UTF-16 offset. */
export function lineOf(text: string, offset: number): number {
  return lineIndex(text)(offset);
}
