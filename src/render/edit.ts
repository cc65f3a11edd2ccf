// An answer's edit in words, from the answer's own data: the phrase a comment lists under a choice
// of backends, and the line per change `fix` prints on stderr (why each part of the diff is there).
import type { AnswerEdit } from "../answer/answer-schema.js";
import { andList, code } from "./escape.js";

type Quote = (s: string) => string;
const plain: Quote = (s) => `\`${s}\``;

/** One line per change, for a terminal: renamed … → …: removed at …; added …: turns on …. */
export function changeLines(e: AnswerEdit, quote: Quote = plain): string[] {
  return e.changes.map((c) => {
    const removed = c.removedAt ? `removed at ${c.removedAt}` : "not a feature of this release";
    if (c.op === "rename") return `renamed ${quote(c.feature)} → ${quote(c.to ?? "?")}: ${removed}`;
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
