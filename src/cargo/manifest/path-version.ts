// The version of the burn checkout a path dependency points to, read from the files the shell has:
// the crate's Cargo.toml, and for `version.workspace = true` its workspace root's
// `[workspace.package] version`. Pure: `read` answers for the paths the caller fetched (a PR's
// head, a checkout on disk); a path outside what it can read gives null, never a guess.
import { posix } from "node:path";
import { isBurnDependency } from "./burn-version.js";
import { effectiveDecl, type Manifest, parseManifest } from "./manifest.js";
import { parsePlain } from "./toml.js";
import { ancestorManifests } from "./workspace.js";

/**
 * The Cargo.toml a path dependency written in `declaredIn` points to: relative to the same top (a
 * repository; null when it leads outside), or on disk when `declaredIn` is absolute (the CLI).
 */
export function pathManifest(declaredIn: string, depPath: string): string | null {
  const p = depPath.replace(/\\/g, "/");
  const joined = posix.isAbsolute(p)
    ? posix.join(p, "Cargo.toml")
    : posix.normalize(posix.join(posix.dirname(declaredIn), p, "Cargo.toml"));
  if (posix.isAbsolute(declaredIn)) return joined;
  return joined.startsWith("../") || posix.isAbsolute(joined) ? null : joined;
}

const table = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

function plain(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    return parsePlain(text);
  } catch {
    return null; // a file that does not parse names no version
  }
}

/** The version the crate at `cratePath` declares, its own or its workspace's (the nearest root above it). */
export function crateVersion(cratePath: string, read: (path: string) => string | null): string | null {
  const own = plain(read(cratePath));
  const v = table(own?.package)?.version;
  if (typeof v === "string") return v;
  if (table(v)?.workspace !== true) return null;
  // The crate itself may be the root; else the nearest manifest above it with [workspace].
  for (const path of crateVersionReads(cratePath)) {
    const ws = table((path === cratePath ? own : plain(read(path)))?.workspace);
    if (!ws) continue;
    const version = table(ws.package)?.version;
    return typeof version === "string" ? version : null;
  }
  return null;
}

/** Every path exists, as far as a walk over files read on demand is concerned. */
const ANY = { has: () => true };

/** The manifests `crateVersion` may read for the crate at `cratePath`: it, and each one above it that `has` names. */
export function crateVersionReads(cratePath: string, has: { has(path: string): boolean } = ANY): string[] {
  return [cratePath, ...ancestorManifests(cratePath, has)];
}

/**
 * The Cargo.toml the manifest's burn path dependency points to (through the root for an inherited
 * one), or null when burn is not a path dependency. `manifestPath` and `root.path` are relative to
 * the same top.
 */
export function burnPathManifest(
  manifestPath: string,
  manifest: Manifest,
  root: { path: string; manifest: Manifest } | null,
): string | null {
  for (const d of manifest.dependencies) {
    const e = effectiveDecl(d, root?.manifest ?? null);
    if (!isBurnDependency(e) || e.path === null || e.kind !== "normal") continue;
    return pathManifest(d.inherits && root ? root.path : manifestPath, e.path);
  }
  return null;
}

/** The path dependency's burn version, when the files the shell read name it. */
export function burnPathVersion(
  manifestPath: string,
  text: string,
  root: { path: string; text: string } | null,
  read: (path: string) => string | null,
): string | null {
  try {
    const manifest = parseManifest(text);
    // Most manifests name burn from a registry: no root is parsed for them (a CLI call's start-up).
    if (!manifest.dependencies.some((d) => d.path !== null || d.inherits)) return null;
    const rootManifest = root ? { path: root.path, manifest: parseManifest(root.text) } : null;
    const target = burnPathManifest(manifestPath, manifest, rootManifest);
    return target ? crateVersion(target, read) : null;
  } catch {
    return null; // a manifest that does not parse is reported where it is judged
  }
}
