import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../test/support/root.js";

/** Puts `section` in BENCHMARKS.md in place of the one under `heading` (to the next `## `), or at its end. */
export function writeBenchSection(heading: string, section: string): void {
  const file = join(projectRoot(import.meta.url), "BENCHMARKS.md");
  const text = readFileSync(file, "utf8");
  const start = text.indexOf(heading);
  const end = start < 0 ? -1 : text.indexOf("\n## ", start + heading.length);
  const next =
    start < 0
      ? `${text.replace(/\n*$/, "\n\n")}${section}`
      : `${text.slice(0, start)}${section}${end < 0 ? "" : `\n${text.slice(end + 1)}`}`;
  writeFileSync(file, next);
}
