#!/usr/bin/env node
import { readFileSync } from "node:fs";
import module from "node:module";

// Node 22.1+ keeps the compiled code of each command's bundle on disk between calls (npm does the
// same); on older Node the call does not exist and nothing changes. The dispatcher loads after it.
module.enableCompileCache?.();
void import("./cli/run.js").then(async ({ runCli }) => {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stdin: () => readFileSync(0, "utf8"),
  });
});
