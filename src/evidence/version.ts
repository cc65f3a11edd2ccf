// Which burn release the text's build has, read from every place a text shows it, strongest
// first: a crate path the build printed (a backtrace's or rustc's `-->` / `:::` line), a git
// checkout path, Cargo.lock, the manifest, a version named next to "burn" in prose. Panics and
// rustc errors take their version from here, through `pickVersion`, in one order.

import { isBurnCrate, type VersionSource } from "../cargo/manifest/burn-version.js";
import { lockPackages } from "../cargo/manifest/lockfile.js";
import { loadCatalog } from "../panics/catalog.js";
import { cargoTreeOf } from "./cargo-tree.js";
import * as semver from "../util/semver.js";

export interface VersionGuess {
  version: string | null;
  /** Commit id when the code came from git. */
  commit: string | null;
  source: VersionSource;
  /** For source "requirement": the requirement as written, which resolved to `version`. */
  requirement?: string | null;
}

const SCAN_CHARS = 65_536;

/**
 * The burn a pasted Cargo.lock's `[[package]]` entries (src/cargo/manifest/lockfile.ts reads them) show:
 * burn-dispatch's, else the last `burn` (the newest: cargo sorts by version), else the first burn crate.
 */
export function versionFromLock(text: string): string | null {
  const burn = lockPackages(text).filter((p) => isBurnCrate(p.name));
  return (
    burn.find((p) => p.name === "burn-dispatch")?.version ??
    burn.filter((p) => p.name === "burn").at(-1)?.version ??
    burn[0]?.version ??
    null
  );
}

/**
 * `…/index.crates.io-…/burn-core-0.20.0-pre.2/src/lib.rs`, and cargo's own `Compiling burn-core
 * v0.20.0-pre.2` status line: the build's crate at its version. burn's crates share one version.
 */
const CRATE_PATH =
  /(?:[\\/](burn(?:-[a-z][a-z0-9]*)*)-(\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)[\\/]src[\\/]|(?:^|\n)(?:[^\S\n]|\x1b\[[0-9;]*m)*Compiling(?:\x1b\[[0-9;]*m)* (burn(?:-[a-z][a-z0-9]*)*) v(\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)(?=[\s(]|$))/g;

/** The version in the first burn crate path the build printed (rustc's notes, a backtrace). */
export function versionFromPaths(text: string): string | null {
  for (const m of text.slice(0, SCAN_CHARS).matchAll(CRATE_PATH)) {
    const [name, version] = m[1] ? [m[1], m[2]!] : [m[3]!, m[4]!];
    if (isBurnCrate(name) && semver.valid(version)) return version;
  }
  return null;
}

/**
 * `0.22.0-pre.2`, `v0.22.0-pre.2`, and the ways people write it in prose: `0.22 pre 2`,
 * `0.22-pre.2`, `0.22.0 pre2`. The patch defaults to 0.
 */
const VERSION = String.raw`v?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3}))?(?:(?:[ -]|\.(?=pre))?(pre|alpha|beta|rc)[ .-]?(\d{1,3}))?\b`;
/** "burn 0.16.0", "burn = "0.19"", "burn v0.20", "burn version 0.21", "burn@0.22.1", "burn-core 0.20". */
const NEXT_TO_BURN = new RegExp(
  String.raw`\bburn(?:-[a-z][a-z0-9]*)*(?:[ \t]*[=:@][ \t]*|[ \t]+(?:(?:version|crate|is|at|on|of)[ \t]+)?)["'^~=]*${VERSION}`,
  "gi",
);
const BARE = new RegExp(String.raw`\b${VERSION}`, "gi");

function normal(m: RegExpMatchArray): string {
  const [, major, minor, patch, tag, n] = m;
  return `${major}.${minor}.${patch ?? "0"}${tag ? `-${tag.toLowerCase()}.${n}` : ""}`;
}

/**
 * A burn release named in prose. Next to the word "burn" any version counts (a release newer
 * than the data is still the user's, and is said to be outside it). Alone, only a pre-release
 * burn published counts: "wgpu 0.19" or "rustc 1.85.0" are other things' versions.
 */
export function versionFromProse(text: string): string | null {
  const head = text.slice(0, SCAN_CHARS);
  for (const m of head.matchAll(NEXT_TO_BURN)) {
    const v = normal(m);
    if (semver.valid(v)) return v;
  }
  const known = new Set(loadCatalog().refs.map((r) => r.version));
  for (const m of head.matchAll(BARE)) {
    const v = normal(m);
    if (m[4] && known.has(v)) return v;
  }
  return null;
}

/** What a text (and a Cargo.lock the shell read) shows, before any manifest is resolved. */
export interface TextVersions {
  path: string | null;
  lock: string | null;
  /** The root of a pasted `cargo tree` (src/evidence/cargo-tree.ts), as cargo resolved it. */
  tree: string | null;
  prose: string | null;
}

export function textVersions(text: string, repoLock?: string | null): TextVersions {
  return {
    path: versionFromPaths(text),
    lock: versionFromLock(text) ?? (repoLock ? versionFromLock(repoLock) : null),
    tree: cargoTreeOf(text)?.version ?? null,
    prose: versionFromProse(text),
  };
}

/** Every candidate, in the one order both pipelines use; `fallback` when nothing names one. */
export interface Candidates {
  /** The panic's own location (registry or git checkout), the strongest fact there is. */
  printed?: VersionGuess | null;
  text: TextVersions;
  manifestCommit?: string | null;
  manifest?: string | null;
  /** The requirement `manifest` was resolved from, as written (`0.20`). */
  manifestRequirement?: string | null;
  /** Panics only: the printed line exists at one release. */
  lineNumber?: VersionGuess | null;
}

export function pickVersion(c: Candidates, fallback: VersionGuess): VersionGuess {
  if (c.printed) return c.printed;
  if (c.text.path) return { version: c.text.path, commit: null, source: "crate-path" };
  if (c.text.lock) return { version: c.text.lock, commit: null, source: "lock" };
  if (c.text.tree) return { version: c.text.tree, commit: null, source: "cargo-tree" };
  // A git `rev = "…"` is a commit, not a version requirement.
  if (c.manifestCommit) return { version: null, commit: c.manifestCommit, source: "git" };
  if (c.manifest)
    return { version: c.manifest, commit: null, source: "requirement", requirement: c.manifestRequirement ?? null };
  if (c.text.prose) return { version: c.text.prose, commit: null, source: "prose" };
  return c.lineNumber ?? fallback;
}
