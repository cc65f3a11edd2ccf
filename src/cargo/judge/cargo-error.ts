// cargo's own refusal as users paste it (cargo 1.95, for `build`, `check`, `run`, `test` and
// `tree` alike: fixtures/cargo/): `package `myapp` depends on `burn` with feature `server` but
// `burn` does not have that feature.`, with the requirement and the version it tried just above.
// Pure and linear: a text without burn's name or the tail's word costs one or two `includes`.

import { MAX_INPUT } from "../../panics/detect.js";
import { cleanText, type Has, textLookup } from "../../panics/normalize.js";

export interface CargoRefusal {
  /** The package whose manifest names the feature (cargo's `package `x``). */
  package: string;
  crate: string;
  feature: string;
  /** `versions that meet the requirements `^0.22.0-pre.2` are: 0.22.0-pre.2`, when shown. */
  requirement: string | null;
  versions: string[];
  /** The sentence as cargo printed it. */
  printed: string;
}

/** The sentence with every space a whitespace run: a terminal or an issue form wraps it anywhere. */
const SENTENCE = new RegExp(
  "package `([A-Za-z0-9_-]{1,64})` depends on `(burn(?:-[a-z0-9]+)*)` with feature `([^`\\s]{1,100})` but `\\2` does not have that feature\\.".replace(
    / /g,
    // Bounded runs: two adjacent unbounded ones would backtrack quadratically on a run of spaces.
    "[^\\S\\n]{0,8}\\n?(?:> ?){0,4}[^\\S\\n]{0,8}",
  ),
);
const VERSIONS = /versions that meet the requirements `([^`\n]{1,100})` (?:are|is): ([^\n]{1,400})/;

/**
 * Whether a raw text may hold the refusal: the crate's name, then a word of the sentence's tail.
 * A terminal or an issue form may wrap the sentence at any space, so a literal of two words could
 * be cut; a word cannot. `have` is the tail's cheapest: 5 µs over a 64 KiB log, where the tail
 * itself cost 30.
 */
export function mayHoldRefusal(has: Has): boolean {
  return has("burn") && has("have");
}

/** The first refusal of a burn crate in the text, or null. */
export function detectCargoRefusal(input: string): CargoRefusal | null {
  const head = input.length > MAX_INPUT ? input.slice(0, MAX_INPUT) : input;
  if (!mayHoldRefusal(textLookup(head))) return null;
  const text = cleanText(head);
  const m = SENTENCE.exec(text);
  if (!m) return null;
  // The requirement line belongs to this error: it is printed a few lines above the sentence.
  const before = text.slice(Math.max(0, m.index - 600), m.index);
  const v = VERSIONS.exec(before);
  return {
    package: m[1]!,
    crate: m[2]!,
    feature: m[3]!,
    requirement: v?.[1] ?? null,
    versions: v
      ? v[2]!
          .split(/,\s*/)
          .map((s) => s.trim())
          .filter((s) => /^\d+\.\d+\.\d+/.test(s))
      : [],
    printed: m[0].replace(/\s*\n(?:> ?)*\s*/g, " "),
  };
}
