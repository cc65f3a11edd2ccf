// rustc's missing `burn::…` paths answered from burn's source at a release newer than the
// gated-path data (src/compile/source-gates.ts over the files the shell read at that tag): the
// gate of each, or that the path does not exist there. Pure.
import { type BurnSources, sourceKey } from "../answer/burn-files.js";
import { conjunctsOf } from "../cargo/resolve/cfg.js";
import { burnPermalink } from "../util/links.js";
import type { CompileFinding } from "./detect.js";
import type { Gate } from "./gated.js";
import { memberSourceGate, type ParsedFiles, type SourceGate, sourceGate, stepBudget } from "./source-gates.js";

export type FromSource =
  /** Files to read first (at `ref`). */
  | { kind: "need"; files: string[] }
  /** Every finding resolved: the gated ones (path → gate) and those the release does not have. */
  | {
      kind: "answer";
      /** `path`: the finding's, or the member's full path (E0599 may print a trimmed type). */
      gated: Array<{ finding: CompileFinding; path: string; gate: Gate; url: string | null }>;
      absent: CompileFinding[];
    }
  /** Something on the way cannot be read to the end: the data's answer stands. */
  | { kind: "unknown" };

/** `feature = "burn/train"`, or an `all(…)` of burn's own features: those features; else null. */
export function ownFeatures(gate: string): string[] | null {
  const out = conjunctsOf(gate).map((a) => /^feature = "burn\/([A-Za-z0-9_+.-]+)"$/.exec(a)?.[1] ?? null);
  return out.length > 0 && out.every((f) => f !== null) ? (out as string[]) : null;
}

/** A gate read from the source as the data's records are kept, linked at the innermost `#[cfg]` (where the data points too). */
export function gateRecord(ref: string, g: SourceGate & { kind: "gated" }): { gate: Gate; url: string | null } {
  const site = g.terms.at(-1)!;
  const suggest = ownFeatures(g.gate);
  return {
    gate: {
      gate: g.gate,
      cfg: site.written,
      crate: site.crate,
      file: site.file,
      cfg_line: site.cfgLine,
      suggest,
      suggest_no_default: suggest,
      by_default: null,
      from: "source",
    },
    url: burnPermalink(ref, site.file, site.cfgLine, null),
  };
}

/** Where the newest gated-path data saw a member (E0599): its full path and the file of its impl. */
export type MemberHint = (f: CompileFinding) => { path: string; file: string } | null;

export function fromSource(
  ref: string,
  findings: CompileFinding[],
  sources: BurnSources | undefined,
  memberHint: MemberHint = () => null,
): FromSource {
  const read = (path: string) => sources?.[sourceKey(ref, path)];
  const need = new Set<string>();
  const gated: Extract<FromSource, { kind: "answer" }>["gated"] = [];
  const absent: CompileFinding[] = [];
  const parsed: ParsedFiles = new Map();
  // One budget for the event's paths: their resolution runs in one go, holding the event loop.
  const budget = stepBudget();
  for (const f of findings) {
    const hint = f.member ? memberHint(f) : null;
    if (f.member && !hint) return { kind: "unknown" };
    const g = hint
      ? memberSourceGate(
          hint.path.split("::").slice(0, -1).join("::"),
          hint.path.split("::").at(-1)!,
          hint.file,
          read,
          parsed,
          budget,
        )
      : sourceGate(f.path, read, parsed, budget);
    if (g.kind === "need") for (const p of g.files) need.add(p);
    else if (g.kind === "unknown") return { kind: "unknown" };
    else if (g.kind === "absent") absent.push(f);
    else if (g.kind === "gated") gated.push({ finding: f, path: hint?.path ?? f.path, ...gateRecord(ref, g) });
    // ungated: the path exists with any features; the error has another cause.
  }
  if (need.size > 0) return { kind: "need", files: [...need].sort() };
  return { kind: "answer", gated, absent };
}
