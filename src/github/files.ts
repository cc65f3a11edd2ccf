import type { Octokit, RepoRef } from "./types.js";

export type FileResult =
  | { ok: true; text: string }
  | { ok: false; reason: "missing" | "directory" | "too-large" | "binary" };

/** GitHub's contents API returns no content above 1 MB; manifests are far smaller. */
const MAX_BYTES = 1024 * 1024;

function status(e: unknown): number | undefined {
  return (e as { status?: number }).status;
}

/** Reads a text file at a ref. Missing, binary, oversize and directory paths are results, not throws. */
export async function readFile(
  octokit: Octokit,
  where: RepoRef & { path: string; ref?: string },
  maxBytes = MAX_BYTES,
): Promise<FileResult> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...where });
    if (Array.isArray(data)) return { ok: false, reason: "directory" };
    if (data.type !== "file") return { ok: false, reason: "missing" };
    if (data.size > maxBytes || !("content" in data) || (data.content === "" && data.size > 0))
      return { ok: false, reason: "too-large" };
    const bytes = Buffer.from(data.content, "base64");
    if (bytes.length > maxBytes) return { ok: false, reason: "too-large" };
    if (bytes.includes(0)) return { ok: false, reason: "binary" };
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
    try {
      return { ok: true, text: text.decode(bytes) };
    } catch {
      return { ok: false, reason: "binary" };
    }
  } catch (e) {
    if (status(e) === 404) return { ok: false, reason: "missing" };
    throw e;
  }
}

/** Names of the sub-directories of a directory (for `members = ["crates/*"]`). */
export async function listDirs(octokit: Octokit, where: RepoRef & { path: string; ref?: string }): Promise<string[]> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...where });
    return Array.isArray(data) ? data.filter((e) => e.type === "dir").map((e) => e.path) : [];
  } catch (e) {
    if (status(e) === 404) return [];
    throw e;
  }
}
