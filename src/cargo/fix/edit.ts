// Minimal, style-keeping text edits to a Cargo.toml (in the spirit of toml_edit / `cargo add`):
// every byte outside the edited span stays as it was.
import type { DepDecl } from "../manifest/manifest.js";
import { type KeyValue, keyNames } from "../manifest/toml.js";

export interface TextEdit {
  start: number;
  end: number;
  insert: string;
}

export interface Edited {
  text: string;
  /** Span of the original text that changed (UTF-16 offsets). */
  start: number;
  end: number;
}

export class EditError extends Error {}

export function applyEdits(text: string, edits: TextEdit[]): Edited {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.insert + out.slice(e.end);
  return { text: out, start: Math.min(...edits.map((e) => e.start)), end: Math.max(...edits.map((e) => e.end)) };
}

export function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** The end of the line `offset` is on, before its line break. */
export function lineEnd(text: string, offset: number): number {
  const i = text.indexOf("\n", offset);
  if (i < 0) return text.length;
  return text[i - 1] === "\r" ? i - 1 : i;
}

function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(start, offset));
  return m ? m[0] : "";
}

function quoted(values: string[], quote: string): string {
  return values.map((v) => `${quote}${v}${quote}`).join(", ");
}

/** Edits that add `add` to the features of one dependency declaration. */
export function featureEdits(text: string, decl: DepDecl, add: string[]): TextEdit[] {
  if (add.length === 0) throw new EditError("nothing to add");
  const eol = eolOf(text);
  const { features, pair, table, dotted } = decl.nodes;

  if (features) {
    const arr = features.value;
    if (arr.type !== "TOMLArray") throw new EditError("`features` is not an array");
    const last = arr.elements.at(-1);
    if (!last) return [{ start: arr.range[0], end: arr.range[1], insert: `[${quoted(add, '"')}]` }];
    const quote = last.type === "TOMLValue" && last.kind === "string" && last.style === "literal" ? "'" : '"';
    const close = arr.range[1] - 1; // the `]`
    const eolAfter = lineEnd(text, last.range[1]);
    const commaAfter = /^[ \t]*,/.exec(text.slice(last.range[1], Math.min(eolAfter, close)));
    // `]` on the last element's line (one-line arrays, and `"b"]` closing a multi-line one):
    // continue that line.
    if (close < eolAfter) {
      if (commaAfter)
        return [
          {
            start: last.range[1] + commaAfter[0].length,
            end: last.range[1] + commaAfter[0].length,
            insert: ` ${quoted(add, quote)},`,
          },
        ];
      return [{ start: last.range[1], end: last.range[1], insert: `, ${quoted(add, quote)}` }];
    }
    // Otherwise one new line per feature in the last element's indentation, after any comment
    // on its line, keeping the file's trailing-comma habit.
    const indent = indentAt(text, last.range[0]);
    if (commaAfter)
      return [
        { start: eolAfter, end: eolAfter, insert: add.map((f) => `${eol}${indent}${quote}${f}${quote},`).join("") },
      ];
    const body = add.map((f) => `${eol}${indent}${quote}${f}${quote}`).join(",");
    if (eolAfter === last.range[1]) return [{ start: eolAfter, end: eolAfter, insert: `,${body}` }];
    return [
      { start: last.range[1], end: last.range[1], insert: "," },
      { start: eolAfter, end: eolAfter, insert: body },
    ];
  }

  const array = `[${quoted(add, '"')}]`;
  if (pair && decl.form === "string") {
    const v = pair.value;
    return [
      {
        start: v.range[0],
        end: v.range[1],
        insert: `{ version = ${text.slice(v.range[0], v.range[1])}, features = ${array} }`,
      },
    ];
  }
  if (pair && decl.form === "inline" && pair.value.type === "TOMLInlineTable") {
    const last = pair.value.body.at(-1);
    if (!last) return [{ start: pair.value.range[0], end: pair.value.range[1], insert: `{ features = ${array} }` }];
    return [{ start: last.range[1], end: last.range[1], insert: `, features = ${array}` }];
  }
  if (table) {
    const last = table.body.at(-1);
    const at = lineEnd(text, last ? last.range[1] : table.key.range[1]);
    const indent = last ? indentAt(text, last.range[0]) : "";
    return [{ start: at, end: at, insert: `${eol}${indent}features = ${array}` }];
  }
  if (dotted && dotted.length > 0) {
    const last: KeyValue = dotted.at(-1)!;
    const keys = last.key.keys;
    const field = keyNames(last).length - 1;
    const prefix = keys
      .slice(0, field)
      .map((k) => text.slice(k.range[0], k.range[1]))
      .join(".");
    const at = lineEnd(text, last.range[1]);
    return [{ start: at, end: at, insert: `${eol}${indentAt(text, last.range[0])}${prefix}.features = ${array}` }];
  }
  throw new EditError(`cannot edit the ${decl.form} declaration of \`${decl.key}\``);
}
