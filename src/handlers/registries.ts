import type { AnalyzeInput } from "../analyze.js";
import { LiveIndex } from "../cargo/live-index.js";
import { snapshot } from "../cargo/registry.js";
import type { Log } from "../github/types.js";

let live: LiveIndex | undefined;

/**
 * With CRATES_INDEX_URL set (e.g. https://index.crates.io), burn's feature graph comes from the
 * live sparse index, so releases newer than the bundled snapshot resolve exactly; unset, the
 * bundled snapshot alone is used and nothing leaves the host.
 */
export async function registries(log: Log): Promise<AnalyzeInput["registries"]> {
  const url = process.env.CRATES_INDEX_URL;
  if (!url) return undefined;
  live ??= new LiveIndex({ baseUrl: url });
  const r = await live.registryFor(["burn"]);
  if (r.fellBack.length > 0) log.warn({ index: url, crates: r.fellBack }, "crates.io index unreachable for some crates; used the bundled snapshot for them");
  return { tags: r.registry, main: snapshot("main") };
}
