// The lint rules that keep the page's modules runnable in a browser (.dependency-cruiser.cjs,
// "page-is-browser-clean" and "page-needs-no-node-package", over web/page-modules.cjs): run on a
// small tree of probe modules, they refuse a Node built-in and a Node-only package where the page
// bundles, and leave the same imports alone in the shell.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect, it } from "@jest/globals";
import { cruise, type IForbiddenRuleType } from "dependency-cruiser";
import { root } from "../helpers/fixtures.js";

const config = createRequire(import.meta.url)(join(root, ".dependency-cruiser.cjs")) as {
  forbidden: IForbiddenRuleType[];
};
const dir = mkdtempSync(join(tmpdir(), "burn-triage-depcruise-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function probe(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // The probes' Node-only package, as installed.
  mkdirSync(join(dir, "node_modules", "pino"), { recursive: true });
  writeFileSync(join(dir, "node_modules", "pino", "package.json"), '{"name":"pino","main":"index.js"}');
  writeFileSync(join(dir, "node_modules", "pino", "index.js"), "module.exports = {};");
}

it("refuses node:* and Node-only packages in what the page bundles, not in the shell", async () => {
  probe({
    "web/src/reads-files.ts": 'import { readFileSync } from "node:fs";\nexport const f = readFileSync;\n',
    "src/cargo/judge/logs.ts": 'import pino from "pino";\nexport const p = pino;\n',
    "src/panics/clean.ts": "export const x = 1;\n",
    "src/cli/reads-files.ts":
      'import { readFileSync } from "node:fs";\nimport pino from "pino";\nexport const f = [readFileSync, pino];\n',
  });
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const result = await cruise(["src", "web"], {
      validate: true,
      ruleSet: { forbidden: config.forbidden.filter((r) => r.name!.startsWith("page-")) },
      doNotFollow: { path: "node_modules" },
    });
    const output = result.output as {
      summary: { violations: Array<{ from: string; to: string; rule: { name: string } }> };
    };
    const found = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([
      "page-is-browser-clean: web/src/reads-files.ts → fs",
      "page-needs-no-node-package: src/cargo/judge/logs.ts → node_modules/pino/index.js",
    ]);
  } finally {
    process.chdir(cwd);
  }
});
