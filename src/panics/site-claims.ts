// What may be said of the code a panic was raised in, each claim with its evidence: the site's
// own `#[cfg]` quoted as burn's source writes it, and which features remove that code only when
// that quoted cfg says so. The family data's `gate` (when the site is *reached*) is not the cfg
// the code is compiled under: `BURN_DEVICE`'s fallback sits under `#[cfg(feature = "std")]`
// alone, and an earlier `cuda` line returns before it; a `_ => unreachable!` arm has no cfg at
// all. Saying "compiled in when `all(std, not(cuda))`" or "`cuda` removes this code" of them
// is false. Pure.
import { gateHolds } from "../cargo/resolve/cfg.js";
import type { SourceLink } from "./source-link.js";

interface At {
  crate: string;
  /** The repository path and line of the site, at `ref`. */
  file: string;
  line: number;
  ref: string;
}

export type GateClaim =
  /** The site sits under this `#[cfg]`, written as the source writes it (layout collapsed). */
  | (At & { kind: "under"; cfg: string })
  /** The data records no `#[cfg]` on the site at that ref: no feature removes it. */
  | (At & { kind: "ungated" });

/** One line: the attribute as written, its runs of whitespace (a multi-line `any(…)`) made one space. */
export function cfgAsWritten(attr: string): string {
  return attr
    .replace(/\s+/g, " ")
    .replace(/\(\s+/g, "(")
    .replace(/,?\s+\)/g, ")");
}

/** The claim about the site's cfg; null when the site linked is not one the data or source holds there. */
export function gateClaim(link: SourceLink | null): GateClaim | null {
  if (!link?.verified) return null;
  const at = { crate: link.crate, file: link.repoPath, line: link.line, ref: link.ref };
  return link.cfg ? { ...at, kind: "under", cfg: cfgAsWritten(link.cfg) } : { ...at, kind: "ungated" };
}

/** `#[cfg(not(feature = "x"))]` → `not(feature = "x")`; null for another attribute. */
function predicateOf(cfg: string): string | null {
  return /^#\[cfg\(([\s\S]*)\)\]$/.exec(cfg.trim())?.[1] ?? null;
}

/**
 * Of `features` (of the site's own crate), those the quoted cfg proves remove the code: it holds
 * with none of them on, and fails with that one alone. A cfg the parser cannot read proves nothing,
 * as does a feature reached only through another flag (`wgpu_metal`, set by a build script).
 */
export function removedBy(claim: GateClaim | null, features: string[]): string[] {
  if (claim?.kind !== "under") return [];
  const p = predicateOf(claim.cfg);
  if (!p || !gateHolds(p, () => false)) return [];
  return features.filter((f) => !gateHolds(p, (x) => x === f));
}
