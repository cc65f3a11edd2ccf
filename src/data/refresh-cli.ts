#!/usr/bin/env node
// npm run data:refresh -- [--index URL] [--source DIR] [--data DIR]
//   --index   the sparse index to read (default CRATES_INDEX_URL, else https://index.crates.io)
//   --source  a git clone of tracel-ai/burn with its tags, or a folder with one directory per tag;
//             without it, burn's files are read through the GitHub API (GITHUB_API_URL,
//             GITHUB_TOKEN for a higher rate limit)
//   --data    the data folder to update (default: the app's data/)
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { dataDir } from "./data-dir.js";
import { DEFAULT_INDEX, indexUrl } from "../cargo/index/live-registries.js";
import { formatReport, gitSource, githubSource, refresh, treeSource } from "./refresh.js";

const { values } = parseArgs({ options: { index: { type: "string" }, source: { type: "string" }, data: { type: "string" } } });
const index = values.index ?? indexUrl() ?? DEFAULT_INDEX;
const source = values.source
  ? existsSync(join(values.source, ".git"))
    ? gitSource(values.source)
    : treeSource(values.source)
  : githubSource(process.env.GITHUB_API_URL ?? "https://api.github.com", process.env.GITHUB_TOKEN);
try {
  const report = await refresh({ indexUrl: index, source, dataDir: values.data ?? dataDir });
  process.stdout.write(formatReport(report));
} catch (e) {
  process.stderr.write(`data:refresh: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
