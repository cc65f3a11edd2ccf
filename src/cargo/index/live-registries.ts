import type { Log } from "../../github/types.js";
import { redactUrl } from "../../util/redact.js";
import { LiveIndex } from "./live-index.js";
import { type Registries, snapshot } from "./registry.js";

export const DEFAULT_INDEX = "https://index.crates.io";

/** The sparse index to ask, or null for the bundled data alone (`CRATES_INDEX_URL=off`). */
export function indexUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const v = env.CRATES_INDEX_URL?.trim();
  if (v === "off") return null;
  return v ? v : DEFAULT_INDEX;
}

let live: { url: string; index: LiveIndex } | undefined;

/**
 * burn's feature graph from crates.io's sparse index (cached across events, ETag-revalidated),
 * so that releases newer than the bundled data resolve on their own graph; any crate the index
 * does not serve in time comes from the bundled data, and the comment says which was used.
 */
export async function registries(log: Log, roots: string[] = ["burn"]): Promise<Registries | undefined> {
  const url = indexUrl();
  if (!url) return undefined;
  if (live?.url !== url) live = { url, index: new LiveIndex({ baseUrl: url }) };
  const r = await live.index.registryFor(roots);
  const index = redactUrl(url);
  log.debug(
    { index, fetched: r.fetched, notModified: r.notModified, cached: r.cached, bytes: r.bytes },
    "crates.io index read",
  );
  if (r.fellBack.length > 0)
    log.warn(
      { index, crates: r.fellBack, reasons: r.reasons },
      "crates.io index did not answer for some crates; used the bundled data for them",
    );
  return { tags: r.registry, main: snapshot("main") };
}
