// The edit that gets a manifest past cargo's refusal: each feature its release does not have is
// renamed to what replaces it (burn's feature history: `server` → `remote-server`) or dropped
// (nothing is needed in its place, or the history says to remove it), on the line where it is
// written: the dependency's `features` list, or the `[features]` entry that forwards it. A feature
// with no known way out (one removed without a replacement, a typo near two names) blocks the
// edit: it is said, never guessed; a typo near one name is renamed to it, and said to be a typo. A feature a member inherits from the root's `[workspace.dependencies]` is edited
// in the root, where it is written (cargo's message names the member). Edits keep every other
// byte, as src/cargo/fix/edit.ts does.
import type { AST } from "toml-eslint-parser";
import type { Refusal } from "../judge/refusal.js";
import { featuresEntry, type Manifest } from "../manifest/manifest.js";
import type { TextEdit } from "./edit.js";

export interface RefusalResolution {
  /** `typo`: no release has the feature, and one name of that release is near it (taken as meant). */
  renamed: Array<{
    feature: string;
    to: string;
    others: string[];
    typo?: boolean;
    /** Why `to` before `others`: the crates `feature` brought in at release `from` that `to` keeps and another drops. */
    likeForLike?: { from: string; kept: string[] };
  }>;
  dropped: string[];
}

export type RefusalEdit =
  /** `edits` in the manifest's text, `rootEdits` in the workspace root's. */
  | { kind: "edit"; edits: TextEdit[]; rootEdits: TextEdit[]; resolution: RefusalResolution }
  | { kind: "blocked"; refusals: Refusal[] };

/**
 * What the history allows: a replacement to rename to, nothing (drop), or no way out (null).
 * `picks`: for a name no release has and several near it, the one this edit takes (the caller
 * makes one edit per near name, src/answer/find-manifest.ts), never chosen here.
 */
function wayOut(
  r: Refusal,
  picks: Record<string, string>,
): { to: string; others: string[]; typo?: boolean; likeForLike?: { from: string; kept: string[] } } | "drop" | null {
  const h = r.history;
  // A name no release has, with exactly one name of that release near it (`wgpuu` → `wgpu`): the
  // edit is shown, verified as any is, and said to be a typo taken as meant; two near names, none
  // unless the caller picks one of them (`others`: the rest, nearest first).
  if (h.kind === "never") {
    if (h.closest.length === 1) return { to: h.closest[0]!, others: [], typo: true };
    const to = Object.hasOwn(picks, r.feature) ? picks[r.feature]! : null;
    return to && h.closest.includes(to) ? { to, others: h.closest.filter((n) => n !== to), typo: true } : null;
  }
  // A replacement read from the index (not burn's history) is said, never edited in.
  if (h.kind !== "removed" || h.inferred) return null;
  // The first is the like-for-like one when the resolver could rank them (judge/like-for-like.ts).
  if (h.replacement && h.replacement.length > 0)
    return {
      to: h.replacement[0]!,
      others: h.replacement.slice(1),
      ...(h.likeForLike ? { likeForLike: h.likeForLike } : {}),
    };
  if (h.replacement?.length === 0 || /^remove it\b/.test(h.advice ?? "")) return "drop";
  return null;
}

type Element = AST.TOMLValue | AST.TOMLArray | AST.TOMLInlineTable | AST.TOMLKeyValue | AST.TOMLNode;
const stringOf = (e: Element) => (e.type === "TOMLValue" && e.kind === "string" ? String(e.value) : null);

/** Removes element `i` of `arr` with one comma beside it, keeping the array's layout. */
function removal(text: string, arr: AST.TOMLArray, i: number): TextEdit {
  const el = arr.elements[i]!;
  const next = arr.elements[i + 1];
  if (next) return { start: el.range[0], end: next.range[0], insert: "" };
  const prev = arr.elements[i - 1];
  if (prev) return { start: prev.range[1], end: el.range[1], insert: "" };
  const comma = /^[ \t]*,/.exec(text.slice(el.range[1], arr.range[1]));
  return { start: el.range[0], end: el.range[1] + (comma ? comma[0].length : 0), insert: "" };
}

function replacement(text: string, el: AST.TOMLNode, value: string): TextEdit {
  const quote = text[el.range[0]] === "'" ? "'" : '"';
  return { start: el.range[0], end: el.range[1], insert: `${quote}${value}${quote}` };
}

const arrayOf = (v: AST.TOMLNode | undefined) => (v?.type === "TOMLArray" ? v : null);

/**
 * One refusal's edit and the file it is in, or null when its place cannot be found (an inherited
 * feature with no root to read, an odd form).
 */
function editOf(
  text: string,
  m: Manifest,
  r: Refusal,
  way: { to: string } | "drop",
  root: Manifest | null,
): { edit: TextEdit; inRoot: boolean } | null {
  let arr: AST.TOMLArray | null = null;
  let matches = (s: string) => s === r.feature;
  let rewrite = (_s: string, to: string) => to;
  if (r.where.kind === "dependency" && r.where.inRoot) {
    const key = r.where.decl.key;
    const ws = root?.workspaceDependencies.find((w) => w.key === key);
    arr = arrayOf(ws?.nodes.features?.value);
    text = root?.text ?? text;
  } else if (r.where.kind === "dependency") {
    arr = arrayOf(r.where.decl.nodes.features?.value);
  } else {
    arr = featuresEntry(m, r.where.entry);
    const key = /^(.*?)(\??)\/(.+)$/;
    matches = (s) => key.exec(s)?.[3] === r.feature;
    rewrite = (s, to) => s.replace(key, `$1$2/${to}`);
  }
  const i = arr ? arr.elements.findIndex((e) => matches(stringOf(e) ?? "")) : -1;
  if (!arr || i < 0) return null;
  const inRoot = r.where.kind === "dependency" && r.where.inRoot;
  if (way === "drop") return { edit: removal(text, arr, i), inRoot };
  return { edit: replacement(text, arr.elements[i]!, rewrite(stringOf(arr.elements[i]!)!, way.to)), inRoot };
}

export function refusalEdit(
  text: string,
  m: Manifest,
  refused: Refusal[],
  given: Manifest | null = null,
  picks: Record<string, string> = {},
): RefusalEdit {
  // A root that is also a package inherits from its own `[workspace.dependencies]`: one text.
  const root = given ?? (m.isWorkspaceRoot ? m : null);
  const edits: TextEdit[] = [];
  const rootEdits: TextEdit[] = [];
  const resolution: RefusalResolution = { renamed: [], dropped: [] };
  const blocked: Refusal[] = [];
  for (const r of refused) {
    const way = wayOut(r, picks);
    const found = way && editOf(text, m, r, way, root);
    if (!way || !found) {
      blocked.push(r);
      continue;
    }
    (found.inRoot && root !== m ? rootEdits : edits).push(found.edit);
    // A feature written in several places is one rename (or drop) of the edit, said once.
    const again =
      way === "drop"
        ? resolution.dropped.includes(r.feature)
        : resolution.renamed.some((x) => x.feature === r.feature && x.to === way.to);
    if (again) continue;
    if (way === "drop") resolution.dropped.push(r.feature);
    else
      resolution.renamed.push({
        feature: r.feature,
        to: way.to,
        others: way.others,
        ...(way.typo ? { typo: true } : {}),
        ...(way.likeForLike ? { likeForLike: way.likeForLike } : {}),
      });
  }
  return blocked.length > 0 ? { kind: "blocked", refusals: blocked } : { kind: "edit", edits, rootEdits, resolution };
}
