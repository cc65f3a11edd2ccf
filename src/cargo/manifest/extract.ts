// Finds Cargo.toml (and Cargo.lock) text in an issue or comment: fenced blocks first, diff
// snippets as their new side, then manifests pasted without a fence, and bare `burn = …`
// fragments wrapped in a [dependencies] table.
import { DEP_TABLES, parseManifest } from "./manifest.js";

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
/** CommonMark's closing fence: the opening one's character, at least as long, with no info string. */
const closes = (open: string, m: RegExpExecArray | null) =>
  m !== null && m[1]![0] === open[0] && m[1]!.length >= open.length && m[2]!.trim() === "";
const MAX_SNIPPETS = 8;

function fencedBlocks(text: string): Array<{ info: string; body: string }> {
  const blocks: Array<{ info: string; body: string }> = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let open: { fence: string; info: string; start: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]!);
    if (!open) {
      if (m) open = { fence: m[1]!, info: m[2]!.trim().toLowerCase(), start: i + 1 };
    } else if (closes(open.fence, m)) {
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
    } else if (closes(open, m)) open = null;
    else code.push(line);
  }
  const spans: string[] = [];
  const outside = prose.join("\n").replace(/`([^`\n]*)`/g, (_all, inner: string) => {
    spans.push(inner);
    return " ";
  });
  return { prose: outside, code: [...code, ...spans].join("\n") };
}

/**
 * The text as GitHub shows it: HTML comments outside fenced code removed (an issue template's
 * `<!-- paste your Cargo.toml here, e.g. … -->` is no part of the report). A comment left open
 * is kept as text: where it ends is not known. One pass over the lines.
 */
export function shownText(text: string): string {
  if (!text.includes("<!--")) return text;
  const out: string[] = [];
  let fence: string | null = null;
  let hidden: { from: number; kept: string } | null = null;
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (hidden) {
      const end = line.indexOf("-->");
      if (end < 0) continue;
      line = hidden.kept + line.slice(end + 3);
      hidden = null;
    } else if (fence !== null || FENCE.test(line)) {
      const m = FENCE.exec(line);
      if (fence === null) fence = m![1]!;
      else if (closes(fence, m)) fence = null;
      out.push(line);
      continue;
    }
    let kept = "";
    for (let at = line.indexOf("<!--"); at >= 0; at = line.indexOf("<!--")) {
      const end = line.indexOf("-->", at + 4);
      if (end < 0) {
        hidden = { from: i, kept: kept + line.slice(0, at) };
        break;
      }
      kept += line.slice(0, at);
      line = line.slice(end + 3);
    }
    if (!hidden) out.push(kept + line);
  }
  // Never closed: shown as written, from the line it opened on.
  if (hidden) out.push(...lines.slice(hidden.from));
  return out.join("\n");
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

// TOML's line shapes, for a manifest pasted without a fence: a table header, a `key =` line
// (bare, quoted and dotted keys), or a blank or comment line.
const KEY_PART = String.raw`(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')`;
const TOML_HEADER = new RegExp(
  String.raw`^[ \t]*\[\[?[ \t]*${KEY_PART}(?:[ \t]*\.[ \t]*${KEY_PART})*[ \t]*\]\]?[ \t]*(?:#.*)?$`,
);
const TOML_KEY = new RegExp(String.raw`^[ \t]*${KEY_PART}(?:[ \t]*\.[ \t]*${KEY_PART})*[ \t]*=`);
const TOML_QUIET = /^[ \t]*(?:#.*)?$/;
/** Lines one unfenced block may take: a manifest longer than this is pasted in a fence. */
const MAX_BLOCK_LINES = 400;

/** Open brackets and braces minus closed ones, outside strings and comments (a multi-line array continues). */
function bracketDelta(line: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") break;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
  }
  return depth;
}

/**
 * Manifests pasted as plain text, outside any fence (or as an indented code block): a run of
 * lines that starts at a cargo table header and goes on while each line has a TOML shape (or
 * continues an open array or inline table), ended by the first line of prose. One pass.
 */
function unfencedBlocks(text: string, most: number): string[] {
  const blocks: string[] = [];
  let fence: string | null = null;
  let block: string[] | null = null;
  let depth = 0;
  const close = () => {
    while (block && block.length > 0 && TOML_QUIET.test(block.at(-1)!)) block.pop();
    const body = block?.join("\n");
    if (body && /\bburn/.test(body)) blocks.push(`${body}\n`);
    block = null;
    depth = 0;
  };
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (blocks.length >= most) return blocks;
    const m = FENCE.exec(line);
    if (fence) {
      if (closes(fence, m)) fence = null;
      continue;
    }
    if (m) {
      close();
      fence = m[1]!;
      continue;
    }
    if (block) {
      const tomlish = depth > 0 || TOML_HEADER.test(line) || TOML_KEY.test(line) || TOML_QUIET.test(line);
      if (tomlish && block.length < MAX_BLOCK_LINES) {
        block.push(line);
        depth = Math.max(0, depth + bracketDelta(line));
        continue;
      }
      close();
    }
    if (TOML_HEADER.test(line) && HEADER.test(line)) {
      block = [line];
      depth = 0;
    }
  }
  close();
  return blocks;
}

function parses(text: string): boolean {
  try {
    parseManifest(text);
    return true;
  } catch {
    return false;
  }
}

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
  // After the fenced ones: a fence is the clearer statement of what the manifest is. Where an
  // unfenced block ends is a guess, so one that does not parse is dropped, never reported as
  // the user's syntax error (a prose line like `features = wgpu only` may have joined it).
  for (const body of unfencedBlocks(text, MAX_SNIPPETS - out.length))
    if (parses(body)) out.push({ kind: "manifest", text: body, wrapped: false, whole: WHOLE.test(body) });
  if (out.length === 0) {
    // `burn = { … }` written inline in prose.
    for (const m of text.matchAll(INLINE_DEP)) {
      if (out.length >= MAX_SNIPPETS) break;
      out.push({ kind: "manifest", text: `[dependencies]\n${m[1]}\n`, wrapped: true, whole: false });
    }
  }
  return out;
}
