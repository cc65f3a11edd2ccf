// The bundled data on Node: files of the data folder (data-dir.ts), the build's derived copies
// checked against them (data-cache.ts). The web page's build swaps this module for one that
// refuses (web/src/node-free.ts): in a browser the page installs its own files (data-files.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DataFiles } from "./data-access.js";
import { readCache, readSpan } from "./data-cache.js";
import { dataDir } from "./data-dir.js";

const absent = (e: unknown) => (e as NodeJS.ErrnoException).code === "ENOENT";

function text(dir: string, rel: string): string | undefined {
  try {
    return readFileSync(join(dir, rel), "utf8");
  } catch (e) {
    if (absent(e)) return undefined;
    throw e;
  }
}

function fileNames(dir: string, rel: string): string[] {
  try {
    return readdirSync(join(dir, rel), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

export function nodeDataFiles(dir = dataDir): DataFiles {
  return {
    has: (rel) => existsSync(join(dir, rel)),
    text: (rel) => text(dir, rel),
    span: (rel, start, length) => readSpan(join(dir, rel), start, length),
    fileNames: (rel) => fileNames(dir, rel),
    cached: (name, sources) => readCache(name, sources, dir),
  };
}
