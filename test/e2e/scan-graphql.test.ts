// `burn-triage scan` at a constant API cost: the built CLI against the fake GitHub, which answers
// the scan's GraphQL queries by executing them against GitHub's schema. Every request is counted,
// REST and GraphQL. The bot's answers are put there first by the App itself (`--apply` with an
// installation token, by REST: the setup is not under test), then aged: some edited to an older
// answer, some deleted, one issue's label taken off by a person.

import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER_PREFIX } from "../../src/render/issue.js";
import { answeredByTheApp, type Backlog, runScan, SCAN_REPO, withBacklog } from "../helpers/scan-backlog.js";
import { budget } from "../helpers/server.js";
import type { Call } from "../support/fake-github.js";
import { age } from "../support/scan-cli.js";

const FAST = ["--write-interval-ms", "0", "--content-limits", "100000/100000"];
const LABEL = "burn: feature off";

const since = (bk: Backlog, n: number) => bk.fake.calls.slice(n);
/** The issue a request is about: in its path, or the issue of the comment it edits. */
const issueOf = (bk: Backlog, c: Call): number => {
  const comment = /\/issues\/comments\/(\d+)/.exec(c.path);
  if (comment) return bk.fake.comments.find((x) => x.id === Number(comment[1]))?.issue ?? Number.NaN;
  return Number(/\/issues\/(\d+)\//.exec(c.path)?.[1]);
};
const rowsOf = (stdout: string) =>
  (JSON.parse(stdout) as { rows: Array<{ number: number; status: string }> }).rows.map((r) => [r.number, r.status]);

describe("scan by GraphQL: a 1,000-issue backlog", () => {
  const bk = withBacklog(1000, { open: true });

  it(
    "is reported in at most 15 requests, REST and GraphQL counted, with no thread read; REST reports the same",
    async () => {
      await answeredByTheApp(bk);
      const { outdated, deleted } = age(bk);
      const from = bk.fake.calls.length;
      const r = await runScan(bk, [SCAN_REPO, "--json"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const used = since(bk, from);
      expect(used.length).toBeLessThanOrEqual(15);
      expect(used.filter((c) => /\/issues\/\d+\//.test(c.path))).toEqual([]);
      const rows = rowsOf(r.stdout);
      expect(rows).toHaveLength(bk.answered.length);
      const status = new Map(rows as Array<[number, string]>);
      for (const n of bk.answered)
        expect(status.get(n)).toBe(outdated.includes(n) ? "outdated" : deleted.includes(n) ? "missing" : "current");

      const rest = await runScan(bk, [SCAN_REPO, "--json", "--state", join(bk.cache, "rest.json")], {
        GRAPHQL_READS: "off",
      });
      expect(rest.code).toBe(0);
      expect(rest.stdout).toBe(r.stdout);
      // By REST, a comment listing for each answerable issue.
      expect(since(bk, from).length - used.length).toBeGreaterThan(bk.answered.length);
    },
    budget(12_000),
  );
});

describe("scan --apply by GraphQL", () => {
  const bk = withBacklog(120, { open: true });

  it(
    "writes only where an answer is missing or outdated, and reads no thread it does not write to",
    async () => {
      await answeredByTheApp(bk);
      const { outdated, deleted } = age(bk);
      // A maintainer took the label off an answered issue: the answer stands, the label stays off.
      const unlabelled = bk.answered.find((n) => !outdated.includes(n) && !deleted.includes(n))!;
      bk.fake.unlabel(unlabelled, LABEL);
      const from = bk.fake.calls.length;
      const r = await runScan(bk, [SCAN_REPO, "--apply", ...FAST, "--json"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const used = since(bk, from);
      const writes = used.filter((c) => c.method !== "GET" && !c.path.endsWith("/graphql"));
      const written = [...new Set(writes.map((c) => issueOf(bk, c)))].sort((a, b) => a - b);
      expect(written).toEqual([...outdated, ...deleted].sort((a, b) => a - b));
      expect(writes.map((c) => `${c.method} ${c.path.replace(/\d+/g, "N")}`).sort()).toEqual(
        [
          ...outdated.map(() => "PATCH /repos/acme/widgets/issues/comments/N"),
          ...deleted.map(() => "POST /repos/acme/widgets/issues/N/comments"),
        ].sort(),
      );
      // Threads are read (REST, under the lock, just before writing) only where the run writes.
      const threadReads = used.filter((c) => c.method === "GET" && /\/issues\/\d+\//.test(c.path));
      expect([...new Set(threadReads.map((c) => issueOf(bk, c)))].sort((a, b) => a - b)).toEqual(written);
      expect(threadReads.every((c) => /\/comments/.test(c.path))).toBe(true);
      expect(bk.fake.repo.issues!.find((i) => i.number === unlabelled)!.labels).toEqual([]);
      for (const n of bk.answered)
        expect(bk.fake.comments.filter((c) => c.issue === n && c.body.startsWith(ISSUE_MARKER_PREFIX))).toHaveLength(1);
      // Every answer is current now: a report by REST finds nothing to do.
      const after = await runScan(bk, [SCAN_REPO, "--json", "--state", join(bk.cache, "after.json")], {
        GRAPHQL_READS: "off",
      });
      expect(rowsOf(after.stdout).every(([, s]) => s === "current")).toBe(true);
    },
    budget(15_000),
  );

  it(
    "falls back to REST where GitHub refuses GraphQL, the listing or only the comments' query, with the same report",
    async () => {
      await answeredByTheApp(bk);
      age(bk);
      const report = (state: string) => runScan(bk, [SCAN_REPO, "--json", "--state", join(bk.cache, state)]);
      const graphql = await report("graphql.json");
      expect(graphql.code).toBe(0);

      // A GitHub Enterprise Server without GraphQL.
      bk.fake.faults.push({ path: "/graphql", status: 404, times: 1000, body: { message: "Not Found" } });
      const refused = await report("refused.json");
      expect(refused.code).toBe(0);
      expect(refused.stderr).toMatch(/GitHub refused the GraphQL listing; reading the backlog by REST/);
      expect(refused.stdout).toBe(graphql.stdout);
      bk.fake.faults.length = 0;

      // The listing answered, the comments' query refused: those threads are listed by REST.
      bk.fake.faults.push({ path: "/graphql", bodyIncludes: "nodes(ids:", status: 403, times: 1000 });
      const from = bk.fake.calls.length;
      const half = await report("half.json");
      expect(half.code).toBe(0);
      expect(half.stderr).toMatch(/GitHub refused the GraphQL read of the bot's comments; reading them by REST/);
      expect(half.stdout).toBe(graphql.stdout);
      expect(since(bk, from).some((c) => /\/issues\/\d+\/comments/.test(c.path))).toBe(true);
    },
    budget(15_000),
  );

  it(
    "stops with a clear error, and writes nothing, on an answer GitHub never gives",
    async () => {
      await answeredByTheApp(bk);
      age(bk);
      const issues = (pageInfo: object, nodes: unknown[]) => ({
        data: { repository: { issues: { pageInfo, nodes } } },
      });
      const last = { hasNextPage: false, endCursor: null };
      const huge = {
        ...{ id: "I_1", number: 1, title: "t", body: "x".repeat(200_000), state: "OPEN", locked: false },
        ...{ updatedAt: "2026-06-01T00:00:00Z", author: null, labels: { totalCount: 0, nodes: [] } },
        comments: { totalCount: 0, nodes: [] },
      };
      const cases: Array<[string, object, RegExp]> = [
        [
          "issues(first:",
          issues({ hasNextPage: true, endCursor: "again" }, []),
          /the issues listing gave cursor again twice/,
        ],
        ["issues(first:", issues(last, [null]), /issues.nodes\[0\] is not an object/],
        ["issues(first:", issues(last, [{ number: 4 }]), /issues.nodes\[0\].state is not a string/],
        [
          "issues(first:",
          issues(last, [huge]),
          /issues.nodes\[0\].body is 200000 characters long, more than GitHub stores/,
        ],
        ["nodes(ids:", { data: { c0: [{ id: "IC_other", body: "x" }] } }, /c0 has 1 of 20 comments/],
      ];
      for (const [query, body, message] of cases) {
        bk.fake.faults.push({ path: "/graphql", bodyIncludes: query, status: 200, body, times: 100 });
        const r = await runScan(bk, [SCAN_REPO, "--apply", ...FAST, "--json"]);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/the scan stopped: malformed GraphQL answer from GitHub: /);
        expect(r.stderr).toMatch(message);
        expect(bk.fake.writes()).toEqual([]);
        bk.fake.faults.length = 0;
      }
    },
    budget(15_000),
  );
});

describe("scan's config by GraphQL", () => {
  const bk = withBacklog(24);

  it("is read in the first page's query, the owner's `.github` where the repository has none, the repository's first", async () => {
    const contents = () => bk.fake.calls.filter((c) => c.path.includes("/contents/.github"));
    bk.fake.repo.orgConfig = "issues:\n  enabled: false\n";
    const off = await runScan(bk, [SCAN_REPO, "--json", "--state", join(bk.cache, "off.json")]);
    expect(off.code).toBe(0);
    expect(rowsOf(off.stdout)).toEqual([]);
    bk.fake.repo.files = { ".github/burn-triage.yml": "issues:\n  enabled: true\n" };
    const on = await runScan(bk, [SCAN_REPO, "--json", "--state", join(bk.cache, "on.json")]);
    expect(rowsOf(on.stdout)).toHaveLength(bk.answered.length);
    expect(contents()).toEqual([]);
    // No `.github` repository, and none in the repository: the defaults, still without a REST read.
    bk.fake.repo.files = {};
    bk.fake.repo.orgConfig = null;
    const none = await runScan(bk, [SCAN_REPO, "--json", "--state", join(bk.cache, "none.json")]);
    expect(rowsOf(none.stdout)).toHaveLength(bk.answered.length);
    expect(contents()).toEqual([]);
  });
});
