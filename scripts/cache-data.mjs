// Writes the derived data that `npm run build` keeps in data/.cache/ (src/data/data-cache.ts: each
// entry names the fingerprint of the files it came from, and is ignored once they change):
// - catalog.json: data/catalog.yml as JSON, so a CLI call or a cold start does not parse 230 KB
//   of YAML (src/panics/catalog.ts), without the entries' sites: those are in
//   catalog-sites.jsonl, a line per entry, read when the entry's are first asked for;
// - screen-plan.json: the word screen's keys (src/panics/screen.ts; a set cover that cost a CLI
//   call 5 ms) and what it looks up after each, so that screening a text loads no catalog;
// - tags-snapshot.json, main-snapshot.json (src/cargo/index/snapshot-cache.ts): where each line of the
//   bundled index files sits, so a CLI call reads the lines it resolves and not the files
//   (src/cargo/index/index-spans.ts); and each line's enablers of the default target, so it does not
//   resolve them cold (src/cargo/index/precomputed.ts).
// It runs after tsc: the enablers are lib/'s own computation.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { indexPath } from "../lib/cargo/index/index-file.js";
import { fileSpans } from "../lib/cargo/index/index-spans.js";
import { lineKey } from "../lib/cargo/index/precomputed.js";
import { recentRelease, snapshot, snapshotCrates } from "../lib/cargo/index/registry.js";
import { SNAPSHOT_CACHE, snapshotSources } from "../lib/cargo/index/snapshot-cache.js";
import { computeEnablers } from "../lib/cargo/resolve/enablers.js";
import { BudgetExceeded } from "../lib/cargo/resolve/resolve.js";
import { CACHE_DIR, fingerprint } from "../lib/data/data-cache.js";
import { dataDir } from "../lib/data/data-dir.js";
import {
  CATALOG_CACHE,
  CATALOG_SITES,
  CATALOG_YAML,
  cachedCatalog,
  SCREEN_CACHE,
  SCREEN_COSTS,
  screenCosts,
} from "../lib/panics/catalog.js";
import { screenMessages } from "../lib/panics/detect.js";
import { screenPlan } from "../lib/panics/screen.js";

mkdirSync(join(dataDir, CACHE_DIR), { recursive: true });
const write = (name, sources, value) =>
  writeFileSync(join(dataDir, CACHE_DIR, name), JSON.stringify({ fingerprint: fingerprint(sources), value }));

const { catalog, sites } = cachedCatalog(load(readFileSync(join(dataDir, CATALOG_YAML), "utf8")));
writeFileSync(join(dataDir, CACHE_DIR, CATALOG_SITES), sites);
write(CATALOG_CACHE, [CATALOG_YAML], catalog);
write(SCREEN_CACHE, [CATALOG_YAML, SCREEN_COSTS], screenPlan(screenMessages(), screenCosts()));

for (const which of ["tags", "main"]) {
  const registry = snapshot(which);
  const names = snapshotCrates(which);
  const crates = {};
  for (const name of names) {
    const spans = fileSpans(readFileSync(join(dataDir, "index", which, indexPath(name))));
    if (spans) crates[name] = spans;
  }
  const enablers = {};
  for (const line of names.flatMap((name) => registry.versions(name)).filter(recentRelease)) {
    try {
      enablers[lineKey(line)] = computeEnablers(line, registry);
    } catch (e) {
      // A line over the work budget is left to the call that meets it, which says so.
      if (!(e instanceof BudgetExceeded)) throw e;
    }
  }
  write(`${which}-${SNAPSHOT_CACHE}`, snapshotSources(which), { crates, enablers });
}
