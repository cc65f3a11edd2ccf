#!/usr/bin/env node
import { readFileSync } from "node:fs";
import module from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { fdWriter } from "./cli/output.js";

// Node 22.1+ keeps the compiled code of the small modules beside the commands' bundles on disk
// between calls (npm does the same); on older Node the call does not exist and nothing changes.
// The bundles themselves load with the code a call left (cli/code-cache.ts, loaded only for a
// command: `--help` needs neither it nor node:vm).
module.enableCompileCache?.();
void import("./cli/run.js").then(async ({ runCli }) => {
  process.exitCode = await runCli(
    process.argv.slice(2),
    {
      stdout: fdWriter({ fd: 1, stream: () => process.stdout }),
      stderr: fdWriter({ fd: 2, stream: () => process.stderr }),
      stdin: () => readFileSync(0, "utf8"),
    },
    async () =>
      (await import("./cli/code-cache.js")).bundledCommands(dirname(fileURLToPath(import.meta.url)), process.env),
  );
});
