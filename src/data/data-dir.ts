import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The bundled data folder: the nearest `data/` holding the catalog above this module. src/ and
 * lib/ sit one level below it, the Action's bundle (dist/) too, the dev build (build/src/) two.
 */
function findData(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "data", "catalog.yml"))) return join(dir, "data/");
    if (dirname(dir) === dir) return join(from, "..", "data/");
  }
}

export const dataDir = findData(dirname(fileURLToPath(import.meta.url)));
