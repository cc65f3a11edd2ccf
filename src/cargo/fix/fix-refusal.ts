// The plan for a manifest cargo refuses: first the edit past the refusal (src/cargo/fix/refusal-fix.ts),
// then, on the manifest cargo would accept, the usual fix for the target; verified as one change
// (the new manifest parses, names no feature its release lacks, and turns the target on).

import type { Diagnosis } from "../judge/diagnosis.js";
import { ACCEPTED } from "../judge/refusal.js";
import type { Manifest } from "../manifest/manifest.js";
import { acrossFiles, changeBetween } from "./change.js";
import { applyEdits, EditError, type TextEdit } from "./edit.js";
import type { FixOptions, FixPlan, ManifestFile } from "./fix-plan.js";
import { refusalEdit } from "./refusal-fix.js";

const overlap = (edits: TextEdit[]) =>
  [...edits].sort((a, b) => a.start - b.start).some((e, i, all) => i > 0 && e.start < all[i - 1]!.end);

function applied(text: string, edits: TextEdit[]): string | EditError {
  if (edits.length === 0) return text;
  if (overlap(edits))
    return new EditError("the features to rename or drop sit too close together for one verified edit");
  try {
    return applyEdits(text, edits).text;
  } catch (e) {
    if (e instanceof EditError) return e;
    throw e;
  }
}

/** The usual fix, on the manifest cargo accepts: in the member, or in the root it inherits from (fix.ts). */
export interface Replan {
  member: (file: ManifestFile, opts: FixOptions) => FixPlan;
  inRoot: (root: ManifestFile, member: ManifestFile, opts: FixOptions) => FixPlan;
}

/**
 * The edit past the refusal, then the target's own fix on the manifest cargo accepts. The
 * refused features may be written in the member or in the workspace root (`root`, parsed): the
 * change is in one file, or in both (one edit, `others` holding the second file's change).
 */
export function pastRefusal(
  file: ManifestFile,
  manifest: Manifest,
  diagnosis: Diagnosis,
  opts: FixOptions,
  replan: Replan,
  root: Manifest | null = null,
): FixPlan {
  const noFix = (reason: string): FixPlan => ({ kind: "no-fix", diagnosis, reason });
  const r = refusalEdit(file.text, manifest, diagnosis.refused ?? [], root, opts.typos);
  if (r.kind === "blocked")
    return noFix(
      `cargo refuses the manifest, and burn's history gives no replacement to edit in for ${r.refusals.map((x) => `\`${x.feature}\``).join(", ")}`,
    );
  const text = applied(file.text, r.edits);
  const rootFile = opts.root ?? null;
  const rootText = rootFile ? applied(rootFile.text, r.rootEdits) : "";
  if (text instanceof EditError) return noFix(text.message);
  if (rootText instanceof EditError) return noFix(rootText.message);
  const newRoot = rootFile && { path: rootFile.path, text: rootText };
  let next = replan.member({ path: file.path, text }, { ...opts, root: newRoot });
  // A root the refusal edit changes takes the target's edit too, when it can: one file changes.
  if (newRoot && r.rootEdits.length > 0 && next.kind === "fixed" && next.change.path === file.path) {
    const inRoot = replan.inRoot(newRoot, { path: file.path, text }, opts);
    if (inRoot.kind === "fixed" && inRoot.change.path === newRoot.path) next = inRoot;
  }
  if (next.kind === "invalid-toml" || next.diagnosis.verdict === "refused")
    return noFix("the edit past cargo's refusal failed verification");
  // Before burn-dispatch the target does not exist, and a manifest whose burn is only a dev- or
  // build-dependency resolves none: the edit past the refusal stands alone (when cargo's acceptance
  // is the whole target, it meets it).
  const verdict = next.kind === "no-fix" ? next.diagnosis.verdict : null;
  const accepted = verdict === "no-burn" && opts.target?.gate === ACCEPTED.gate;
  const unmet =
    next.kind === "no-fix" && !accepted && (verdict === "pre-dispatch" || verdict === "no-burn")
      ? next.reason
      : undefined;
  if (next.kind === "no-fix" && !unmet && !accepted) return noFix(next.reason);
  const after = (path: string, edited: string) =>
    next.kind === "fixed" && next.change.path === path ? next.change.after : edited;
  const memberAfter = after(file.path, text);
  const rootAfter = newRoot ? after(newRoot.path, rootText) : "";
  const memberChanged = memberAfter !== file.text;
  const rootChanged = rootFile !== null && rootAfter !== rootFile.text;
  const added = next.kind === "fixed" ? next.change.added : [];
  const dependency = diagnosis.primary?.decl.key ?? "burn";
  // Both files change (the root's entry and the member's own both name a removed feature): one
  // edit over the two, verified together above (the member resolved against the edited root).
  const of = (path: string, before: string, final: string) => changeBetween(path, before, final, dependency, added);
  const lead =
    memberChanged || !rootFile ? of(file.path, file.text, memberAfter) : of(rootFile.path, rootFile.text, rootAfter);
  const others = memberChanged && rootChanged ? [of(rootFile!.path, rootFile!.text, rootAfter)] : [];
  const change = { ...acrossFiles(lead, others), resolves: r.resolution };
  return { kind: "fixed", diagnosis, change: unmet ? { ...change, targetUnmet: unmet } : change };
}
