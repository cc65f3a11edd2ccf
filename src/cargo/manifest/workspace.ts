// Cargo's workspace rules, over paths inside one repository: which `[workspace]` governs a
// package (the nearest ancestor root whose `members` globs include it and whose `exclude` does
// not, or the one `package.workspace` names), and which packages a root's globs take in.
import { posix } from "node:path";
import { GlobBudget, globMatch } from "./glob.js";
import type { Manifest } from "./manifest.js";

/** A path names a manifest when its last segment is `Cargo.toml`. */
export const isManifest = (path: string): boolean => path === "Cargo.toml" || path.endsWith("/Cargo.toml");

/** The directory of a repository path (`""` for the top level). */
export function dirOf(path: string): string {
  const d = posix.dirname(path);
  return d === "." ? "" : d;
}

const join = (dir: string, rel: string) => (dir ? posix.join(dir, rel) : posix.normalize(rel));

/**
 * A `[workspace] members` entry as a path inside the repository (`crates/*` keeps its glob), or
 * null for one that leaves it: `..`, absolute paths and the repository root itself are refused,
 * so a manifest can never make the bot read outside the repository it was installed on.
 */
export function memberPath(entry: string, rootDir = ""): string | null {
  if (entry.includes("\\") || entry.startsWith("/") || /^[A-Za-z]:/.test(entry)) return null;
  const normal = join(rootDir, entry).replace(/\/+$/, "");
  if (normal === "." || normal === ".." || normal.startsWith("../") || normal === "*") return null;
  return normal;
}

/** At most this many `members` entries are read: cargo's own workspaces list tens. */
export const MAX_MEMBER_PATTERNS = 512;

/**
 * Whether `dir` is one of the root's members (its globs, minus `exclude`); the root's own package
 * is one. `budget` is shared by one event's questions, so hostile globs cannot hold it.
 */
export function isMemberDir(rootDir: string, root: Manifest, dir: string, budget = new GlobBudget()): boolean {
  if (dir === rootDir) return true;
  const patterns = (entries: string[]) =>
    entries
      .slice(0, MAX_MEMBER_PATTERNS)
      .map((e) => memberPath(e, rootDir))
      .filter((p): p is string => p !== null);
  const excluded = patterns(root.exclude);
  if (excluded.some((e) => dir === e || dir.startsWith(`${e}/`))) return false;
  return patterns(root.members).some((p) => globMatch(p, dir, budget));
}

/** Ancestor `Cargo.toml` paths of a manifest, nearest first, among the paths the tree has. */
export function ancestorManifests(
  manifestPath: string,
  tree: ReadonlySet<string> | { has(path: string): boolean },
): string[] {
  const out: string[] = [];
  let dir = dirOf(manifestPath);
  // Up to the repository's top (""), or to the root of a path on disk ("/", which is its own parent).
  while (dir !== "" && dir !== "/") {
    dir = dirOf(dir);
    const candidate = dir ? posix.join(dir, "Cargo.toml") : "Cargo.toml";
    if (tree.has(candidate)) out.push(candidate);
  }
  return out;
}

/**
 * The workspace root that governs the package at `manifestPath`, as cargo finds it, or null
 * (a package outside any workspace). `read` answers for the ancestor manifests the caller has.
 */
export function governingRoot(
  manifestPath: string,
  self: Manifest,
  ancestors: string[],
  read: (path: string) => Manifest | null,
  budget = new GlobBudget(),
): string | null {
  if (self.isWorkspaceRoot) return manifestPath;
  const dir = dirOf(manifestPath);
  if (self.packageWorkspace !== null) {
    // A directory, like members, but the repository's top level is a valid answer here.
    if (self.packageWorkspace.includes("\\") || posix.isAbsolute(self.packageWorkspace)) return null;
    const rootDir = join(dir, self.packageWorkspace).replace(/\/+$/, "");
    if (rootDir === ".." || rootDir.startsWith("../")) return null;
    return rootDir === "." ? "Cargo.toml" : `${rootDir}/Cargo.toml`;
  }
  for (const path of ancestors) {
    const m = read(path);
    if (!m?.isWorkspaceRoot) continue;
    // The nearest workspace decides: a package it does not take in belongs to none.
    return isMemberDir(dirOf(path), m, dir, budget) ? path : null;
  }
  return null;
}

/** The member manifests of a root, from the tree's `Cargo.toml` paths, in path order. */
export function membersOf(
  rootPath: string,
  root: Manifest,
  tree: Iterable<string>,
  budget = new GlobBudget(),
): string[] {
  const rootDir = dirOf(rootPath);
  const out: string[] = [];
  for (const p of tree) {
    if (p === rootPath || !isManifest(p)) continue;
    const dir = dirOf(p);
    if (rootDir && !dir.startsWith(`${rootDir}/`)) continue;
    if (isMemberDir(rootDir, root, dir, budget)) out.push(p);
  }
  return out.sort();
}
