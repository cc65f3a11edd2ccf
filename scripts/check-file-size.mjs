#!/usr/bin/env node
// Part of `npm run lint`: no file in src/ over 400 lines. A module that outgrows it is doing two
// jobs; split it by the question each part answers (see docs/development.md's module map).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const MAX_LINES = 400;
const root = join(fileURLToPath(import.meta.url), "..", "..");
const over = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.(ts|mts|js|mjs)$/.test(e.name)) {
      const lines = readFileSync(p, "utf8").split("\n").length - 1;
      if (lines > MAX_LINES) over.push(`${relative(root, p)}: ${lines} lines`);
    }
  }
};
walk(join(root, "src"));
if (over.length > 0) {
  console.error(`files in src/ over ${MAX_LINES} lines:\n  ${over.join("\n  ")}`);
  process.exit(1);
}
