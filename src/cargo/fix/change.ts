// A Cargo.toml change as the bot shows it: the whole text before and after, the unified diff,
// and the one suggestion (lines of the original file and their replacement) GitHub can apply.
import { createPatch, diffArrays } from "diff";
import { lineOf } from "../manifest/toml.js";
import type { RefusalResolution } from "./refusal-fix.js";

export interface Suggestion {
  /** 1-based, inclusive, in the original file. */
  startLine: number;
  endLine: number;
  /** Replacement for those lines (no trailing newline). */
  lines: string[];
}

export interface Change {
  path: string;
  before: string;
  after: string;
  diff: string;
  suggestion: Suggestion;
  /**
   * The same change as one suggestion per run of changed lines, in order (a feature renamed on
   * line 7 and on line 14 is two, each on its own line, not one over lines 7–14): what a review
   * comments on, each run on the lines it replaces. One entry when the change is one run.
   */
  suggestions: Suggestion[];
  /** The dependency edited and what was added. */
  dependency: string;
  added: string[];
  /**
   * The crates the edited manifest's build has that the build before it did not, by the resolver
   * (sorted; [] when none); absent when the build before was not resolved.
   */
  turnsOn?: string[];
  /** The edit declares `dependency`, which the manifest did not (src/cargo/fix/declare.ts). */
  declares: boolean;
  /** The edit also gets past cargo's refusal: the features it renamed or dropped. */
  resolves?: RefusalResolution;
  /**
   * Set when the edit only gets cargo past its refusal: why the target cannot be met at this
   * release (a release before burn-dispatch has no `burn-dispatch/autodiff`).
   */
  targetUnmet?: string;
  /**
   * The same edit's changes to other files (a workspace root's entry and a member's own both
   * naming a removed feature): verified only with this one, so never shown alone. `diff` above
   * then covers every file, one patch per file, each with its own header.
   */
  others?: Change[];
}

/** This file's own patch: `diff` covers the others' files too when there are others. */
export function ownDiff(c: Change): string {
  return c.others?.length ? createPatch(c.path, c.before, c.after, "", "", { context: 1 }) : c.diff;
}

/** One edit over several files: `lead` carries what the edit does; the diff covers every file, in path order. */
export function acrossFiles(lead: Change, others: Change[]): Change {
  if (others.length === 0) return lead;
  const files = [lead, ...others].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const diff = files.map((f) => createPatch(f.path, f.before, f.after, "", "", { context: 1 })).join("");
  return { ...lead, diff, others };
}

/**
 * The same edit led by the file at `path` (one the PR's diff shows, where a review can suggest):
 * what the edit does stays with the lead; only the files swap.
 */
export function ledBy(c: Change, path: string): Change {
  const other = c.others?.find((o) => o.path === path);
  if (!other) return c;
  const file = (x: Change) => ({
    path: x.path,
    before: x.before,
    after: x.after,
    suggestion: x.suggestion,
    suggestions: x.suggestions,
  });
  const rest = c.others!.filter((o) => o !== other);
  return { ...c, ...file(other), others: [{ ...other, ...file(c), diff: ownDiff(c) }, ...rest] };
}

/**
 * The change from `before` to `after`, two texts that differ in one span (edits of one
 * declaration applied one after the other), as one suggestion and one diff.
 */
export function changeBetween(
  path: string,
  before: string,
  after: string,
  dependency: string,
  added: string[],
): Change {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let tail = 0;
  while (
    tail < before.length - start &&
    tail < after.length - start &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return changeOf(path, before, { text: after, start, end: before.length - tail }, dependency, added);
}

export function changeOf(
  path: string,
  before: string,
  edited: { text: string; start: number; end: number },
  dependency: string,
  add: string[],
  { declares = false } = {},
): Change {
  const after = edited.text;
  const startLine = lineOf(before, edited.start);
  const endLine = lineOf(before, Math.max(edited.start, edited.end - 1));
  const beforeLines = before.split(/\r?\n/);
  const afterLines = after.split(/\r?\n/);
  const grown = afterLines.length - beforeLines.length;
  return {
    path,
    before,
    after,
    // A CRLF file keeps its CRLF in the changed and context lines, as `git diff` prints it, so
    // that `git apply` and `patch` accept the diff.
    diff: createPatch(path, before, after, "", "", { context: 1 }),
    suggestion: { startLine, endLine, lines: afterLines.slice(startLine - 1, endLine + grown) },
    suggestions: runsOf(beforeLines, afterLines) ?? [
      { startLine, endLine, lines: afterLines.slice(startLine - 1, endLine + grown) },
    ],
    dependency,
    added: add,
    declares,
  };
}

/** One run of changed lines: `removed` lines from `start` (1-based) replaced by `added`. */
interface Run {
  start: number;
  removed: number;
  added: string[];
}

/**
 * A run as a suggestion: the lines it replaces, or, for lines only inserted, the line before them
 * (the first line when they go on top) with the insertion beside it: a suggestion replaces lines.
 */
function suggestionOf(r: Run, before: string[]): Suggestion {
  if (r.removed > 0) return { startLine: r.start, endLine: r.start + r.removed - 1, lines: r.added };
  if (r.start > 1) return { startLine: r.start - 1, endLine: r.start - 1, lines: [before[r.start - 2]!, ...r.added] };
  return { startLine: 1, endLine: 1, lines: [...r.added, before[0] ?? ""] };
}

/**
 * The runs of changed lines between two texts as suggestions, or null when two would share a line
 * (an insertion right after a changed line): the caller's one suggestion over the span stands.
 */
function runsOf(before: string[], after: string[]): Suggestion[] | null {
  const runs: Run[] = [];
  let line = 1;
  let open: Run | null = null;
  for (const part of diffArrays(before, after)) {
    if (!part.added && !part.removed) {
      open = null;
      line += part.count ?? part.value.length;
      continue;
    }
    if (!open) {
      open = { start: line, removed: 0, added: [] };
      runs.push(open);
    }
    if (part.removed) {
      open.removed += part.count ?? part.value.length;
      line += part.count ?? part.value.length;
    } else open.added.push(...part.value);
  }
  const out = runs.map((r) => suggestionOf(r, before));
  return out.every((s, i) => i === 0 || s.startLine > out[i - 1]!.endLine) && out.length > 0 ? out : null;
}
