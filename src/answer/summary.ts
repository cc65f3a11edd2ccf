// What an analysis found, as data with the same fields for a panic and a rustc error: what
// `explain --json` prints, so a script sees what the comment says.

import type { FixPlan } from "../cargo/fix/fix.js";
import type { VersionSource } from "../cargo/manifest/burn-version.js";
import { targetName } from "../cargo/resolve/resolve.js";
import type { Analysis } from "./analyze.js";

export interface FindingSummary {
  kind: "panic" | "compile" | "refusal";
  /** The catalog entry (panics), the rustc error code (compile errors), `cargo` (cargo's refusal). */
  id: string;
  /** The message as printed (panics) or rustc's error line (compile errors). */
  printed: string;
  /** The gated `burn::…` path, for compile errors. */
  path: string | null;
  version: string | null;
  commit: string | null;
  versionSource: VersionSource | null;
  /** The cargo feature that fixes it (`crate/feature`), null when none or a choice. */
  target: string | null;
  /** Where the judged manifest came from; null when none was read or assumed. */
  manifest: "issue" | "repository" | "assumed" | null;
  fix: { path: string; dependency: string; add: string[]; diff: string } | null;
}

function fixOf(plan: FixPlan | undefined): FindingSummary["fix"] {
  if (plan?.kind !== "fixed") return null;
  const c = plan.change;
  return { path: c.path, dependency: c.dependency, add: c.added, diff: c.diff };
}

export function summarize(a: Analysis): FindingSummary[] {
  if (a.kind === "none") return [];
  if (a.kind === "panic") {
    const target = a.target.kind === "one" ? targetName(a.target.target) : null;
    const base = {
      kind: "panic" as const,
      path: null,
      version: a.version.version,
      commit: a.version.commit,
      versionSource: a.version.source,
      target,
    };
    return a.findings.map((f) => ({
      ...base,
      id: f.id,
      printed: f.printed,
      manifest: f === a.primary ? (a.manifest?.origin ?? null) : null,
      fix: f === a.primary ? fixOf(a.manifest?.plan) : null,
    }));
  }
  if (a.kind === "refusal") {
    const r = a.refusal;
    return [
      {
        kind: "refusal",
        id: "cargo",
        printed: r.found.printed,
        path: null,
        version: r.version,
        commit: null,
        versionSource: null,
        target: `${r.found.crate}/${r.found.feature}`,
        manifest: r.manifest?.origin ?? null,
        fix: null,
      },
    ];
  }
  const c = a.compile;
  return c.items.map((i) => ({
    kind: "compile" as const,
    id: i.finding.code,
    printed: i.finding.printed,
    path: i.path,
    version: c.release.version,
    commit: null,
    versionSource: c.release.source,
    target: i.gate.gate,
    manifest: c.manifest?.origin ?? null,
    fix: fixOf(c.manifest?.plan),
  }));
}
