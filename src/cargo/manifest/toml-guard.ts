// A linear pre-pass over TOML text before either parser sees it. Both parsers recurse per
// nesting level and per dotted-key segment, so a 10 KB file of `[[[[…` overflows the stack;
// and both do work proportional to the file, so the size is capped first.
import { TomlError } from "./toml-error.js";

/** GitHub's own limit for an issue body; far above any real Cargo.toml (burn's workspace root is ~10 KB). */
export const MAX_TOML_CHARS = 64 * 1024;
/** Arrays, inline tables and dotted-key segments, counted together along one path. */
export const MAX_TOML_DEPTH = 100;

/** Position (1-based line and column) of a UTF-16 offset, computed only when an error is raised. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

function fail(text: string, offset: number, message: string): never {
  const { line, column } = position(text, offset);
  throw new TomlError(message, line, column);
}

/**
 * Throws a TomlError (with line and column) when the text is too large or nests too deeply;
 * strings and comments are skipped, so brackets and dots inside them do not count.
 */
export function guardToml(text: string): void {
  if (text.length > MAX_TOML_CHARS)
    throw new TomlError(
      `the file is ${text.length} characters long; manifests over ${MAX_TOML_CHARS} are not read`,
      1,
      1,
    );
  let depth = 0;
  let dots = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? n : nl - 1;
    } else if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
      const q = text[i]!;
      if (text.startsWith(q.repeat(3), i)) {
        const end = text.indexOf(q.repeat(3), i + 3);
        i = end < 0 ? n : end + 2;
        // A multi-line string may end with up to two extra quotes (`""""` is legal).
        while (text[i + 1] === q) i++;
      } else {
        let j = i + 1;
        while (j < n && text[j] !== q && text[j] !== "\n") j += q === '"' && text[j] === "\\" ? 2 : 1;
        i = j;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth + dots > MAX_TOML_DEPTH) fail(text, i, `nested more than ${MAX_TOML_DEPTH} levels deep`);
      dots = 0;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth = Math.max(0, depth - 1);
      dots = 0;
    } else if (c === 0x2e /* . */) {
      if (++dots + depth > MAX_TOML_DEPTH) fail(text, i, `a dotted key with more than ${MAX_TOML_DEPTH} parts`);
    } else if (c === 0x0a || c === 0x3d /* = */ || c === 0x2c /* , */) {
      dots = 0;
    }
  }
}
