// What every CLI command shares: its IO, usage errors, file reads, the workspace root cargo would
// use, and burn's graph from the live index unless offline.
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve as resolvePath } from "node:path";
import type { ManifestFile } from "../cargo/fix/fix.js";
import { indexUrl, registries } from "../cargo/index/live-registries.js";
import type { Registries } from "../cargo/index/registry.js";
import { manifestFacts } from "../cargo/manifest/facts.js";
import type { TomlError } from "../cargo/manifest/toml.js";

import { type Io, UsageError } from "./usage.js";

export { type Io, UsageError } from "./usage.js";

export function read(path: string, io: Io): string {
  if (path === "-") return io.stdin();
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** A Cargo.toml larger than this is not a manifest a person wrote (the App reads at most as much). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** A Cargo.toml on disk that the command finds itself (not one it was given): null when absent, unreadable or too large. */
export function readManifestFile(path: string): string | null {
  try {
    return statSync(path).size <= MAX_MANIFEST_BYTES ? readFileSync(path, "utf8") : null;
  } catch {
    return null;
  }
}

/** The workspace root cargo would use: the nearest ancestor manifest with a [workspace] table. */
export function findRoot(manifestPath: string, explicit: string | undefined, io: Io): ManifestFile | null {
  if (explicit) {
    const path = join(explicit, "Cargo.toml");
    return { path, text: read(path, io) };
  }
  let dir = dirname(resolvePath(manifestPath));
  for (let i = 0; i < 8; i++) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
    const path = join(dir, "Cargo.toml");
    const text = readManifestFile(path);
    if (text !== null && manifestFacts(text).isWorkspaceRoot) return { path, text };
  }
  return null;
}

export function tomlError(path: string, e: TomlError, io: Io): number {
  io.stderr(`${path}:${e.line}:${e.column}: ${e.message.replace(/^\d+:\d+: /, "")}\n`);
  return 2;
}

/**
 * burn's graph from the live index unless offline; undefined means the bundled data. `roots`, the
 * burn crates the text declares (a parse of each manifest in it), is asked only when online.
 */
export async function cliRegistries(offline: boolean, roots: () => string[], io: Io): Promise<Registries | undefined> {
  if (offline || indexUrl() === null) return undefined;
  const quiet = () => {};
  return registries(
    { debug: quiet, info: quiet, error: quiet, warn: (_o, msg) => io.stderr(`burn-triage: ${msg ?? "warning"}\n`) },
    roots(),
  );
}
