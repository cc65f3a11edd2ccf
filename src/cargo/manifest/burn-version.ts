// Which burn the user's build has, where that knowledge came from, and what had to be assumed.
// Pure: a dependency declaration, the bundled index data and any pinned version in; a selection
// out. Everything outside the data is said to be outside it, never silently replaced.

import { loadCatalog } from "../../panics/catalog.js";
import * as semver from "../../util/semver.js";
import type { IndexLine } from "../index/index-file.js";
import { type Registries, snapshot } from "../index/registry.js";
import { admits, rangeOf, selectVersion } from "../resolve/requirements.js";
import type { DepDecl } from "./manifest.js";

/** burn-dispatch (and with it the runtime autodiff stub) first shipped in this release. */
export const FIRST_DISPATCH = "0.21.0-pre.2";
/** The commit of burn's main branch that the bundled `main` snapshot was taken at (from the data). */
export function mainSnapshotCommit(): string {
  return loadCatalog().refs.find((r) => r.ref === "HEAD")?.commit ?? "";
}

/**
 * Where a burn version came from, in every pipeline (the text's evidence, the manifest's
 * selection, a pin); render/manifest.ts words each.
 */
export type VersionSource =
  /** A burn crate's registry path in a backtrace. */
  | "backtrace"
  /** A burn crate's registry path rustc printed (`-->`, `:::`, a note). */
  | "crate-path"
  /** A git checkout path in a backtrace (a commit, no version). */
  | "git-checkout"
  | "lock"
  /** A pasted `cargo tree`'s root line (`burn-dispatch v0.22.0-pre.2`): the build's resolved version. */
  | "cargo-tree"
  /** The manifest's version requirement. */
  | "requirement"
  /** A git dependency: its tag, its rev, or main's graph. */
  | "git"
  /** A path dependency: main's graph. */
  | "path"
  /**
   * A path dependency whose crate's version was read (its exact requirement, or the Cargo.toml it
   * points to): that release's graph. The checkout may be a commit after it, so cargo's refusal is
   * not claimed from that graph.
   */
  | "path-version"
  /** A version named next to "burn" in the text. */
  | "prose"
  /** The panic's printed line exists at one release only. */
  | "line-number"
  /** The version the issue names predates the message: the newest release that has it. */
  | "message"
  /** cargo's own refusal names the release it tried. */
  | "cargo"
  /** No version requirement: the newest release. */
  | "default"
  /** Nothing names a version. */
  | "assumed";

/** The sources that name the version the user's build has (not a requirement a range admits). */
export const PIN_SOURCES = ["lock", "cargo-tree", "backtrace", "crate-path", "prose", "path-version"] as const;

export interface Pin {
  version: string;
  source: (typeof PIN_SOURCES)[number];
}

export function isPinSource(s: VersionSource): s is Pin["source"] {
  return (PIN_SOURCES as readonly string[]).includes(s);
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
  assumed: { version?: Assumption; graph?: Assumption };
}

/** What had to be assumed, as a fact the renderer words (render/manifest.ts `assumptionText`). */
export type Assumption =
  /** No version requirement: the newest release was assumed. */
  | { kind: "no-requirement"; key: string; assumed: string | null }
  /**
   * A requirement with no upper bound (`*`, `>=0.20`): cargo picks the newest release there is (or
   * what Cargo.lock holds), which may be newer than the releases read; the newest of those was assumed.
   */
  | { kind: "floating"; key: string; requirement: string; assumed: string }
  /**
   * burn from git at a ref the data does not have: main's graph at `head` was used, or, when
   * `unread` (a rev, tag or branch naming a commit that is neither a release tag's nor `head`),
   * nothing was: that commit's features could not be read.
   */
  | { kind: "git"; ref: { rev?: string; branch?: string; tag?: string } | null; head: string; unread?: true }
  /** burn from a local checkout whose version could not be read: its features could not be either. */
  | { kind: "path"; path: string; head: string; unread?: true }
  /** The requirement (or the pinned version) matches no release the data has: `used`'s graph was. */
  | {
      kind: "outside-data";
      key: string;
      requirement: string;
      pin: Pin | null;
      newest: string | null;
      used: string | null;
    };

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
  const segments = d.path
    .trim()
    .replace(/[\\/]+$/, "")
    .split(/[\\/]/);
  return (
    segments.at(-1) === d.name &&
    segments.at(-2)?.toLowerCase() === "burn" &&
    snapshot("tags").versions(d.name).length > 0
  );
}

function olderThan(first: string | null, version: string): boolean {
  const v = semver.valid(version);
  return first !== null && v !== null && semver.lt(v, first);
}

/** Every version the requirement admits is older than `first`. */
function requirementPredates(first: string | null, req: string): boolean {
  const range = rangeOf(req, true);
  return first !== null && range !== null && semver.gtr(first, range, { includePrerelease: true });
}

const newest = (lines: IndexLine[]) => lines.filter((l) => !l.yanked).at(-1) ?? null;

/**
 * Selects the version of one burn dependency. `regs` are the bundled release-tag and main-branch
 * snapshots; `pin` a version known from the user's build (Cargo.lock, backtrace path, prose);
 * `first` the first release that has the crate the question is about (burn-dispatch's by
 * default; null when every release has it), below which `preDispatch` is set.
 */
export function selectBurn(
  d: DepDecl,
  regs: Registries,
  pin: Pin | null,
  first: string | null = FIRST_DISPATCH,
): Selection {
  const tags = regs.tags.versions(d.name);
  // A pin this dependency's requirement cannot select is another burn of the build (a dependency's).
  const own = pin && (d.git || d.path || !d.version || admits(d.version, pin.version));
  const pinned = pin && own ? fromPin(pin, tags, first) : null;
  if (pinned) return pinned;
  // main's snapshot answers only for a checkout: a registry requirement does not read it.
  if (d.git) return fromGit(d, tags, regs.main.versions(d.name), first);
  if (d.path) return fromPath(d, tags, regs.main.versions(d.name), first);
  return fromRequirement(d, tags, pin, first);
}

// Frozen: every Selection spreads it, so its `assumed` object is shared.
const BASE = Object.freeze({ preDispatch: null, assumed: Object.freeze({}) });

/** A version from the user's build: used when it is a release the data has, or predates `first`. */
function fromPin(pin: Pin, tags: IndexLine[], first: string | null): Selection | null {
  const hit = tags.find((l) => l.vers === pin.version);
  const at = { ...BASE, version: pin.version, source: pin.source, snapshot: "tags" as const };
  if (olderThan(first, pin.version)) return { ...at, line: hit ?? null, preDispatch: pin.version };
  return hit ? { ...at, line: hit } : null;
}

/** The release whose tag is at `rev` (a commit hash of 7 or more hex digits), from the bundled refs. */
function taggedRelease(rev: string | undefined): string | undefined {
  if (!rev || !/^[0-9a-f]{7,40}$/i.test(rev)) return undefined;
  const r = rev.toLowerCase();
  return loadCatalog().refs.find((x) => x.ref !== "HEAD" && x.commit.startsWith(r))?.version;
}

/**
 * A git dependency: its release tag when it names one the data has (by name, or a `rev` that is
 * the tag's commit), else main's graph.
 */
function fromGit(d: DepDecl, tags: IndexLine[], main: IndexLine[], first: string | null): Selection {
  const tag = d.gitRef?.tag?.replace(/^v/, "") ?? taggedRelease(d.gitRef?.rev);
  const tagged = tag ? tags.find((l) => l.vers === tag) : undefined;
  if (tag && olderThan(first, tag))
    return { ...BASE, version: tag, source: "git", snapshot: "tags", line: tagged ?? null, preDispatch: tag };
  if (tagged) return { ...BASE, version: tagged.vers, source: "git", snapshot: "tags", line: tagged };
  const rev = d.gitRef?.rev;
  const head = mainSnapshotCommit();
  const known = rev !== undefined && rev.length >= 7 && head.startsWith(rev.toLowerCase());
  if (known) return onMain("git", main, null);
  // A named commit (rev, tag, branch) that is not main's snapshot is its own graph, which the data
  // lacks; without a ref the build tracks main, whose snapshot is assumed (and said to be).
  const named = d.gitRef !== null && Object.values(d.gitRef).some((v) => typeof v === "string" && v.length > 0);
  const graph: Assumption = { kind: "git", ref: d.gitRef, head: head.slice(0, 7) };
  return onMain("git", main, named ? { ...graph, unread: true } : graph);
}

/**
 * A path dependency: a local checkout. An exact requirement (`version = "=0.22.0-pre.2"`, as burn's
 * own workspace writes it) names its version; a release the data has is judged on its graph.
 * Otherwise its graph is assumed to be main's (the shell may read the version: a `path-version` pin).
 */
function fromPath(d: DepDecl, tags: IndexLine[], main: IndexLine[], first: string | null): Selection {
  const exact = d.version ? /^\s*=\s*(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\s*$/.exec(d.version)?.[1] : undefined;
  const pinned = exact ? fromPin({ version: exact, source: "path-version" }, tags, first) : null;
  if (pinned) return pinned;
  return onMain("path", main, { kind: "path", path: d.path!, head: mainSnapshotCommit().slice(0, 7), unread: true });
}

/** The build's burn is at a commit whose features the data cannot read: nothing about them is claimed. */
export function atUnreadCommit(sel: Pick<Selection, "assumed"> | null): boolean {
  const g = sel?.assumed.graph;
  return (g?.kind === "git" || g?.kind === "path") && g.unread === true;
}

/** main's newest line, with the assumption that its graph is the build's (null: the rev is main's). */
function onMain(source: "git" | "path", main: IndexLine[], graph: Assumption | null): Selection {
  const line = newest(main);
  return { ...BASE, version: line?.vers ?? null, source, snapshot: "main", line, assumed: graph ? { graph } : {} };
}

/** A requirement with no upper bound: it admits any release after the ones read (`*`, `>=0.20`). */
const floating = (req: string): boolean => admits(req, "99999.0.0");

/** A registry dependency: the newest release its requirement admits, as cargo picks it. */
function fromRequirement(d: DepDecl, tags: IndexLine[], pin: Pin | null, first: string | null): Selection {
  if (!d.version) {
    const line = newest(tags.filter((l) => !semver.prerelease(l.vers))) ?? newest(tags);
    return {
      ...BASE,
      version: line?.vers ?? null,
      source: "default",
      snapshot: "tags",
      line,
      assumed: { version: { kind: "no-requirement", key: d.key, assumed: line?.vers ?? null } },
    };
  }
  if (requirementPredates(first, d.version))
    return { ...BASE, version: null, source: "requirement", snapshot: "tags", line: null, preDispatch: d.version };
  const line = selectVersion(tags, d.version);
  const at = { ...BASE, source: "requirement" as const, snapshot: "tags" as const };
  if (line && floating(d.version))
    return {
      ...at,
      version: line.vers,
      line,
      preDispatch: olderThan(first, line.vers) ? line.vers : null,
      assumed: { version: { kind: "floating", key: d.key, requirement: d.version, assumed: line.vers } },
    };
  if (line) return { ...at, version: line.vers, line, preDispatch: olderThan(first, line.vers) ? line.vers : null };
  const last = newest(tags);
  const used = last?.vers ?? null;
  return {
    ...at,
    version: used,
    line: last,
    assumed: {
      graph: { kind: "outside-data", key: d.key, requirement: d.version, pin, newest: used, used },
    },
  };
}
