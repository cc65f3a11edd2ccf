// Reads burn's source files at a release tag through the contents API, for releases newer than
// the bundled catalog. burn is public: the installation's token reads it. A file at a tag never
// changes, so each (tag, file) is read once per process and kept in the shared cache (Redis when
// configured) for other replicas. A failed read is logged and skipped: the comment then links
// the printed location as it does without this.
import type { SourceRead } from "../analyze.js";
import { sourceKey } from "../analyze.js";
import type { Coordination } from "./coordination.js";
import type { Log, Octokit } from "./types.js";

const BURN = { owner: "tracel-ai", repo: "burn" };
const MAX_BYTES = 1024 * 1024;
const TTL_S = 7 * 24 * 3600;
/** Misses too: a path that is not in that tag is not asked for again in this process. */
const seen = new Map<string, string | null>();
const SEEN_ENTRIES = 32;

function remember(key: string, text: string | null) {
  seen.delete(key);
  seen.set(key, text);
  while (seen.size > SEEN_ENTRIES) seen.delete(seen.keys().next().value!);
}

export async function readBurnSources(octokit: Octokit, reads: SourceRead[], coordination: Coordination, log: Log): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const r of reads) {
    const key = sourceKey(r.ref, r.path);
    let text = seen.get(key);
    if (text === undefined) text = await coordination.cacheGet(`source:${key}`);
    if (text === undefined || text === null) {
      if (seen.has(key)) continue;
      try {
        const res = await octokit.rest.repos.getContent({ ...BURN, path: r.path, ref: r.ref, mediaType: { format: "raw" } });
        const data = res.data as unknown;
        if (typeof data !== "string" || data.length > MAX_BYTES || data.includes("\u0000")) {
          log.warn({ ...r, type: typeof data }, "burn source read: not a text file of a usable size; linking the printed location");
          remember(key, null);
          continue;
        }
        text = data;
        await coordination.cacheSet(`source:${key}`, text, TTL_S);
      } catch (e) {
        const status = (e as { status?: number }).status;
        log.warn({ ...r, status, error: (e as Error).message }, "burn source read failed; linking the printed location");
        if (status === 404) remember(key, null);
        continue;
      }
    }
    remember(key, text);
    out[key] = text;
  }
  return out;
}
