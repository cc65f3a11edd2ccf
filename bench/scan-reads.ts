// `npm run bench:scan`: what `burn-triage scan` costs in requests (REST and GraphQL, every one
// counted) on backlogs of 100 and 1,000 open issues, by GraphQL and by the REST fallback. The
// built CLI runs as a process against the fake GitHub. The backlog carries the App's answers
// (a quarter of the issues answer), then a third of them edited to an older answer and a third
// deleted: the report finds current, outdated and missing answers; --apply writes the two thirds.
// Runs alone (not part of `npm run bench`); `--sizes 100` picks sizes, `--only report` skips
// --apply, `--json` prints JSON, `--write` puts the section in BENCHMARKS.md.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeGitHub } from "../test/support/fake-github.js";
import { age, answeredByTheApp, runScan, SCAN_REPO } from "../test/support/scan-cli.js";
import { openBacklog } from "../test/support/scenario.js";
import { writeBenchSection } from "./section.js";

type Reads = "graphql" | "rest";

interface Run {
  requests: number;
  graphqlQueries: number;
  /** Threads whose comments were listed (GET …/issues/N/comments or …/events). */
  threadsRead: number;
  writes: number;
  ms: number;
}

interface Row {
  issues: number;
  reads: Reads;
  report: Run;
  apply: Run | null;
}

async function measure(size: number, reads: Reads, apply: boolean): Promise<Row> {
  const made = openBacklog(size);
  const b = { fake: await startFakeGitHub({ issues: made.issues }), answered: made.answered, cache: "" };
  b.cache = mkdtempSync(join(tmpdir(), "burn-triage-bench-scan-"));
  try {
    await answeredByTheApp(b);
    age(b);
    const env: Record<string, string> = reads === "rest" ? { GRAPHQL_READS: "off" } : {};
    const once = async (args: string[], state: string): Promise<Run> => {
      const from = b.fake.calls.length;
      const started = performance.now();
      const r = await runScan(b, [SCAN_REPO, "--json", "--state", join(b.cache, state), ...args], env);
      const ms = Math.round(performance.now() - started);
      if (r.code !== 0) throw new Error(`scan failed: ${r.stderr}`);
      const calls = b.fake.calls.slice(from);
      const threads = calls.filter((c) => c.method === "GET" && /\/issues\/\d+\//.test(c.path));
      return {
        requests: calls.length,
        graphqlQueries: calls.filter((c) => c.path.endsWith("/graphql")).length,
        threadsRead: new Set(threads.map((c) => /\/issues\/(\d+)\//.exec(c.path)![1])).size,
        writes: calls.filter((c) => c.method !== "GET" && !c.path.endsWith("/graphql")).length,
        ms,
      };
    };
    const report = await once([], "report.json");
    const applied = apply
      ? await once(["--apply", "--write-interval-ms", "0", "--content-limits", "100000/100000"], "apply.json")
      : null;
    return { issues: size, reads, report, apply: applied };
  } finally {
    await b.fake.close();
    rmSync(b.cache, { recursive: true, force: true });
  }
}

const HEADING = "## Scan: a backlog's requests";

function sectionOf(rows: Row[]): string {
  const [l1, l5] = loadavg();
  const run = (r: Run | null) =>
    r ? `${r.requests} | ${r.graphqlQueries} | ${r.threadsRead} | ${r.writes} | ${r.ms}` : "– | – | – | – | –";
  return [
    HEADING,
    "",
    "`burn-triage scan` as a process against the fake GitHub (`bench/scan-reads.ts`, alone: `npm run bench:scan -- --write`), on backlogs of open issues of which a quarter call for an answer. The App answered them all; then a third of its answers were edited to an older one and a third deleted. Requests are every call the scan makes, REST and GraphQL (the listing, the config, the comments, the ETag read, the writes); each run starts without a scan state. REST is the fallback (`GRAPHQL_READS=off`, or GraphQL refused). Threads read: issues whose comments (or label events) were listed one by one.",
    "",
    `Load average when measured: ${l1!.toFixed(1)} (1 min), ${l5!.toFixed(1)} (5 min) on ${cpus().length} cores, shared with other work: times are wall-clock under that load.`,
    "",
    "| issues | reads | report: requests | of them GraphQL | threads read | writes | time (ms) | --apply: requests | of them GraphQL | threads read | writes | time (ms) |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.issues} | ${r.reads} | ${run(r.report)} | ${run(r.apply)} |`),
    "",
  ].join("\n");
}

async function main() {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const sizes = (arg("--sizes") ?? "100,1000").split(",").map(Number);
  const apply = arg("--only") !== "report";
  const rows: Row[] = [];
  for (const size of sizes)
    for (const reads of ["graphql", "rest"] as const) rows.push(await measure(size, reads, apply));
  if (process.argv.includes("--json")) return console.log(JSON.stringify(rows, null, 2));
  const section = sectionOf(rows);
  if (process.argv.includes("--write")) writeBenchSection(HEADING, section);
  process.stdout.write(`${section}\n`);
}

await main();
