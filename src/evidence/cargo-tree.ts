// A pasted `cargo tree` output as evidence: the burn crate at its root (`cargo tree -i
// burn-dispatch` puts it first), its version and source as cargo resolved them, and, with
// `-e features`, the features of it the build turns on (cargo lists only those). Pure and linear.

import { isBurnCrate } from "../cargo/manifest/burn-version.js";
import * as semver from "../util/semver.js";

export interface CargoTree {
  crate: string;
  version: string;
  /** What the root line shows in parentheses: a path, a git URL (with its commit); null for crates.io. */
  source: string | null;
  /** With `-e features`: every feature of `crate` the tree shows turned on; null without it. */
  features: string[] | null;
  /** The root line, as printed: the span of the issue the claim rests on. */
  proof: string;
}

const SCAN_CHARS = 65_536;
const MAX_FEATURES = 32;
/** A root line: no tree glyph before it, `name vX.Y.Z` and an optional source in parentheses. */
const ROOT = /^(burn(?:-[a-z0-9]+)*) v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)(?: \(([^)\n]*)\))?(?: \(\*\))?[ \t]*$/gm;
const GLYPHS = "[ \\t│├└─|`\\\\-]*";

/** The first `cargo tree` whose root is a burn crate, or null. */
export function cargoTreeOf(text: string): CargoTree | null {
  if (!text.includes(" v0.") && !text.includes(" v1.")) return null;
  const head = text.slice(0, SCAN_CHARS).replace(/\r\n?/g, "\n");
  for (const m of head.matchAll(ROOT)) {
    const [line, crate, version, source] = m;
    if (!isBurnCrate(crate!) || !semver.valid(version!)) continue;
    // The tree under it: the lines that follow, up to the first blank one or the end of a fence.
    const rest = head.slice(m.index! + line.length + 1);
    const end = rest.search(/\n\s*\n|\n```|\n~~~/);
    const body = end < 0 ? rest : rest.slice(0, end);
    const featureLine = new RegExp(`^${GLYPHS}${crate!.replace(/-/g, "\\-")} feature "([^"\\n]+)"`, "gm");
    const anyFeature = new RegExp(`^${GLYPHS}[A-Za-z0-9_-]+ feature "`, "m");
    // A crate has tens of features; a paste listing more is cut (they are echoed into the comment).
    const features = anyFeature.test(body)
      ? [...new Set([...body.matchAll(featureLine)].map((f) => f[1]!))].slice(0, MAX_FEATURES)
      : null;
    return { crate: crate!, version: version!, source: source ?? null, features, proof: line.trim() };
  }
  return null;
}
