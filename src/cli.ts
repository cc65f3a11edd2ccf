#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { runCli } from "./cli/run.js";

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdin: () => readFileSync(0, "utf8"),
});
