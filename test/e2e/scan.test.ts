// `burn-triage scan` as a maintainer runs it: the built CLI as a process, against the fake GitHub
// on loopback holding a backlog of 300 issues (pull requests and closed ones among them).

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER_PREFIX } from "../../src/render/issue.js";
import { runScan, SCAN_CLI, SCAN_REPO, withBacklog } from "../helpers/scan-backlog.js";
import { budget } from "../helpers/server.js";
import { FAKE_APP, FAKE_USER, type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { backlog } from "../support/scenario.js";

const REPO = SCAN_REPO;
const cli = SCAN_CLI;
const bk = withBacklog(300);
const env = (token = "ghp_fake_maintainer") => ({
  PATH: process.env.PATH ?? "",
  GITHUB_TOKEN: token,
  GITHUB_API_URL: bk.fake.apiUrl,
  CRATES_INDEX_URL: "off",
  XDG_CACHE_HOME: bk.cache,
});
const scan = (args: string[], token?: string, more: Record<string, string> = {}) =>
  runScan(bk, [REPO, ...args], { ...(token ? { GITHUB_TOKEN: token } : {}), ...more });
/** The REST path: where GitHub refuses GraphQL, or GRAPHQL_READS=off. */
const REST = { GRAPHQL_READS: "off" };

const json = async (args: string[], token?: string) => {
  const r = await scan([...args, "--json"], token);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as {
    scanned: number;
    writes: number;
    unchanged: boolean;
    rows: Array<{ number: number; status: string; applied?: string; fix: unknown }>;
  };
};
const marked = (issue: number) =>
  bk.fake.comments.filter((c) => c.issue === issue && c.body.startsWith(ISSUE_MARKER_PREFIX));
const listings = () =>
  bk.fake.calls.filter((c) => c.method === "GET" && /\/repos\/acme\/widgets\/issues\?/.test(c.path));
const queries = () => bk.fake.calls.filter((c) => c.path.endsWith("/graphql"));

describe("burn-triage scan", () => {
  it("reports what the bot would answer on the open issues, reading page by page and writing nothing", async () => {
    const r = await scan(["--markdown"]);
    expect(r.code).toBe(0);
    expect(bk.fake.writes()).toEqual([]);
    // 300 issues, 234 of them open issues (closed ones and pull requests are not asked for); 100
    // per query, then the first page once by REST for its ETag.
    expect(queries()).toHaveLength(3);
    expect(listings()).toHaveLength(1);
    const numbers = [...r.stdout.matchAll(/^\| #(\d+) \|/gm)].map((m) => Number(m[1]));
    expect(numbers.sort((a, b) => a - b)).toEqual(bk.answered);
    expect(r.stdout).toContain(`${bk.answered.length} answerable: ${bk.answered.length} without the bot's comment`);
    expect(r.stdout).toMatch(/\| `dispatch-autodiff-stub` \| `burn: add autodiff` \| missing, label owed \|/);
  });

  it(
    "--apply posts one comment per answerable issue as the bot would; a rerun costs one free call",
    async () => {
      const first = await json(["--apply", "--write-interval-ms", "0", "--content-limits", "10000/10000"]);
      // A comment per issue, and its label where the finding has one.
      expect(first.writes).toBe(bk.fake.writes().length);
      expect(bk.fake.comments.length).toBe(bk.answered.length);
      for (const n of bk.answered) expect(marked(n)).toHaveLength(1);
      expect(bk.fake.comments.every((c) => c.user.login === FAKE_USER.login)).toBe(true);
      // The label goes on with each new comment that reports a feature left off.
      expect(bk.fake.labels.length).toBeGreaterThan(0);
      expect(bk.fake.labels.every((l) => bk.answered.includes(l.issue) && l.labels.length === 1)).toBe(true);

      // The bot's own writes moved every answered issue's updated_at: the run read the first page
      // again at its end, so the rerun right after it is one conditional request (a 304).
      const calls = bk.fake.calls.length;
      const second = await json(["--apply"]);
      expect(second).toMatchObject({ writes: 0, unchanged: true, scanned: first.scanned });
      expect(second.rows.every((row) => row.status === "current")).toBe(true);
      expect(bk.fake.calls.slice(calls).map((c) => c.method)).toEqual(["GET"]);
    },
    budget(6_500),
  );

  it(
    "counts the App's own comment as the bot's: scanning with a maintainer's token after the App answered writes nothing",
    async () => {
      await json(["--apply", "--write-interval-ms", "0", "--content-limits", "10000/10000"], "ghs_fake_1");
      expect(bk.fake.comments.every((c) => c.performed_via_github_app?.id === FAKE_APP.id)).toBe(true);
      const count = bk.fake.comments.length;
      const r = await json([
        "--apply",
        "--write-interval-ms",
        "0",
        "--content-limits",
        "10000/10000",
        "--state",
        join(bk.cache, "maintainer.json"),
      ]);
      expect(r.writes).toBe(0);
      expect(bk.fake.comments.length).toBe(count);
    },
    budget(8_000),
  );

  it(
    "resumes after being killed mid-apply: every answerable issue ends with exactly one comment",
    async () => {
      const child: ChildProcess = spawn(
        process.execPath,
        [cli, "scan", REPO, "--apply", "--write-interval-ms", "20", "--content-limits", "10000/10000", "--json"],
        { env: env(), stdio: "ignore" },
      );
      const exited = new Promise((r) => child.once("exit", r));
      while (bk.fake.comments.length < 10) await new Promise((r) => setTimeout(r, 20));
      child.kill("SIGKILL");
      await exited;
      expect(bk.fake.comments.length).toBeLessThan(bk.answered.length);
      const resumedAt = Date.now();
      const rest = await json(["--apply", "--write-interval-ms", "0", "--content-limits", "10000/10000"]);
      for (const n of bk.answered) expect(marked(n)).toHaveLength(1);
      // Every comment posted, and every label owed, once: the one killed between them included.
      expect(bk.fake.comments.length).toBe(bk.answered.length);
      expect(rest.writes).toBe(bk.fake.writes().filter((c) => c.at >= resumedAt).length);
      // The labels of one clean run, each posted once.
      const clean = await startFakeGitHub({ issues: backlog(300).issues });
      try {
        await new Promise((r) =>
          execFile(
            process.execPath,
            [cli, "scan", REPO, "--apply", "--write-interval-ms", "0", "--content-limits", "10000/10000"],
            { env: { ...env(), GITHUB_API_URL: clean.apiUrl, XDG_CACHE_HOME: join(bk.cache, "clean") } },
            r,
          ),
        );
        const labelled = (f: FakeGitHub) => f.labels.map((l) => `${l.issue}:${l.labels.join()}`).sort();
        expect(labelled(bk.fake)).toEqual(labelled(clean));
        expect(clean.labels.length).toBeGreaterThan(0);
      } finally {
        await clean.close();
      }
    },
    budget(12_500),
  );

  it(
    "rides out a 502 and waits out a rate limit; an error GitHub will not retry stops the scan and says how to resume",
    async () => {
      // By GraphQL: the listing's query, once rate-limited and once answered 502.
      bk.fake.faults.push({
        path: "/graphql",
        status: 403,
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 1) },
        body: { message: "API rate limit exceeded" },
        times: 1,
      });
      bk.fake.faults.push({ path: "/graphql", status: 502, times: 1 });
      const q = await scan(["--json"]);
      expect(q.code).toBe(0);
      expect(q.stderr).toMatch(/rate limit is used up; waiting \d+ s/);
      expect(JSON.parse(q.stdout).rows).toHaveLength(bk.answered.length);
      expect(queries()).toHaveLength(3 + 2);

      // By REST: the listing, then a thread's comments.
      bk.fake.faults.push({
        method: "GET",
        path: "/repos/acme/widgets/issues",
        status: 403,
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 1) },
        body: { message: "API rate limit exceeded" },
        times: 1,
      });
      bk.fake.faults.push({ method: "GET", path: `/issues/${bk.answered[3]}/comments`, status: 502, times: 1 });
      const r = await scan(["--json", "--state", join(bk.cache, "rest.json")], undefined, REST);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/rate limit is used up; waiting \d+ s/);
      expect(JSON.parse(r.stdout).rows).toHaveLength(bk.answered.length);
      expect(
        bk.fake.calls.filter((c) => c.path.startsWith(`/repos/acme/widgets/issues/${bk.answered[3]}/comments`)),
      ).toHaveLength(2);

      bk.fake.faults.push({
        method: "GET",
        path: `/issues/${bk.answered[5]}/comments`,
        status: 403,
        body: { message: "Resource not accessible by personal access token" },
        times: 1,
      });
      const stopped = await scan(
        ["--apply", "--write-interval-ms", "0", "--content-limits", "10000/10000"],
        undefined,
        REST,
      );
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toMatch(/the scan stopped: GitHub answered 403: Resource not accessible/);
      expect(stopped.stderr).toMatch(/run the same command again to resume/);
      const resumed = await json(["--apply", "--write-interval-ms", "0", "--content-limits", "10000/10000"]);
      expect(resumed.rows).toHaveLength(bk.answered.length);
      for (const n of bk.answered) expect(marked(n)).toHaveLength(1);
    },
    budget(15_000),
  );

  it("refuses what it cannot scan with a usage error and no call", async () => {
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [cli, "scan", "not-a-repo"], { env: env() }, (err, _o, stderr) =>
        resolve({ code: Number(err?.code ?? 0), stderr }),
      ),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("scan wants OWNER/REPO");
    expect(bk.fake.calls).toEqual([]);
  });
});
