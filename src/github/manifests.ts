// Reads the repository's own Cargo manifests when an issue has none: the root, the workspace
// members that depend on burn, and Cargo.lock. The number of reads is capped.

import type { ManifestFile } from "../cargo/fix/fix.js";
import { declaresBurn } from "../cargo/manifest/facts.js";
import { type Manifest, parseManifest } from "../cargo/manifest/manifest.js";
import { memberPath } from "../cargo/manifest/workspace.js";
import { listDirs, readFile } from "./files.js";
import type { Log, Octokit, RepoRef } from "./types.js";

export const MAX_READS = 8;

export interface RepoManifests {
  manifests: ManifestFile[];
  root: ManifestFile | null;
  lock: string | null;
  reads: number;
}

const EMPTY: RepoManifests = { manifests: [], root: null, lock: null, reads: 0 };

export async function repoManifests(octokit: Octokit, repo: RepoRef, log: Log): Promise<RepoManifests> {
  let reads = 1;
  const root = await readFile(octokit, { ...repo, path: "Cargo.toml" });
  if (!root.ok) return { ...EMPTY, reads };
  let members: string[] = [];
  let rootManifest: Manifest | null = null;
  try {
    const m = parseManifest(root.text);
    rootManifest = m;
    // burn's own repository: its manifests are burn's, not the reporter's.
    if (m.members.some((p) => p.includes("burn-dispatch")) || m.packageName === "burn") return { ...EMPTY, reads };
    members = m.members;
  } catch (e) {
    log.warn({ ...repo, path: "Cargo.toml", error: (e as Error).message }, "repository Cargo.toml does not parse");
    return { manifests: [{ path: "Cargo.toml", text: root.text }], root: null, lock: null, reads };
  }
  const rootFile = { path: "Cargo.toml", text: root.text };
  const files: ManifestFile[] = [];
  for (const entry of members) {
    if (reads >= MAX_READS - 1) break;
    const pattern = memberPath(entry);
    if (pattern === null) {
      log.warn({ ...repo, member: entry }, "workspace member outside the repository ignored");
      continue;
    }
    let dirs = [pattern];
    if (pattern.endsWith("/*")) {
      reads++;
      dirs = await listDirs(octokit, { ...repo, path: pattern.slice(0, -2) });
    }
    for (const dir of dirs) {
      if (reads >= MAX_READS - 1) break;
      reads++;
      const f = await readFile(octokit, { ...repo, path: `${dir}/Cargo.toml` });
      if (f.ok && declaresBurn(f.text, rootManifest)) files.push({ path: `${dir}/Cargo.toml`, text: f.text });
    }
  }
  if (declaresBurn(root.text, rootManifest)) files.push(rootFile);
  reads++;
  const lock = await readFile(octokit, { ...repo, path: "Cargo.lock" });
  return { manifests: files, root: members.length > 0 ? rootFile : null, lock: lock.ok ? lock.text : null, reads };
}
