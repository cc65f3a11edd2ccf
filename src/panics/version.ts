// Which burn version (or commit) produced the panic. Sources, strongest first: the backtrace
// path, Cargo.lock text, the manifest, a version written in prose, the panic's line number.
import semver from "semver";
import { type Entry, loadCatalog, type Site } from "./catalog.js";
import type { Finding } from "./detect.js";

export type VersionSource = "backtrace" | "git-checkout" | "Cargo.lock" | "manifest" | "prose" | "line-number" | "assumed";

export interface VersionGuess {
  version: string | null;
  /** Commit id when the code came from git. */
  commit: string | null;
  source: VersionSource;
}

const LOCK_NAME = /^\s*name\s*=\s*"(burn(?:-[a-z-]+)?)"\s*$/;
const LOCK_VERSION = /^\s*version\s*=\s*"([^"]+)"\s*$/;

/** `[[package]] name = "burn-dispatch" version = "…"` pairs from pasted Cargo.lock text. */
export function versionFromLock(text: string): string | null {
  const lines = text.split("\n");
  let found: string | null = null;
  for (let i = 0; i + 1 < lines.length; i++) {
    const name = LOCK_NAME.exec(lines[i]!);
    if (!name) continue;
    const v = LOCK_VERSION.exec(lines[i + 1]!);
    if (!v) continue;
    if (name[1] === "burn-dispatch") return v[1]!;
    if (name[1] === "burn" || !found) found = v[1]!;
  }
  return found;
}

/**
 * `0.22.0-pre.2`, `v0.22.0-pre.2`, and the ways people write it in prose: `0.22 pre 2`,
 * `0.22-pre.2`, `0.22.0 pre2`. The patch defaults to 0.
 */
const VERSION_TOKEN = /\bv?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3}))?(?:(?:[ -]|\.(?=pre))?(pre|alpha|beta|rc)[ .-]?(\d{1,3}))?\b/gi;

/** A burn release named in prose; only versions that burn actually published count. */
export function versionFromProse(text: string): string | null {
  const known = new Set(loadCatalog().refs.map((r) => r.version));
  for (const m of text.slice(0, 65536).matchAll(VERSION_TOKEN)) {
    const [, major, minor, patch, tag, n] = m;
    const v = `${major}.${minor}.${patch ?? "0"}${tag ? `-${tag.toLowerCase()}.${n}` : ""}`;
    if (known.has(v) && semver.gte(v, "0.21.0-pre.1")) return v;
  }
  return null;
}

/** Refs at which this entry sits exactly at the printed file and line. */
export function refsForLine(entry: Entry, finding: Finding): Site[] {
  const loc = finding.location;
  if (!loc?.repoPath) return [];
  return entry.sites.filter((s) => s.file === loc.repoPath && s.line === loc.line);
}

/** `known.lock` / `known.manifest`: versions read from a Cargo.lock and the resolved manifest. */
export function guessVersion(finding: Finding, entry: Entry, text: string, known: { lock?: string | null; manifest?: string | null; manifestCommit?: string | null } = {}): VersionGuess {
  const loc = finding.location;
  if (loc?.origin === "registry" && loc.version) return { version: loc.version, commit: null, source: "backtrace" };
  if (loc?.origin === "git" && loc.commit) return { version: null, commit: loc.commit, source: "git-checkout" };
  const lock = known.lock ?? versionFromLock(text);
  if (lock) return { version: lock, commit: null, source: "Cargo.lock" };
  // A git `rev = "…"` is a commit, not a version requirement.
  if (known.manifestCommit) return { version: null, commit: known.manifestCommit, source: "manifest" };
  if (known.manifest) return { version: known.manifest, commit: null, source: "manifest" };
  const prose = versionFromProse(text);
  if (prose) return { version: prose, commit: null, source: "prose" };
  const byLine = refsForLine(entry, finding).filter((s) => s.version !== null);
  if (byLine.length > 0) {
    const site = byLine.at(-1)!;
    return { version: site.version, commit: site.ref === "HEAD" ? site.commit : null, source: "line-number" };
  }
  const newest = entry.sites.filter((s) => s.ref !== "HEAD").at(-1) ?? entry.sites.at(-1);
  if (!newest) return { version: null, commit: null, source: "assumed" };
  return { version: newest.version, commit: newest.version === null ? newest.commit : null, source: "assumed" };
}
