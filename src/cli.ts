#!/usr/bin/env node
import { readFileSync } from "node:fs";
import module from "node:module";
import { fdWriter } from "./cli/output.js";

// Node 22.1+ keeps the compiled code of each command's bundle on disk between calls (npm does the
// same); on older Node the call does not exist and nothing changes. The dispatcher loads after it.
module.enableCompileCache?.();
void import("./cli/run.js").then(async ({ runCli }) => {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: fdWriter({ fd: 1, stream: () => process.stdout }),
    stderr: fdWriter({ fd: 2, stream: () => process.stderr }),
    stdin: () => readFileSync(0, "utf8"),
  });
});
