// The questions the shell asks about a manifest before deciding what to read next, answered from
// the manifest model (never from regular expressions over TOML, which miss `[dependencies.burn]`
// tables, renames and multi-line inline tables).
import { posix } from "node:path";
import { type DepDecl, parseManifest } from "./manifest.js";

/** Both false when the text does not parse (or was refused). */
export interface ManifestFacts {
  /** `[workspace.dependencies]` declares a burn crate. */
  workspaceBurn: boolean;
  /** A burn crate is declared with `workspace = true`. */
  inheritsBurn: boolean;
}

/** `burn` or one of its `burn-*` crates, by package name or by the key that names it. */
export function isBurnDecl(d: DepDecl): boolean {
  return /^burn(?:-|$)/.test(d.name) || /^burn(?:-|$)/.test(d.key);
}

export function manifestFacts(text: string): ManifestFacts {
  try {
    const m = parseManifest(text);
    return { workspaceBurn: m.workspaceDependencies.some(isBurnDecl), inheritsBurn: m.dependencies.some((d) => d.inherits && isBurnDecl(d)) };
  } catch {
    return { workspaceBurn: false, inheritsBurn: false };
  }
}

/**
 * A `[workspace] members` entry as a path inside the repository (`crates/*` keeps its glob), or
 * null for one that leaves it: `..`, absolute paths and the repository root itself are refused,
 * so a manifest can never make the bot read outside the repository it was installed on.
 */
export function memberPath(entry: string): string | null {
  if (entry.includes("\\") || entry.startsWith("/") || /^[A-Za-z]:/.test(entry)) return null;
  const normal = posix.normalize(entry).replace(/\/+$/, "");
  if (normal === "." || normal === ".." || normal.startsWith("../") || normal === "*") return null;
  return normal;
}
