// The plan for a manifest cargo refuses: first the edit past the refusal (src/cargo/refusal-fix.ts),
// then, on the manifest cargo would accept, the usual fix for the target; verified as one change
// (the new manifest parses, names no feature its release lacks, and turns the target on).
import { applyEdits, EditError, type TextEdit } from "./edit.js";
import type { Diagnosis } from "./diagnosis.js";
import type { FixOptions, FixPlan, ManifestFile } from "./fix-plan.js";
import { changeBetween } from "./change.js";
import type { Manifest } from "./manifest.js";
import { refusalEdit } from "./refusal-fix.js";

const overlap = (edits: TextEdit[]) =>
  [...edits].sort((a, b) => a.start - b.start).some((e, i, all) => i > 0 && e.start < all[i - 1]!.end);

export function pastRefusal(
  file: ManifestFile,
  manifest: Manifest,
  diagnosis: Diagnosis,
  opts: FixOptions,
  replan: (file: ManifestFile, opts: FixOptions) => FixPlan,
): FixPlan {
  const noFix = (reason: string): FixPlan => ({ kind: "no-fix", diagnosis, reason });
  const r = refusalEdit(file.text, manifest, diagnosis.refused ?? []);
  if (r.kind === "blocked")
    return noFix(
      `cargo refuses the manifest, and burn's history gives no replacement to edit in for ${r.refusals.map((x) => `\`${x.feature}\``).join(", ")}`,
    );
  if (overlap(r.edits)) return noFix("the features to rename or drop sit too close together for one verified edit");
  let text: string;
  try {
    text = applyEdits(file.text, r.edits).text;
  } catch (e) {
    if (e instanceof EditError) return noFix(e.message);
    throw e;
  }
  const next = replan({ path: file.path, text }, opts);
  if (next.kind === "invalid-toml" || next.diagnosis.verdict === "refused")
    return noFix("the edit past cargo's refusal failed verification");
  if (next.kind === "no-fix") return noFix(next.reason);
  const after = next.kind === "fixed" ? next.change.after : text;
  const added = next.kind === "fixed" ? next.change.added : [];
  const dependency = diagnosis.primary?.decl.key ?? "burn";
  return {
    kind: "fixed",
    diagnosis,
    change: { ...changeBetween(file.path, file.text, after, dependency, added), resolves: r.resolution },
  };
}
