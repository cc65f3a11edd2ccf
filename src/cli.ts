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
const argv = process.argv.slice(2);
const bundled = ["explain", "why", "fix", "review", "scan"].includes(argv[0] ?? "");
void Promise.all([import("./cli/run.js"), bundled ? import("./cli/code-cache.js") : null]).then(
  async ([{ runCli }, cache]) => {
    const commands = cache?.bundledCommands(dirname(fileURLToPath(import.meta.url)), process.env);
    process.exitCode = await runCli(
      argv,
      {
        stdout: fdWriter({ fd: 1, stream: () => process.stdout }),
        stderr: fdWriter({ fd: 2, stream: () => process.stderr }),
        stdin: () => readFileSync(0, "utf8"),
      },
      commands,
    );
  },
);
