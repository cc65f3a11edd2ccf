// `scan --apply` as GitHub sees it: the built CLI against the fake GitHub, which stamps each
// request as it arrives. No two writes closer than the spacing, the default second included
// (where Octokit's own throttling holds a comment for its notification slot before it leaves).
import { describe, expect, it } from "@jest/globals";
import { runScan, SCAN_REPO, withBacklog } from "../helpers/scan-backlog.js";
import { budget } from "../helpers/server.js";

const bk = withBacklog(12);

/** The gaps between consecutive writes, in the order they reached GitHub. */
const gaps = () => {
  const at = bk.fake
    .writes()
    .map((w) => w.at)
    .sort((a, b) => a - b);
  return at.slice(1).map((t, i) => t - at[i]!);
};

describe("scan --apply's pacing", () => {
  it(
    "leaves a second between writes by default: a label never follows its comment at once",
    async () => {
      const r = await runScan(bk, [SCAN_REPO, "--apply"]);
      expect(r.code).toBe(0);
      const methods = bk.fake.writes().map((w) => `${w.method} ${w.path.replace(/\d+/g, "N")}`);
      // Comments and the labels that go with them, one conversation after another.
      expect(methods).toContain("POST /repos/acme/widgets/issues/N/comments");
      expect(methods).toContain("POST /repos/acme/widgets/issues/N/labels");
      expect(Math.min(...gaps())).toBeGreaterThanOrEqual(1000);
    },
    budget(10_000),
  );

  it(
    "keeps --write-interval-ms between writes",
    async () => {
      const r = await runScan(bk, [SCAN_REPO, "--apply", "--write-interval-ms", "300"]);
      expect(r.code).toBe(0);
      expect(gaps().length).toBeGreaterThan(2);
      expect(Math.min(...gaps())).toBeGreaterThanOrEqual(300);
    },
    budget(3_000),
  );
});
