// `burn-triage scan` against hostile or broken answers and half-finished earlier runs: the
// built CLI as a process, against the fake GitHub on loopback, on a backlog small enough to run
// in a few seconds. Each case fails with its rule removed.

import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER_PREFIX } from "../../src/render/issue.js";
import { runScan, SCAN_REPO, withBacklog } from "../helpers/scan-backlog.js";
import { FAKE_USER } from "../support/fake-github.js";
import { backlog, fixtureText } from "../support/scenario.js";

const REPO = SCAN_REPO;
const TOKEN = "ghp_fake_maintainer_s3cret";
const LABEL = "burn: feature off";
const bk = withBacklog(24);
const scan = (args: string[], env: Record<string, string> = {}) => runScan(bk, args, { GITHUB_TOKEN: TOKEN, ...env });
/** The REST path: where GitHub refuses GraphQL, or GRAPHQL_READS=off. */
const REST = { GRAPHQL_READS: "off" };
const apply = () => scan([REPO, "--apply", "--write-interval-ms", "0", "--content-limits", "10000/10000", "--json"]);
const marked = (issue: number) =>
  bk.fake.comments.filter((c) => c.issue === issue && c.body.startsWith(ISSUE_MARKER_PREFIX));
const issue = (n: number) => bk.fake.repo.issues!.find((i) => i.number === n)!;
const bump = (n: number) => {
  issue(n).updated_at = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, "Z");
};

describe("scan converges", () => {
  it("a report never writes: two marked comments of the bot stay two, and the report says what --apply would do", async () => {
    const n = bk.answered[0]!;
    const mine = { user: FAKE_USER, performed_via_github_app: null, issue: n };
    bk.fake.comments.push({ ...mine, id: 1, body: `${ISSUE_MARKER_PREFIX} -->\nold advice` });
    bk.fake.comments.push({ ...mine, id: 2, body: `${ISSUE_MARKER_PREFIX} -->\nolder advice` });
    const r = await scan([REPO, "--json"]);
    expect(r.code).toBe(0);
    expect(bk.fake.writes()).toEqual([]);
    expect(marked(n)).toHaveLength(2);
    const row = (JSON.parse(r.stdout).rows as Array<{ number: number; status: string }>).find((x) => x.number === n);
    expect(row?.status).toBe("outdated");
  });

  it("a label owed after a comment whose label POST failed is posted by the rerun, once; one a person removed stays off", async () => {
    const [a, b] = bk.answered as [number, number];
    bk.fake.faults.push({
      method: "POST",
      path: `/issues/${a}/labels`,
      status: 403,
      times: 1,
      body: { message: "nope" },
    });
    const first = await apply();
    expect(first.code).toBe(1);
    expect(marked(a)).toHaveLength(1);
    await apply();
    expect(bk.fake.labels.filter((l) => l.issue === a)).toHaveLength(1);
    expect(issue(a).labels.map((l) => l.name)).toEqual([LABEL]);
    // A maintainer takes b's label off and edits b: the bot's answer stands, the label stays off.
    bk.fake.unlabel(b, LABEL);
    issue(b).body = `${issue(b).body}\n\nStill happening.`;
    bump(b);
    await apply();
    expect(issue(b).labels).toEqual([]);
    expect(bk.fake.labels.filter((l) => l.issue === b)).toHaveLength(1);
  });

  it("an answer the issue no longer calls for is retracted by --apply, and only then", async () => {
    const n = bk.answered[0]!;
    expect((await apply()).code).toBe(0);
    issue(n).body = fixtureText("issues/neg-feature-question.md");
    bump(n);
    const report = await scan([REPO, "--json"]);
    expect(JSON.parse(report.stdout).stale).toEqual([{ number: n, title: issue(n).title }]);
    expect(marked(n)[0]!.body).not.toContain("no longer contains a panic");
    const r = await apply();
    expect(JSON.parse(r.stdout).stale).toEqual([{ number: n, title: issue(n).title, retracted: true }]);
    expect(marked(n)).toHaveLength(1);
    expect(marked(n)[0]!.body).toContain("no longer contains a panic");
  });

  it("never sends the token to another host a Link header names, and stops on a Link back to a page it read (REST)", async () => {
    const seen: string[] = [];
    const other: Server = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      res.end("[]");
    });
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", () => r()));
    const port = (other.address() as AddressInfo).port;
    try {
      const link = `<http://127.0.0.1:${port}/api/v3/repos/acme/widgets/issues?page=2>; rel="next"`;
      bk.fake.faults.push({
        method: "GET",
        path: "/repos/acme/widgets/issues",
        status: 200,
        times: 1,
        body: [],
        headers: { link },
      });
      const r = await scan([REPO, "--json"], REST);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/refused a request outside GitHub's API root/);
      expect(seen).toEqual([]);
      const self = `<${bk.fake.apiUrl}/repos/acme/widgets/issues?state=open&sort=updated&direction=desc&per_page=100>; rel="next"`;
      bk.fake.faults.push({
        method: "GET",
        path: "/repos/acme/widgets/issues",
        status: 200,
        times: 5,
        body: [],
        headers: { link: self },
      });
      const loop = await scan([REPO, "--json"], REST);
      expect(loop.code).toBe(1);
      expect(loop.stderr).toMatch(/links back to a page already read/);
    } finally {
      other.close();
    }
  });

  it("caps the listing with a message that says how to raise it", async () => {
    const r = await scan([REPO, "--all", "--max-pages", "1"], {});
    expect(r.code).toBe(0); // 24 issues fit on one page
    for (const i of backlog(150).issues.slice(24)) bk.fake.repo.issues!.push(i);
    const capped = await scan([REPO, "--all", "--max-pages", "1"]);
    expect(capped.code).toBe(1);
    expect(capped.stderr).toMatch(/more than 1 pages; stopped there \(raise it with --max-pages N\)/);
  });

  it("stops on a rate-limit reset it cannot believe instead of 'waiting 0 s' forever", async () => {
    bk.fake.faults.push({
      method: "GET",
      path: "/repos/acme/widgets/issues",
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "99999999999999" },
      body: { message: "API rate limit exceeded" },
      times: 10,
    });
    const r = await scan([REPO]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/rate limit is used up and its reset time makes no sense; stopping/);
    expect(bk.fake.calls.filter((c) => c.path.startsWith("/repos/acme/widgets/issues?")).length).toBeLessThanOrEqual(4);
  });

  it("prints no terminal control from GitHub and no token, and survives a broken state file", async () => {
    issue(bk.answered[0]!).title = "evil \u001b]0;owned\u0007 \u001b[2J title\r";
    const path = join(bk.cache, "state.json");
    writeFileSync(
      path,
      JSON.stringify({ version: 2, repo: REPO, tool: "x", issues: {}, listings: { q: { rows: [{}] } } }),
    );
    const r = await scan([REPO, "--state", path]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).toContain("\\x1b]0;owned\\x07");
    expect(r.stderr).toMatch(/ignoring the scan state in .*: it does not match the schema/);
    bk.fake.faults.push({
      path: "/repos/acme/widgets/issues",
      status: 401,
      times: 1,
      body: { message: `Bad credentials: ${TOKEN}` },
    });
    const denied = await scan([REPO, "--state", path]);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain("Bad credentials: ***");
    expect(denied.stderr).not.toContain(TOKEN);
  });

  it("takes GITHUB_API_URL with a trailing slash, --help, and refuses names GitHub would not have, with no call", async () => {
    const r = await scan([REPO, "--json"], { GITHUB_API_URL: `${bk.fake.apiUrl}/` });
    expect(r.code).toBe(0);
    expect(bk.fake.calls.some((c) => c.path.startsWith("//"))).toBe(false);
    const calls = bk.fake.calls.length;
    const help = await scan(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--write-interval-ms MS\] \[--content-limits M\/H\] \[--max-pages N\] \[--progress\]/);
    for (const bad of ["../..", "o/..", "o/.", "o/r/x", "o r/x", "-o/r"]) {
      const refused = await scan(["--", bad]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("scan wants OWNER/REPO as GitHub names them");
    }
    expect(bk.fake.calls.length).toBe(calls);
  });
});
