// An answer's edit in words, from the answer's own data: the phrase a comment lists under a choice
// of backends, and the line per change `fix` prints on stderr (why each part of the diff is there).
import type { AnswerEdit } from "../answer/answer-schema.js";
import { andList, code, orList } from "./escape.js";

type Quote = (s: string) => string;
const plain: Quote = (s) => `\`${s}\``;

type Change = AnswerEdit["changes"][number];

/** Why a rename: the release that removed the name, or no release has it and it is taken as a typo. */
function renamedBecause(c: Change, e: AnswerEdit, quote: Quote): string {
  if (c.removedAt) return `removed at ${c.removedAt}`;
  if (!c.near) return "not a feature of this release";
  const at = e.verification.graph ?? "that release";
  return c.near.length > 1
    ? `no release of ${quote(e.dependency)} has it; taken as a typo of one of the names of ${at} near it, ${orList(c.near, quote)}`
    : `no release of ${quote(e.dependency)} has it; taken as a typo of ${quote(c.near[0]!)}, the one name of ${at} near it`;
}

/** One line per change, for a terminal: renamed … → …: removed at …; added …: turns on …. */
export function changeLines(e: AnswerEdit, quote: Quote = plain): string[] {
  return e.changes.map((c) => {
    const removed = c.removedAt ? `removed at ${c.removedAt}` : "not a feature of this release";
    if (c.op === "rename") return `renamed ${quote(c.feature)} → ${quote(c.to ?? "?")}: ${renamedBecause(c, e, quote)}`;
    if (c.op === "drop") return `dropped ${quote(c.feature)}: ${removed}, and nothing is needed in its place`;
    const on = c.turnsOn ? `: turns on ${c.turnsOn}` : "";
    return c.op === "add"
      ? `added ${quote(c.feature)} to ${quote(e.dependency)}${on}`
      : `declared ${quote(e.dependency)} with ${quote(c.feature)}${on}`;
  });
}

/** The edit as a phrase (`add "wgpu" to `burn`'s features`), for a list of choices. */
export function editPhrase(e: AnswerEdit): string {
  const added = andList(
    e.changes.filter((c) => c.op === "add" || c.op === "declare").map((c) => JSON.stringify(c.feature)),
  );
  const declares = e.changes.some((c) => c.op === "declare");
  const parts = [
    ...e.changes
      .filter((c) => c.op === "rename")
      .map((c) => `rename ${code(JSON.stringify(c.feature))} to ${code(JSON.stringify(c.to ?? "?"))}`),
    ...e.changes.filter((c) => c.op === "drop").map((c) => `drop ${code(JSON.stringify(c.feature))}`),
  ];
  if (added !== "")
    parts.push(
      declares
        ? `declare ${code(e.dependency)} with ${added} (no default features)`
        : `add ${added} to ${code(e.dependency)}'s features`,
    );
  return parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** A rename taken as a typo of one of several near names: nothing chose one (the change, or null). */
export function typoChoice(edits: AnswerEdit[]): (Change & { near: string[] }) | null {
  const c = edits[0]?.changes.find((x) => x.op === "rename" && (x.near?.length ?? 0) > 1);
  return c?.near ? { ...c, near: c.near } : null;
}

/** How an edit was checked, in a few words (render/manifest.ts says the same at more length). */
function statusWords(e: AnswerEdit, quote: Quote): string {
  const v = e.verification;
  if (v.status === "assumed-graph") return "checked on an assumed graph";
  const graph = v.commit ? `burn's main branch at ${quote(v.commit)}` : `burn ${quote(v.graph ?? "?")}`;
  return v.status === "verified" ? `verified on ${graph}` : `checked on ${graph}, not your build's release`;
}

/**
 * `fix` on a typo near several names: a patch is one choice, so none is printed as the patch. Which
 * names, that none is chosen, and each edit (its diff whole, for `git apply`) with why each part.
 */
export function typoChoiceLines(edits: AnswerEdit[], quote: Quote = plain): string[] {
  const t = typoChoice(edits);
  if (!t) return [];
  const out = [
    `no change chosen: ${quote(t.feature)} is taken as a typo of ${orList(t.near, quote)}, and nothing says which you meant; each is its own edit (apply the one you meant with git apply):`,
  ];
  for (const e of edits) {
    const to = e.changes.find((c) => c.op === "rename" && c.feature === t.feature)?.to ?? "?";
    out.push(`if you meant ${quote(to)} (${statusWords(e, quote)}):`, e.diff.replace(/\n$/, ""));
    // The rename was said just above: only the other parts of the edit are explained.
    const typoRename = (c: Change) => c.op === "rename" && c.feature === t.feature;
    out.push(...changeLines(e, quote).filter((_, i) => !typoRename(e.changes[i]!)));
  }
  return out;
}
