// Builds the GitHub Action's bundle, dist/action.js: src/action.ts and every dependency in one
// ES module for `runs: using: node24`. The bundle is committed (actions/typescript-action's
// convention); test/e2e/action-bundle.test.ts rebuilds it and fails when it differs.
import { build } from "esbuild";

export const options = {
  entryPoints: ["src/action.ts"],
  outfile: "dist/action.js",
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  // CommonJS dependencies (pino, ioredis) call require: give the ES module one.
  banner: {
    js: 'import { createRequire as __burnTriageRequire } from "node:module"; const require = __burnTriageRequire(import.meta.url);',
  },
  legalComments: "eof",
  logLevel: "warning",
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  await build(out ? { ...options, outfile: out } : options);
}
