// Thin, typed access to the span-aware TOML AST (toml-eslint-parser) plus an independent
// second opinion from @iarna/toml. Ranges are UTF-16 offsets into the JS string, which is what
// String.prototype.slice uses, so edits never split a surrogate pair or a multi-byte character.
import iarna from "@iarna/toml";
import { getStaticTOMLValue, parseTOML } from "toml-eslint-parser";
import type { AST } from "toml-eslint-parser";

export type TomlNode = AST.TOMLNode;
export type KeyValue = AST.TOMLKeyValue;
export type Table = AST.TOMLTable;
export type Program = AST.TOMLProgram;

export class TomlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${line}:${column}: ${message}`);
    this.name = "TomlError";
  }
}

export function parseSpans(text: string): Program {
  try {
    return parseTOML(text);
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number; column?: number };
    if (typeof err.lineNumber === "number") throw new TomlError(err.message ?? "invalid TOML", err.lineNumber, (err.column ?? 0) + 1);
    throw new TomlError(String(err.message ?? e), 1, 1);
  }
}

/** The independent parser used to verify every edit (and to catch what the span parser accepts). */
export function parsePlain(text: string): Record<string, unknown> {
  try {
    // @iarna/toml rejects the CR of a CRLF that ends a comment line; line endings carry no
    // meaning outside multi-line strings, so both sides of every comparison are normalised.
    return iarna.parse(text.replace(/\r\n/g, "\n")) as Record<string, unknown>;
  } catch (e) {
    const err = e as { message?: string; line?: number; col?: number };
    const first = String(err.message ?? e).split("\n")[0]!.replace(/ at row \d+, col \d+, pos \d+:?$/, "");
    throw new TomlError(first, (err.line ?? 0) + 1, (err.col ?? 0) + 1);
  }
}

export function staticValue(node: TomlNode): unknown {
  return getStaticTOMLValue(node as AST.TOMLValue);
}

export function keyNames(kv: KeyValue): string[] {
  return kv.key.keys.map((k) => (k.type === "TOMLBare" ? k.name : String(k.value)));
}

/** Line (1-based) of a UTF-16 offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
