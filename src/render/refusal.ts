// The comment for cargo's refusal pasted in an issue: which feature cargo could not find, every
// feature of the reporter's manifest it would refuse (cargo names one per run), and what burn's
// history says replaces each. No edit is shown yet: none is verified on a manifest cargo refuses.
import type { RefusalAnalysis } from "../answer/analyze-refusal.js";
import { MAX_REFUSALS } from "../cargo/judge/refusal.js";
import { code } from "./escape.js";
import { manifestSection, sourceText } from "./manifest.js";
import { historyText } from "./why.js";

/** The reporter's manifest's refusals, when it has any (they include the feature cargo named). */
function refusedManifest(r: RefusalAnalysis) {
  const plan = r.manifest?.plan;
  return plan && plan.kind !== "invalid-toml" && plan.diagnosis.verdict === "refused" ? plan.diagnosis : null;
}

function manifestPart(r: RefusalAnalysis): string[] {
  const m = r.manifest;
  const plan = m?.plan;
  const refused = refusedManifest(r);
  if (refused)
    // The manifest's own section: every feature cargo would refuse, and the edit past them when
    // burn's history gives one (verified as the panic answers' edits are).
    return [
      ...manifestSection(m!, { about: "compile", build: r.version ? { version: r.version, commit: null } : null }),
      "",
      (refused.refused?.length ?? 0) < MAX_REFUSALS
        ? "cargo names only the first such feature it meets; this lists every one, so that one pass fixes them all."
        : `cargo names only the first such feature it meets; this lists the first ${MAX_REFUSALS}, and the manifest names more.`,
    ];
  if (plan && plan.kind !== "invalid-toml")
    return [
      "The Cargo.toml I read names no feature its burn release lacks: the one that failed is another manifest (a workspace member, a dependency's, or an older copy).",
    ];
  return [
    "Show the Cargo.toml (and the workspace root's, if burn is inherited) and I will check every feature it names.",
  ];
}

export function renderRefusalBody(r: RefusalAnalysis, footer: string): string[] {
  const f = r.found;
  const lines = [
    `### ${code(f.crate)} has no feature ${code(f.feature)} at this release`,
    "",
    `cargo reports ${code(f.printed)}${r.version ? ` (it tried ${code(f.crate)} ${code(r.version)}${f.requirement ? `, for ${code(f.requirement)}` : ""})` : ""}.`,
    "",
  ];
  // Said once: the manifest's own list carries the feature cargo named, with its history.
  const covered = refusedManifest(r)?.refused?.some((x) => x.crate === f.crate && x.feature === f.feature);
  if (r.history && !covered)
    lines.push(`${code(f.crate)} ${code(r.version!)} does not have it: ${historyText(r.history, f.crate)}`, "");
  lines.push(...manifestPart(r), "");
  const source = r.version ? `burn ${code(r.version)} (${sourceText({ version: r.version, source: "cargo" })}). ` : "";
  lines.push(`<sub>${source}${footer}</sub>`);
  return lines;
}
