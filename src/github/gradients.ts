// Does a crate's code compute gradients? A bounded look at its Rust sources at the PR head.
import { readFile } from "./files.js";
import { type Octokit, pageItems, type RepoRef } from "./types.js";

export const MAX_SOURCE_READS = 6;
const NEEDS_GRADIENTS = /\.backward\s*\(|\bAutodiffBackend\b|\bAutodiff\s*</;
const TRAINS = /\bburn::train\b|\bLearner(?:Builder)?\b|\bburn_train\b/;

export function sourceNeedsGradients(text: string): boolean {
  return NEEDS_GRADIENTS.test(text) || TRAINS.test(text);
}

/** Training-looking files first: they decide fastest. */
function priority(path: string): number {
  if (/train|learn|optim/i.test(path)) return 0;
  if (/(?:^|\/)(?:main|lib)\.rs$/.test(path)) return 1;
  return 2;
}

/** Every file path at a commit (one call); GitHub truncates past 100,000 entries. */
export async function treePaths(octokit: Octokit, repo: RepoRef, sha: string): Promise<string[]> {
  const { data } = await octokit.rest.git.getTree({ ...repo, tree_sha: sha, recursive: "true" });
  return pageItems<{ type?: string; path?: string }>((data as { tree?: unknown }).tree, "tree").filter((e) => e.type === "blob" && e.path).map((e) => e.path!);
}

export async function crateNeedsGradients(octokit: Octokit, repo: RepoRef, sha: string, crateDir: string, paths: string[]): Promise<{ needs: boolean; reads: number; evidence: string | null }> {
  const prefix = crateDir ? `${crateDir}/` : "";
  const candidates = paths
    // A nested crate's sources belong to that crate.
    .filter((p) => p.endsWith(".rs") && p.startsWith(prefix) && /^(?:src|examples|benches|tests)\//.test(p.slice(prefix.length)))
    .sort((a, b) => priority(a) - priority(b) || a.localeCompare(b))
    .slice(0, MAX_SOURCE_READS);
  let reads = 0;
  for (const path of candidates) {
    reads++;
    const f = await readFile(octokit, { ...repo, path, ref: sha });
    if (f.ok && sourceNeedsGradients(f.text)) return { needs: true, reads, evidence: path };
  }
  return { needs: false, reads, evidence: null };
}
