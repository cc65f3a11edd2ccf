// `npm run bench:pr-reads`: what one PR event costs in API calls, bytes and time against the fake
// GitHub, on a Renovate-shaped root bump (one member edited, one deep member forwarding a removed
// feature) in workspaces of 10, 100 and 1,000 members, by GraphQL and by the REST fallback.
// Runs alone (not part of `npm run bench`); `--sizes 10,100` picks sizes, `--only burn` the cases named so, `--calls` lists the calls, `--json` prints JSON,
// `--write` puts the section in BENCHMARKS.md in place of the previous one.
import { cpus, loadavg } from "node:os";
import app from "../src/index.js";
import type { FakeRepo } from "../test/support/fake-github.js";
import { startFakeGitHub } from "../test/support/fake-github.js";
import { offlineProbot } from "../test/support/scenario.js";
import { burnPrRepo, prOpened, workspaceRepo } from "../test/support/workspace.js";
import { writeBenchSection } from "./section.js";

interface Row {
  /** The workspace's members, or a named case. */
  members: number | string;
  reads: "graphql" | "rest";
  calls: number;
  graphqlQueries: number;
  /** Bytes of the requests' bodies and of the answers. */
  bytesSent: number;
  bytesReceived: number;
  ms: number;
  named: boolean;
}

async function one(members: number | string, reads: Row["reads"]): Promise<Row> {
  if (reads === "rest") process.env.GRAPHQL_READS = "off";
  else delete process.env.GRAPHQL_READS;
  const size = typeof members === "number" ? members : 0;
  const collectiveAt = Math.max(1, Math.floor(size * 0.777));
  const repo: FakeRepo =
    typeof members === "number"
      ? workspaceRepo(members, { collectiveAt, edited: 3 })
      : burnPrRepo({ reviewBurnRepo: members.includes("review_burn_repo") });
  const fake = await startFakeGitHub(repo);
  const probot = offlineProbot({ baseUrl: fake.apiUrl });
  probot.load(app);
  const started = performance.now();
  try {
    await probot.receive({ id: "pr", name: "pull_request", payload: prOpened(repo) });
  } catch (e) {
    const t0 = fake.calls[0]?.at ?? 0;
    for (const c of fake.calls) console.error(c.at - t0, c.method, c.path);
    throw e;
  }
  const ms = performance.now() - started;
  // The installation token and the app's identity (GET /app) are asked once per process, not per event.
  const calls = fake.calls.filter((c) => !c.path.includes("/access_tokens") && c.path !== "/app");
  const bytesSent = calls.reduce((n, c) => n + (c.body === undefined ? 0 : JSON.stringify(c.body).length), 0);
  const bytesReceived = calls.reduce((n, c) => n + (c.bytes ?? 0), 0);
  const body = fake.reviews[0]?.body ?? "";
  // `--calls` lists each case's calls on stderr (what the figures count).
  if (process.argv.includes("--calls"))
    for (const c of calls) console.error(`${members} ${reads}: ${c.method} ${c.path} ${c.bytes ?? 0}`);
  await fake.close();
  return {
    members,
    reads,
    calls: calls.length,
    graphqlQueries: calls.filter((c) => c.path.endsWith("/graphql")).length,
    bytesSent,
    bytesReceived,
    ms: Math.round(ms),
    named:
      typeof members === "number" ? body.includes(`m${String(collectiveAt).padStart(4, "0")}/Cargo.toml`) : body !== "",
  };
}

const HEADING = "## PR reads: one event's API calls by workspace size";

function sectionOf(rows: Row[]): string {
  const [l1, l5] = loadavg();
  return [
    HEADING,
    "",
    "One `pull_request.opened` in process against the fake GitHub (`bench/pr-reads.ts`, alone: `npm run bench:pr-reads -- --write`): a Renovate-shaped root bump of `[workspace.dependencies]` (burn 0.21.0 → 0.22.0-pre.2) with one member edited and one member at 78 % of the list forwarding `burn/collective` (removed at 0.22.0-pre.1); and burn's own PR #4717 (628 files, its real Cargo.toml files at both sides). The delivery carries `changed_files`, as GitHub's does. API calls include the comparison (`base...head`: the merge base, and the files under 300), the head's tree, for burn#4717 (over 300 files) the merge base's tree too, in place of GitHub's file list (7 pages of 100 for #4717), the GraphQL queries (the config, the repository's and the owner's `.github`, rides in the first) and the writes; the installation token and `GET /app` (once per process) are left out. REST is the fallback (`GRAPHQL_READS=off`, or a refused query): the config by REST (the repository's, then the owner's `.github`), files capped at 60 read.",
    "",
    `Load average when measured: ${l1!.toFixed(1)} (1 min), ${l5!.toFixed(1)} (5 min) on ${cpus().length} cores, shared with other work: times are wall-clock under that load, one event each after one warm-up event.`,
    "",
    "| case | reads | API calls | of them GraphQL | bytes sent | bytes received | time (ms) | deep member named (burn: a review posted) |",
    "|---|---|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${typeof r.members === "number" ? `${r.members} members` : r.members} | ${r.reads} | ${r.calls} | ${r.graphqlQueries} | ${r.bytesSent} | ${r.bytesReceived} | ${r.ms} | ${r.named ? "yes" : "no"} |`,
    ),
    "",
  ].join("\n");
}

/** burn's PR #4717 (its own repository): as configured by default (not reviewed), and reviewed. */
const BURN_CASES = ["burn#4717", "burn#4717 review_burn_repo"];

async function main() {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const sizes = (arg("--sizes") ?? "10,100,1000").split(",").map(Number);
  await one(10, "graphql"); // warm-up: lazy modules and the data cache load once per process
  const rows: Row[] = [];
  // `--only burn` (or `--only 1000`): the cases whose name holds that text, to measure one alone.
  const only = arg("--only");
  const cases = [...sizes, ...BURN_CASES].filter((c) => only === undefined || String(c).includes(only));
  for (const n of cases) for (const reads of ["graphql", "rest"] as const) rows.push(await one(n, reads));
  if (process.argv.includes("--json")) return console.log(JSON.stringify(rows, null, 2));
  const section = sectionOf(rows);
  if (process.argv.includes("--write")) writeBenchSection(HEADING, section);
  process.stdout.write(`${section}\n`);
}

await main();
