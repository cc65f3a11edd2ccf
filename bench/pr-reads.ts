// `npm run bench:pr-reads`: what one PR event costs in API calls, bytes and time against the fake
// GitHub, on a Renovate-shaped root bump (one member edited, one deep member forwarding a removed
// feature) in workspaces of 10, 100 and 1,000 members, by GraphQL and by the REST fallback.
// Runs alone (not part of `npm run bench`); `--sizes 10,100` picks sizes, `--json` prints JSON.
import app from "../src/index.js";
import { startFakeGitHub } from "../test/support/fake-github.js";
import { offlineProbot, webhook } from "../test/support/scenario.js";
import { workspaceRepo } from "../test/support/workspace.js";

interface Row {
  members: number;
  reads: "graphql" | "rest";
  calls: number;
  graphqlQueries: number;
  /** Bytes of the requests' bodies and of the answers. */
  bytesSent: number;
  bytesReceived: number;
  ms: number;
  named: boolean;
}

async function one(members: number, reads: Row["reads"]): Promise<Row> {
  if (reads === "rest") process.env.GRAPHQL_READS = "off";
  else delete process.env.GRAPHQL_READS;
  const collectiveAt = Math.max(1, Math.floor(members * 0.777));
  const fake = await startFakeGitHub(workspaceRepo(members, { collectiveAt, edited: 3 }));
  const probot = offlineProbot({ baseUrl: fake.apiUrl });
  probot.load(app);
  const started = performance.now();
  try {
    await probot.receive({ id: "pr", name: "pull_request", payload: webhook("pull_request.opened") });
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
  await fake.close();
  return {
    members,
    reads,
    calls: calls.length,
    graphqlQueries: calls.filter((c) => c.path.endsWith("/graphql")).length,
    bytesSent,
    bytesReceived,
    ms: Math.round(ms),
    named: body.includes(`m${String(collectiveAt).padStart(4, "0")}/Cargo.toml`),
  };
}

async function main() {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const sizes = (arg("--sizes") ?? "10,100,1000").split(",").map(Number);
  await one(10, "graphql"); // warm-up: lazy modules and the data cache load once per process
  const rows: Row[] = [];
  for (const n of sizes) for (const reads of ["graphql", "rest"] as const) rows.push(await one(n, reads));
  if (process.argv.includes("--json")) return console.log(JSON.stringify(rows, null, 2));
  console.log(
    "| members | reads | API calls | of them GraphQL | bytes sent | bytes received | time (ms) | deep member named |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of rows)
    console.log(
      `| ${r.members} | ${r.reads} | ${r.calls} | ${r.graphqlQueries} | ${r.bytesSent} | ${r.bytesReceived} | ${r.ms} | ${r.named ? "yes" : "no"} |`,
    );
}

await main();
