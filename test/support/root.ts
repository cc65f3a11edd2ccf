import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root (the folder with package.json), from a module run as source or from build/. */
export function projectRoot(moduleUrl: string): string {
  for (let dir = dirname(fileURLToPath(moduleUrl)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return `${dir}/`;
    if (dirname(dir) === dir) throw new Error("no package.json above this module");
  }
}
