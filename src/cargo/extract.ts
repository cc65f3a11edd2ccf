// Finds Cargo.toml (and Cargo.lock) text in an issue or comment: fenced blocks first, diff
// snippets as their new side, and bare `burn = …` fragments wrapped in a [dependencies] table.
import { DEP_TABLES } from "./manifest.js";

export interface Snippet {
  kind: "manifest" | "lock";
  text: string;
  /** True when the snippet had no table header and `[dependencies]` was added around it. */
  wrapped: boolean;
  /**
   * A whole manifest (it has `[package]` or `[workspace]`): only of one may the bot say what
   * it does not declare. Anything else is a fragment, which shows only what it shows.
   */
  whole: boolean;
}

const WHOLE = /^[ \t]*\[(?:package|workspace)\][ \t]*(?:#.*)?$/m;

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const MAX_SNIPPETS = 8;

function fencedBlocks(text: string): Array<{ info: string; body: string }> {
  const blocks: Array<{ info: string; body: string }> = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let open: { fence: string; info: string; start: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]!);
    if (!open) {
      if (m) open = { fence: m[1]!, info: m[2]!.trim().toLowerCase(), start: i + 1 };
    } else if (m && m[1]![0] === open.fence[0] && m[1]!.length >= open.fence.length && m[2]!.trim() === "") {
      blocks.push({ info: open.info, body: lines.slice(open.start, i).join("\n") });
      open = null;
    }
  }
  return blocks;
}

/**
 * A text split into its prose and its code (fenced blocks, by the same fence rule as
 * `fencedBlocks`, CommonMark's: a fence left open runs to the end; and inline code spans).
 * One pass over the lines.
 */
export function proseAndCode(text: string): { prose: string; code: string } {
  const prose: string[] = [];
  const code: string[] = [];
  let open: string | null = null;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const m = FENCE.exec(line);
    if (!open) {
      if (m) open = m[1]!;
      else prose.push(line);
    } else if (m && m[1]![0] === open[0] && m[1]!.length >= open.length && m[2]!.trim() === "") open = null;
    else code.push(line);
  }
  const spans: string[] = [];
  const outside = prose.join("\n").replace(/`([^`\n]*)`/g, (_all, inner: string) => {
    spans.push(inner);
    return " ";
  });
  return { prose: outside, code: [...code, ...spans].join("\n") };
}

function newSideOfDiff(body: string): string {
  return body
    .split("\n")
    .filter((l) => !l.startsWith("-") && !l.startsWith("@@") && !l.startsWith("+++"))
    .map((l) => (l.startsWith("+") || l.startsWith(" ") ? l.slice(1) : l))
    .join("\n");
}

/** A table header a manifest has: its own tables and cargo's dependency tables (one list, manifest.ts). */
const HEADER = new RegExp(
  String.raw`^[ \t]*\[(?:package|workspace|features|target\.|${Object.keys(DEP_TABLES).join("|")})\b`,
  "m",
);
const BURN_LINE = /^[ \t]*burn(?:-[a-z]+)?[ \t]*(?:\.[ \t]*[a-z-]+[ \t]*)?=/m;

const INLINE_DEP = /`(burn(?:-[a-z]+)?\s*=\s*[^`\n]+)`/g;

export function extractSnippets(text: string): Snippet[] {
  const out: Snippet[] = [];
  for (const { info, body: raw } of fencedBlocks(text)) {
    if (out.length >= MAX_SNIPPETS) break;
    const body = info === "diff" || info === "patch" ? newSideOfDiff(raw) : raw;
    if (/^[ \t]*\[\[package\]\]/m.test(body) && /^[ \t]*name[ \t]*=[ \t]*"burn/m.test(body))
      out.push({ kind: "lock", text: body, wrapped: false, whole: true });
    else if (HEADER.test(body) && /\bburn/.test(body))
      out.push({ kind: "manifest", text: body, wrapped: false, whole: WHOLE.test(body) });
    else if (BURN_LINE.test(body) && !/^[ \t]*(?:fn|use|let|impl)\b/m.test(body))
      out.push({ kind: "manifest", text: `[dependencies]\n${body}`, wrapped: true, whole: false });
  }
  if (out.length === 0) {
    // `burn = { … }` written inline in prose.
    for (const m of text.matchAll(INLINE_DEP)) {
      if (out.length >= MAX_SNIPPETS) break;
      out.push({ kind: "manifest", text: `[dependencies]\n${m[1]}\n`, wrapped: true, whole: false });
    }
  }
  return out;
}
