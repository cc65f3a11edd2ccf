// A panic's release: the printed location first, then what the text shows (src/evidence), then
// the panic's line number, which may exist at one release only.
import { type Candidates, pickVersion, type VersionGuess } from "../evidence/version.js";
import type { Entry, Site } from "./catalog.js";
import type { Finding } from "./detect.js";

/** Refs at which this entry sits exactly at the printed file and line. */
export function refsForLine(entry: Entry, finding: Finding): Site[] {
  const loc = finding.location;
  if (!loc?.repoPath) return [];
  return entry.sites.filter((s) => s.file === loc.repoPath && s.line === loc.line);
}

function printed(finding: Finding): VersionGuess | null {
  const loc = finding.location;
  if (loc?.origin === "registry" && loc.version) return { version: loc.version, commit: null, source: "backtrace" };
  if (loc?.origin === "git" && loc.commit) return { version: null, commit: loc.commit, source: "git-checkout" };
  return null;
}

function byLine(entry: Entry, finding: Finding): VersionGuess | null {
  const sites = refsForLine(entry, finding).filter((s) => s.version !== null);
  // The newest that has the line; main's snapshot only when no release of the same version has it.
  const last = sites.at(-1);
  const site =
    last?.ref === "HEAD" ? (sites.find((s) => s.ref !== "HEAD" && s.version === last.version) ?? last) : last;
  return site
    ? { version: site.version, commit: site.ref === "HEAD" ? site.commit : null, source: "line-number" }
    : null;
}

function newestSite(entry: Entry): VersionGuess {
  const newest = entry.sites.filter((s) => s.ref !== "HEAD").at(-1) ?? entry.sites.at(-1);
  if (!newest) return { version: null, commit: null, source: "assumed" };
  return { version: newest.version, commit: newest.version === null ? newest.commit : null, source: "assumed" };
}

export function guessVersion(
  finding: Finding,
  entry: Entry,
  known: Omit<Candidates, "printed" | "lineNumber">,
): VersionGuess {
  return pickVersion({ ...known, printed: printed(finding), lineNumber: byLine(entry, finding) }, newestSite(entry));
}

/**
 * The release a panic is judged at when the version the issue names predates its message: the one
 * its printed line identifies, else the newest that has the message (said so, never "assumed").
 */
export function releaseWithMessage(finding: Finding, entry: Entry): VersionGuess {
  const newest = newestSite(entry);
  return byLine(entry, finding) ?? { ...newest, source: "message" };
}
