// Issue 14's faults, each against the real server and a fake GitHub on loopback: no lost
// comment, no doubled comment, no wedged conversation, only its own comments touched.
import { describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER } from "../../src/render/issue.js";
import { REVIEW_MARKER } from "../../src/render/review.js";
import { deliver, until, untilDone, withServers } from "../helpers/server.js";
import { FAKE_APP, type FakeGitHub } from "../support/fake-github.js";
import { editedToPre1, scenarioRepo, webhook } from "../support/scenario.js";

let n = 900;
function issue(extra: Record<string, unknown> = {}) {
  const p = webhook("issues.opened");
  p.issue.number = n++;
  Object.assign(p.issue, extra);
  return p;
}
const commentsOn = (fake: FakeGitHub, issueNumber: number) => fake.comments.filter((c) => c.issue === issueNumber);
const FAST_RETRIES = { BURN_TRIAGE_RETRY_DELAYS_MS: "300,600,900", GITHUB_REQUEST_TIMEOUT_MS: "1500" };

describe("faults past Octokit's retries are retried later, never lost or doubled", () => {
  const stack = withServers(1, FAST_RETRIES);

  it("503 five times on the comment listing: the delivery is retried and the comment lands once", async () => {
    const p = issue();
    stack.fake.faults.push({ method: "GET", path: `/issues/${p.issue.number}/comments`, status: 503, times: 5 });
    await deliver(stack.servers[0]!, "issues", p, { id: "h-503" });
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1, 25000);
    expect(stack.servers[0]!.output()).toContain("retrying a failed delivery");
    await untilDone(stack.servers[0]!, "h-503");
    expect(commentsOn(stack.fake, p.issue.number)).toHaveLength(1);
  }, 40000);

  it("a retry that runs after an edit removed the panic answers the issue as it is now: nothing", async () => {
    const p = issue();
    stack.fake.faults.push({ method: "GET", path: `/issues/${p.issue.number}/comments`, status: 503, times: 5 });
    await deliver(stack.servers[0]!, "issues", p);
    // The edit lands on GitHub before the retry runs (its own delivery is not needed here).
    stack.fake.current.issues.set(p.issue.number, {
      ...p.issue,
      body: "Never mind, it was my Cargo.toml.",
      updated_at: new Date().toISOString(),
    });
    await until(() => stack.servers[0]!.output().includes("retrying a failed delivery"), 25000);
    await until(
      () =>
        /issue triaged|retry skipped|handler failed/.test(
          stack.servers[0]!.output().split("retrying a failed delivery").at(-1)!,
        ),
      25000,
    );
    expect(commentsOn(stack.fake, p.issue.number)).toHaveLength(0);
  }, 40000);

  it("GitHub stores the comment and then answers 502: still exactly one comment", async () => {
    const p = issue();
    stack.fake.faults.push({
      method: "POST",
      path: `/issues/${p.issue.number}/comments`,
      status: 502,
      times: 1,
      after: true,
    });
    await deliver(stack.servers[0]!, "issues", p, { id: "h-502-stored" });
    await until(() => stack.fake.labels.some((l) => l.issue === p.issue.number), 15000);
    await untilDone(stack.servers[0]!, "h-502-stored");
    expect(commentsOn(stack.fake, p.issue.number)).toHaveLength(1);
  });

  it("a truncated JSON listing is a failed read, retried, not an empty list", async () => {
    const p = issue();
    stack.fake.faults.push({
      method: "GET",
      path: `/issues/${p.issue.number}/comments`,
      status: 200,
      times: 1,
      raw: '[{"id": 1, "bo',
    });
    await deliver(stack.servers[0]!, "issues", p, { id: "h-truncated" });
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1, 15000);
    expect(stack.servers[0]!.output()).toContain("retrying a failed delivery");
    await untilDone(stack.servers[0]!, "h-truncated");
    expect(commentsOn(stack.fake, p.issue.number)).toHaveLength(1);
  });

  it("a hung API call times out and does not hold the conversation's lock", async () => {
    const p = issue();
    stack.fake.faults.push({
      method: "GET",
      path: `/issues/${p.issue.number}/comments`,
      status: 200,
      times: 1,
      delayMs: 120000,
      body: [],
    });
    await deliver(stack.servers[0]!, "issues", p);
    const t = Date.now();
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1, 20000);
    expect(Date.now() - t).toBeLessThan(15000);
    expect(stack.servers[0]!.output()).toContain("did not answer within 1500 ms");
  }, 30000);

  it("another app's comment carrying the marker is neither edited nor deleted, and is not taken for ours", async () => {
    const p = issue();
    const foreign = {
      id: 77001,
      body: `${ISSUE_MARKER}\nnot mine`,
      user: { login: "other-bot[bot]", type: "Bot" },
      performed_via_github_app: { id: 999, slug: "other-bot" },
      issue: p.issue.number,
    };
    stack.fake.comments.push(foreign);
    await deliver(stack.servers[0]!, "issues", p);
    await until(() => commentsOn(stack.fake, p.issue.number).length === 2);
    await deliver(
      stack.servers[0]!,
      "issues",
      { ...p, action: "edited", changes: { body: { from: "x" } } },
      { id: "h-foreign-edit" },
    );
    await untilDone(stack.servers[0]!, "h-foreign-edit");
    const mine = commentsOn(stack.fake, p.issue.number).filter((c) => c.performed_via_github_app?.id === FAKE_APP.id);
    expect(mine).toHaveLength(1);
    expect(stack.fake.comments.find((c) => c.id === foreign.id)?.body).toBe(`${ISSUE_MARKER}\nnot mine`);
    expect(stack.fake.calls.some((c) => c.path.endsWith(`/issues/comments/${foreign.id}`))).toBe(false);
  });

  it("a replayed older delivery does not roll the comment back", async () => {
    const older = issue({ updated_at: "2026-11-01T10:00:00Z" });
    const newer = editedToPre1(older, { updated_at: "2026-11-02T10:00:00Z" });
    await deliver(stack.servers[0]!, "issues", older);
    await until(() => commentsOn(stack.fake, older.issue.number).length === 1);
    await deliver(stack.servers[0]!, "issues", newer);
    await until(() => commentsOn(stack.fake, older.issue.number)[0]!.body.includes("v0.22.0-pre.1/"));
    await deliver(stack.servers[0]!, "issues", older);
    await until(() => stack.servers[0]!.output().includes("older delivery ignored"));
    expect(commentsOn(stack.fake, older.issue.number)[0]!.body).toContain("v0.22.0-pre.1/");
    expect(commentsOn(stack.fake, older.issue.number)[0]!.body.split("\n")[0]).toBe(
      '<!-- burn-triage:issue {"updated_at":"2026-11-02T10:00:00Z"} -->',
    );
  });

  it("another bot's review quoting the marker does not stop the review", async () => {
    const pr = webhook("pull_request.opened");
    stack.fake.reviews.push({
      id: 88001,
      body: `${REVIEW_MARKER}\nquoted`,
      commit_id: pr.pull_request.head.sha,
      user: { login: "other-bot[bot]", type: "Bot" },
      comments: [],
      pull: pr.pull_request.number,
    });
    await deliver(stack.servers[0]!, "pull_request", pr);
    await until(() => stack.fake.reviews.some((r) => r.user.login === "burn-triage[bot]"), 15000);
    expect(stack.fake.reviews.find((r) => r.id === 88001)?.body).toBe(`${REVIEW_MARKER}\nquoted`);
  });
});

describe("config unreadable: a repository that disabled the bot never hears from it", () => {
  const repo = scenarioRepo();
  repo.files = { ...repo.files, ".github/burn-triage.yml": "issues:\n  enabled: false\n" };
  const stack = withServers(1, FAST_RETRIES, repo);

  it("5xx on the config (past Octokit's retries): no comment now, and the retry reads enabled: false", async () => {
    const p = issue();
    stack.fake.faults.push({ method: "GET", path: "/contents/.github%2Fburn-triage.yml", status: 503, times: 4 });
    stack.fake.faults.push({ method: "GET", path: "/contents/.github/burn-triage.yml", status: 503, times: 4 });
    await deliver(stack.servers[0]!, "issues", p, { id: "h-config-5xx" });
    await until(() => stack.servers[0]!.output().includes("config unreadable"), 20000);
    // The retry reads `enabled: false` and finishes without writing.
    await untilDone(stack.servers[0]!, "h-config-5xx");
    expect(commentsOn(stack.fake, p.issue.number)).toHaveLength(0);
    expect(stack.fake.writes()).toEqual([]);
  }, 40000);
});
