// Which burn the user's build has, where that knowledge came from, and what had to be assumed.
// Pure: a dependency declaration, the bundled index data and any pinned version in; a selection
// out. Everything outside the data is said to be outside it, never silently replaced.
import { code } from "../render/escape.js";
import semver from "semver";
import { loadCatalog } from "../panics/catalog.js";
import type { DepDecl } from "./manifest.js";
import { cargoRange, type IndexLine, type Registry, selectVersion, snapshot } from "./registry.js";

/** burn-dispatch (and with it the runtime autodiff stub) first shipped in this release. */
export const FIRST_DISPATCH = "0.21.0-pre.2";
/** The commit of burn's main branch that the bundled `main` snapshot was taken at (from the data). */
function mainSnapshotCommit(): string {
  return loadCatalog().refs.find((r) => r.ref === "HEAD")?.commit ?? "";
}

export type VersionSource = "lock" | "backtrace" | "requirement" | "path" | "git" | "prose" | "default";

export interface Pin {
  version: string;
  source: "lock" | "backtrace" | "prose";
}

export interface Selection {
  /** The version whose feature graph describes the build, as far as the data goes. */
  version: string | null;
  source: VersionSource;
  /** Which snapshot holds that graph. */
  snapshot: "tags" | "main";
  line: IndexLine | null;
  /** Set when the build's burn predates burn-dispatch (the version, or the requirement as written). */
  preDispatch: string | null;
  assumed: { version?: string; graph?: string };
}

/** A path dependency is burn's own only when it points into a burn checkout (`…/crates/burn-x`). */
export function isBurnCheckoutPath(path: string): boolean {
  return /(?:^|[\\/])crates[\\/]burn(?:-[a-z0-9-]+)?[\\/]?$/i.test(path.trim());
}

export function isBurnCrate(name: string): boolean {
  return name === "burn" || name.startsWith("burn-");
}

/**
 * burn's crate, not the user's own crate that happens to be named `burn-…`. A path dependency
 * is burn's when it is named `burn` (a local clone, any layout), points into a burn checkout
 * (`…/crates/burn-x`), or sits in a folder of its own name in the old layout without `crates/`
 * (`../burn/burn-core`) under a name burn publishes.
 */
export function isBurnDependency(d: DepDecl): boolean {
  if (!isBurnCrate(d.name)) return false;
  if (d.path === null || d.name === "burn" || isBurnCheckoutPath(d.path)) return true;
  const segments = d.path.trim().replace(/[\\/]+$/, "").split(/[\\/]/);
  return segments.at(-1) === d.name && segments.at(-2)?.toLowerCase() === "burn" && snapshot("tags").versions(d.name).length > 0;
}

function olderThan(first: string | null, version: string): boolean {
  const v = semver.valid(version);
  return first !== null && v !== null && semver.lt(v, first);
}

/** Every version the requirement admits is older than `first`. */
function requirementPredates(first: string | null, req: string): boolean {
  const range = semver.validRange(cargoRange(req));
  return first !== null && range !== null && semver.gtr(first, range, { includePrerelease: true });
}

const newest = (lines: IndexLine[]) => lines.filter((l) => !l.yanked).at(-1) ?? null;

/**
 * Selects the version of one burn dependency. `regs` are the bundled release-tag and main-branch
 * snapshots; `pin` a version known from the user's build (Cargo.lock, backtrace path, prose);
 * `first` the first release that has the crate the question is about (burn-dispatch's by
 * default; null when every release has it), below which `preDispatch` is set.
 */
export function selectBurn(d: DepDecl, regs: { tags: Registry; main: Registry }, pin: Pin | null, first: string | null = FIRST_DISPATCH): Selection {
  const older = (v: string) => olderThan(first, v);
  const tags = regs.tags.versions(d.name);
  const main = regs.main.versions(d.name);
  const base = { preDispatch: null, assumed: {} };

  if (pin) {
    const hit = tags.find((l) => l.vers === pin.version);
    if (older(pin.version)) return { ...base, version: pin.version, source: pin.source, snapshot: "tags", line: hit ?? null, preDispatch: pin.version };
    if (hit) return { ...base, version: pin.version, source: pin.source, snapshot: "tags", line: hit };
  }

  if (d.git) {
    const tag = d.gitRef?.tag?.replace(/^v/, "");
    const tagged = tag ? tags.find((l) => l.vers === tag) : undefined;
    if (tag && older(tag)) return { ...base, version: tag, source: "git", snapshot: "tags", line: tagged ?? null, preDispatch: tag };
    if (tagged) return { ...base, version: tagged.vers, source: "git", snapshot: "tags", line: tagged };
    const line = newest(main);
    const rev = d.gitRef?.rev;
    const head = mainSnapshotCommit();
    const known = rev !== undefined && rev.length >= 7 && head.startsWith(rev.toLowerCase());
    const which = rev ? `rev ${code(rev)}` : d.gitRef?.branch ? `branch ${code(d.gitRef.branch)}` : d.gitRef?.tag ? `tag ${code(d.gitRef.tag)}` : "its default branch";
    const graph = known ? undefined : `burn from git (${which}) is not in the bundled data; I used burn's main branch at ${head.slice(0, 7)}`;
    return { ...base, version: line?.vers ?? null, source: "git", snapshot: "main", line, assumed: graph ? { graph } : {} };
  }

  if (d.path) {
    const line = newest(main);
    return {
      ...base,
      version: line?.vers ?? null,
      source: "path",
      snapshot: "main",
      line,
      assumed: { graph: `burn from a local checkout (${code(d.path)}) has no version I can read; I used burn's main branch at ${mainSnapshotCommit().slice(0, 7)}` },
    };
  }

  if (!d.version) {
    const line = newest(tags.filter((l) => !semver.prerelease(l.vers))) ?? newest(tags);
    return { ...base, version: line?.vers ?? null, source: "default", snapshot: "tags", line, assumed: { version: `no version requirement for ${code(d.key)}; I assumed burn ${line?.vers ?? "?"}` } };
  }

  if (requirementPredates(first, d.version)) return { ...base, version: null, source: "requirement", snapshot: "tags", line: null, preDispatch: d.version };
  const line = selectVersion(tags, d.version);
  if (line) return { ...base, version: line.vers, source: "requirement", snapshot: "tags", line, preDispatch: older(line.vers) ? line.vers : null };
  const last = newest(tags);
  const pinNote = pin ? ` (burn ${code(pin.version)}, from the ${pin.source === "lock" ? "Cargo.lock" : pin.source})` : "";
  return {
    ...base,
    version: last?.vers ?? null,
    source: "requirement",
    snapshot: "tags",
    line: last,
    assumed: { graph: `${code(`${d.key} = ${JSON.stringify(d.version)}`)}${pinNote} matches no release in the bundled data (newest: ${last?.vers ?? "none"}); I used burn ${last?.vers ?? "?"}'s feature graph` },
  };
}
