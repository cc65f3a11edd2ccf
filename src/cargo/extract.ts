// Finds Cargo.toml (and Cargo.lock) text in an issue or comment: fenced blocks first, diff
// snippets as their new side, and bare `burn = …` fragments wrapped in a [dependencies] table.
export interface Snippet {
  kind: "manifest" | "lock";
  text: string;
  /** True when the snippet had no table header and `[dependencies]` was added around it. */
  wrapped: boolean;
}

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

function newSideOfDiff(body: string): string {
  return body
    .split("\n")
    .filter((l) => !l.startsWith("-") && !l.startsWith("@@") && !l.startsWith("+++"))
    .map((l) => (l.startsWith("+") || l.startsWith(" ") ? l.slice(1) : l))
    .join("\n");
}

const HEADER = /^[ \t]*\[(?:package|workspace|dependencies|dev-dependencies|build-dependencies|target\.|features|dependencies\.|workspace\.)/m;
const BURN_LINE = /^[ \t]*burn(?:-[a-z]+)?[ \t]*(?:\.[ \t]*[a-z-]+[ \t]*)?=/m;

const INLINE_DEP = /`(burn(?:-[a-z]+)?\s*=\s*[^`\n]+)`/g;

export function extractSnippets(text: string): Snippet[] {
  const out: Snippet[] = [];
  for (const { info, body: raw } of fencedBlocks(text)) {
    if (out.length >= MAX_SNIPPETS) break;
    const body = info === "diff" || info === "patch" ? newSideOfDiff(raw) : raw;
    if (/^[ \t]*\[\[package\]\]/m.test(body) && /^[ \t]*name[ \t]*=[ \t]*"burn/m.test(body)) out.push({ kind: "lock", text: body, wrapped: false });
    else if (HEADER.test(body) && /\bburn/.test(body)) out.push({ kind: "manifest", text: body, wrapped: false });
    else if (BURN_LINE.test(body) && !/^[ \t]*(?:fn|use|let|impl)\b/m.test(body)) out.push({ kind: "manifest", text: `[dependencies]\n${body}`, wrapped: true });
  }
  if (out.length === 0) {
    // `burn = { … }` written inline in prose.
    for (const m of text.matchAll(INLINE_DEP)) {
      if (out.length >= MAX_SNIPPETS) break;
      out.push({ kind: "manifest", text: `[dependencies]\n${m[1]}\n`, wrapped: true });
    }
  }
  return out;
}
