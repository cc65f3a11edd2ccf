// Stands in for src/data/node-data-files.ts in the page's bundle (scripts/build-web.mjs): the
// page installs its own data files (page-data.ts) before the core reads any.
import type { DataFiles } from "../../src/data/data-access.js";

export function nodeDataFiles(): DataFiles {
  throw new Error("the page reads no file system: install the page's data with useDataFiles first");
}
