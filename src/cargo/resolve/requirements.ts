// Which release a requirement selects, as cargo selects it: cargo's requirement syntax as semver
// ranges (a bare `0.20` is `^0.20`), pre-releases only where the requirement names one, the
// newest match (or the lock's pin), each parse memoised within bounds.

import { boundedMemo, MAX_MEMO_KEY, type Memo } from "../../util/memo.js";
import * as semver from "../../util/semver.js";
import type { IndexLine } from "../index/index-file.js";

/** Cargo's requirement syntax in node-semver's: a bare version is a caret requirement. */
export function cargoRange(req: string): string {
  return req
    .split(",")
    .map((part) => {
      const p = part.trim();
      return /^\d/.test(p) ? `^${p}` : p.replace(/^([<>=~^]+)\s+/, "$1");
    })
    .join(" ");
}

/**
 * Cargo's matching: a requirement without a pre-release (`*`, `>=0.20`, `0.21`) never matches a
 * pre-release; one with a pre-release matches pre-releases of the same major.minor.patch only
 * (`^0.22.0-pre.1` matches `0.22.0-pre.2`). node-semver's default matching is exactly that.
 * `null` (no requirement: a git or path dependency) matches anything.
 */
export function matches(version: string, req: string | null): boolean {
  return satisfies(version, req, { includePrerelease: false });
}

/**
 * Whether a requirement admits a version the build is known to have (a lock, a backtrace): as
 * cargo would lock it, pre-releases included. An unparsable requirement admits nothing.
 */
export function admits(req: string, version: string): boolean {
  return satisfies(version, req, { includePrerelease: true });
}

/** `includePrerelease` for a pinned version: one that was built is compatible with a plain `*`. */
function satisfies(version: string, req: string | null, opts: { includePrerelease: boolean }): boolean {
  if (req === null) return true;
  const range = rangeOf(req, opts.includePrerelease);
  const v = versionOf(version);
  return v !== null && range?.test(v) === true;
}

const MAX_RANGES = 4096;

/** Parsed once per version string: every requirement of a resolution tests the same few hundred. */
const versionsParsed = boundedMemo<semver.SemVer | null>(MAX_RANGES);

function versionOf(version: string): semver.SemVer | null {
  let v = versionsParsed.get(version);
  if (v === undefined) {
    v = semver.parse(version);
    versionsParsed.set(version, v);
  }
  return v;
}

/**
 * Parsed once per requirement: a resolution tests the same few requirements thousands of times.
 * Callers that hand a range on to semver pass it parsed, with the same options: semver takes such
 * a Range as it is, where a string is parsed again (a CLI call's first parses are its slowest).
 */
const ranges = boundedMemo<semver.Range | null>(MAX_RANGES);

/**
 * A requirement longer than this is not parsed: it reads as unparsable (it admits nothing, and
 * the answer says it was not read). Cargo's are tens of characters; node-semver keeps every range
 * it parses in a cache of 1,000 by the range's text, with its comparators, so 1,000 pasted 30 KB
 * requirements held 880 MB after GC (bench/memory.ts).
 */
export const MAX_REQUIREMENT = MAX_MEMO_KEY;

export function rangeOf(req: string, includePrerelease: boolean): semver.Range | null {
  if (req.length > MAX_REQUIREMENT) return null;
  const key = `${includePrerelease ? "+" : "-"}${req}`;
  let range = ranges.get(key);
  if (range === undefined) {
    range = parseRange(cargoRange(req === "" ? "*" : req), includePrerelease);
    // Requirements come from index data and issues: bounded, and long ones are not kept.
    ranges.set(key, range);
  }
  return range;
}

/** `semver.validRange` then `new Range` would parse it twice (a CLI call's first parses are its slowest). */
function parseRange(range: string, includePrerelease: boolean): semver.Range | null {
  try {
    return new semver.Range(range, { includePrerelease });
  } catch {
    return null;
  }
}

/**
 * Cargo picks the highest matching version that is not yanked; a pin (Cargo.lock, a backtrace
 * path) is what was actually built, so it wins whenever it is compatible with the requirement.
 */
/** Per index file (which the bundled data keeps for the process): bounded, long keys never kept. */
const selections = new WeakMap<IndexLine[], Memo<IndexLine | null>>();
const SELECTIONS_PER_FILE = 256;

export function selectVersion(lines: IndexLine[], req: string | null, pin?: string): IndexLine | null {
  let memo = selections.get(lines);
  if (!memo) {
    memo = boundedMemo(SELECTIONS_PER_FILE);
    selections.set(lines, memo);
  }
  const key = `${req}\u0000${pin ?? ""}`;
  let picked = memo.get(key);
  if (picked === undefined) {
    picked = pick(lines, req, pin);
    memo.set(key, picked);
  }
  return picked;
}

function pick(lines: IndexLine[], req: string | null, pin?: string): IndexLine | null {
  if (pin) {
    const pinned = lines.find((l) => l.vers === pin);
    if (pinned && satisfies(pin, req, { includePrerelease: true })) return pinned;
  }
  let best: IndexLine | null = null;
  for (const l of lines) {
    if (l.yanked || !matches(l.vers, req)) continue;
    if (!best || versionOf(l.vers)!.compare(versionOf(best.vers)!) > 0) best = l;
  }
  return best;
}
