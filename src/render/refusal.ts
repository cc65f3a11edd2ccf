// The comment for cargo's refusal pasted in an issue: which feature cargo could not find, every
// feature of the reporter's manifest it would refuse (cargo names one per run), and what burn's
// history says replaces each, and the verified edit past them when the history gives one.
import type { Judgement, RefusalDetail } from "../answer/answer-detail-schema.js";
import { MAX_REFUSALS } from "../cargo/judge/refusal.js";
import { code } from "./escape.js";
import { manifestSection, sourceText } from "./manifest.js";
import { historyText, refusalsSaid } from "./why.js";

/** Each feature cargo would refuse, with when it went: `burn` 0.22.0-pre.2 has no `server` (removed at …). */
type Refusal = NonNullable<Judgement["refused"]>[number];

function refusedLine(list: Refusal[]): string {
  const gone = (x: Refusal) =>
    x.history.kind === "removed"
      ? `removed at ${x.history.at ? code(x.history.at) : "burn's main branch"}`
      : x.history.kind === "gone"
        ? `last in ${code(x.history.lastIn)}`
        : "never a feature of it";
  const each = list.map((x) => `${code(x.crate)} ${x.version} has no ${code(x.feature)} (${gone(x)})`);
  // A feature refused on several lines (a Renovate bump of two tables) is one fact here; the fold names each line.
  return `Cargo would refuse this manifest before building anything: ${[...new Set(each)].join("; ")}.`;
}

/** The reporter's manifest's refusals, when it has any (they include the feature cargo named). */
function refusedManifest(r: RefusalDetail) {
  const plan = r.manifest?.plan;
  return plan && plan.kind !== "invalid-toml" && plan.diagnosis.verdict === "refused" ? plan.diagnosis : null;
}

function manifestPart(r: RefusalDetail): string[] {
  const m = r.manifest;
  const plan = m?.plan;
  const refused = refusedManifest(r);
  if (refused)
    // The manifest's own section: every feature cargo would refuse in a line, and the edit past
    // them when burn's history gives one (verified as the panic answers' edits are); what the
    // history says of each, folded.
    return [
      ...manifestSection(m!, {
        about: "compile",
        reason: refusedLine(refused.refused ?? []),
      }),
      "",
      "<details><summary>What burn's history says of each</summary>",
      "",
      // The verdict ("Cargo would refuse…") is the line above: the fold says only each feature's
      // story, with line numbers only when the manifest read is the whole file.
      refusalsSaid(refused, m!.linesAreFiles, plan?.kind === "fixed"),
      "",
      (refused.refused?.length ?? 0) < MAX_REFUSALS
        ? "cargo names only the first such feature it meets; this lists every one, so that one pass fixes them all."
        : `cargo names only the first such feature it meets; this lists the first ${MAX_REFUSALS}, and the manifest names more.`,
      "</details>",
    ];
  if (plan && plan.kind !== "invalid-toml")
    return [
      "The Cargo.toml I read names no feature its burn release lacks: the one that failed is another manifest (a workspace member, a dependency's, or an older copy).",
    ];
  return [
    "Show the Cargo.toml (and the workspace root's, if burn is inherited) and I will check every feature it names.",
  ];
}

export function renderRefusalBody(r: RefusalDetail, footer: string): string[] {
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
  // The release is of the crate cargo named (`burn-cubecl` 0.20.0-pre.6): burn's own is not known from it.
  const crate = f.crate === "burn" ? "burn" : code(f.crate);
  const source = r.version
    ? `${crate} ${code(r.version)} (${sourceText({ version: r.version, source: "cargo" })}). `
    : "";
  lines.push(`<sub>${source}${footer}</sub>`);
  return lines;
}
