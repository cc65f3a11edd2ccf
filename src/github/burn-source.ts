// Reads burn's source files at a release tag through the contents API, for releases newer than
// the bundled data. burn is public: the installation's token reads it. A file at a tag never
// changes, so each (tag, file) is read once and kept in the coordination cache: in process, or in
// Redis for every replica when configured. A file the tag does not have comes back as null; a
// failed read is logged and left out, and the answer then stands on the data as without it.
import { type BurnSources, isBurnSourcePath, type SourceRead, sourceKey } from "../answer/burn-files.js";
import { isReleaseTag } from "../panics/catalog.js";
import type { Coordination } from "./coordination.js";
import type { Log, Octokit } from "./types.js";

const BURN = { owner: "tracel-ai", repo: "burn" };
const MAX_BYTES = 1024 * 1024;
const TTL_S = 7 * 24 * 3600;
/** Kept for a path that is not in that tag (or not a usable text file): it is not asked for again. */
const MISSING = "\u0000missing";
const MISSING_TTL_S = 24 * 3600;

export async function readBurnSources(
  octokit: Octokit,
  reads: SourceRead[],
  coordination: Coordination,
  log: Log,
): Promise<BurnSources> {
  const out: BurnSources = {};
  for (const r of reads) {
    // The core asks only for these; the shell refuses anything else whoever asks.
    if (!isReleaseTag(r.ref) || !isBurnSourcePath(r.path)) {
      log.warn(
        { ref: r.ref.slice(0, 80), path: r.path.slice(0, 200) },
        "burn source read refused: not a release tag and a Rust file of a burn crate",
      );
      continue;
    }
    const key = sourceKey(r.ref, r.path);
    const cached = await coordination.cacheGet(`source:${key}`);
    if (cached === MISSING) {
      out[key] = null;
      continue;
    }
    if (cached !== null) {
      out[key] = cached;
      continue;
    }
    try {
      const res = await octokit.rest.repos.getContent({
        ...BURN,
        path: r.path,
        ref: r.ref,
        mediaType: { format: "raw" },
      });
      const data = res.data as unknown;
      if (typeof data !== "string" || data.length > MAX_BYTES || data.includes("\u0000")) {
        log.warn(
          { ...r, type: typeof data },
          "burn source read: not a text file of a usable size; linking the printed location",
        );
        await coordination.cacheSet(`source:${key}`, MISSING, MISSING_TTL_S);
        out[key] = null;
        continue;
      }
      await coordination.cacheSet(`source:${key}`, data, TTL_S);
      out[key] = data;
    } catch (e) {
      const status = (e as { status?: number }).status;
      log.warn({ ...r, status, error: (e as Error).message }, "burn source read failed; linking the printed location");
      if (status === 404) {
        await coordination.cacheSet(`source:${key}`, MISSING, MISSING_TTL_S);
        out[key] = null;
      }
    }
  }
  return out;
}
