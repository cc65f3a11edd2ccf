#!/usr/bin/env node
import { readFileSync } from "node:fs";
import module from "node:module";

// Node 22.1+ keeps the compiled code of the modules below on disk between calls (npm does the
// same); on older Node the call does not exist and nothing changes.
module.enableCompileCache?.();
const { runCli } = await import("./cli/run.js");

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdin: () => readFileSync(0, "utf8"),
});
