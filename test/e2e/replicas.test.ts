// Several replicas, really: with REDIS_URL the lock around find-or-create, the delivery
// de-duplication and the command cooldowns live in Redis, so two replicas racing on one
// conversation create exactly one comment. An unreachable Redis is one warning, not an outage.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { fixture } from "../helpers/fixtures.js";
import { budget, deliver, freePort, type RunningServer, startServer, until, untilSettled } from "../helpers/server.js";
import { requireOrSkip, which } from "../helpers/services.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { scenarioRepo, webhook } from "../support/scenario.js";

const redisBin = which("redis-server");
let n = 1200;
function issue() {
  const p = webhook("issues.opened");
  p.issue.number = n++;
  return p;
}
const commentsOn = (fake: FakeGitHub, issueNumber: number) => fake.comments.filter((c) => c.issue === issueNumber);

requireOrSkip(redisBin, "redis-server (Debian package redis-server; .ci/run installs it)")(
  "two replicas sharing Redis",
  () => {
    let redis: ChildProcess;
    let fake: FakeGitHub;
    let servers: RunningServer[] = [];
    let port = 0;
    beforeAll(async () => {
      port = await freePort();
      redis = spawn(redisBin!, ["--port", String(port), "--save", "", "--appendonly", "no"], { stdio: "ignore" });
      await until(() => {
        try {
          return execFileSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).trim() === "PONG";
        } catch {
          return false;
        }
      });
      const repo = scenarioRepo();
      repo.files!["v0.22.1:crates/burn-dispatch/src/backend.rs"] = fixture(
        "burn-src/v0.22.1/crates/burn-dispatch/src/backend.rs",
      );
      fake = await startFakeGitHub(repo);
      // Every answer takes a moment, so both replicas are inside find-or-create at the same time.
      fake.latencyMs = 60;
      servers = await Promise.all([0, 1].map(() => startServer(fake, { REDIS_URL: `redis://127.0.0.1:${port}` })));
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await fake?.close();
      redis?.kill();
    });

    it(
      "burn's source read at a tag by one replica is not read again by the other (shared cache)",
      async () => {
        const onRelease = () => {
          const p = issue();
          p.issue.body =
            "thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.1/src/backend.rs:58:9:\nnot implemented: Requires `autodiff` feature\n";
          return p;
        };
        const reads = () => fake.calls.filter((c) => c.path.startsWith("/repos/tracel-ai/burn/contents/")).length;
        const first = onRelease();
        await deliver(servers[0]!, "issues", first);
        await until(() => commentsOn(fake, first.issue.number).length === 1, 20000);
        expect(reads()).toBe(1);
        const second = onRelease();
        await deliver(servers[1]!, "issues", second);
        await until(() => commentsOn(fake, second.issue.number).length === 1, 20000);
        expect(reads()).toBe(1);
        expect(commentsOn(fake, second.issue.number)[0]!.body).toContain(
          "blob/v0.22.1/crates/burn-dispatch/src/backend.rs#L58",
        );
        expect(commentsOn(fake, second.issue.number)[0]!.body).toContain("read from burn's source at `v0.22.1`");
      },
      budget(3_600),
    );

    it(
      "the same delivery sent to both replicas at once: one comment, six times out of six",
      async () => {
        const issues = Array.from({ length: 6 }, issue);
        for (const p of issues) {
          const id = `same-${p.issue.number}`;
          await Promise.all(servers.map((s) => deliver(s, "issues", p, { id })));
        }
        for (const p of issues) await untilSettled(servers, `same-${p.issue.number}`, 2);
        expect(issues.map((p) => commentsOn(fake, p.issue.number).length)).toEqual([1, 1, 1, 1, 1, 1]);
      },
      budget(14_200),
    );

    it(
      "different deliveries for one new issue (opened and edited) racing on both replicas: one comment each time",
      async () => {
        const issues = Array.from({ length: 6 }, issue);
        for (const p of issues) {
          const edited = { ...p, action: "edited", changes: { body: { from: "x" } } };
          await Promise.all([
            deliver(servers[0]!, "issues", p, { id: `opened-${p.issue.number}` }),
            deliver(servers[1]!, "issues", edited, { id: `edited-${p.issue.number}` }),
          ]);
        }
        for (const p of issues) {
          await untilSettled(servers, `opened-${p.issue.number}`, 1);
          await untilSettled(servers, `edited-${p.issue.number}`, 1);
        }
        expect(issues.map((p) => commentsOn(fake, p.issue.number).length)).toEqual([1, 1, 1, 1, 1, 1]);
        expect(
          execFileSync("redis-cli", ["-p", String(port), "--scan", "--pattern", "burn-triage:delivery:*"], {
            encoding: "utf8",
          })
            .trim()
            .split("\n").length,
        ).toBeGreaterThanOrEqual(12);
      },
      budget(14_200),
    );

    it("a command's cooldown is shared: the other replica does not answer a second command", async () => {
      const first = webhook("issue_comment.created");
      first.issue.number = n++;
      first.comment.body = "/explain-panic help";
      const second = { ...first, comment: { ...first.comment, id: first.comment.id + 1, body: "/explain-panic help" } };
      await deliver(servers[0]!, "issue_comment", first);
      await until(() => commentsOn(fake, first.issue.number).length === 1);
      await deliver(servers[1]!, "issue_comment", second);
      await until(() => servers[1]!.output().includes("command ignored: cooldown"));
      expect(commentsOn(fake, first.issue.number)).toHaveLength(1);
    });
  },
);

it("an unreachable REDIS_URL: the server still comments, with one warning and no flood of connection errors", async () => {
  const fake = await startFakeGitHub(scenarioRepo());
  const server = await startServer(fake, { REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
  try {
    const p = issue();
    await deliver(server, "issues", p);
    await until(() => commentsOn(fake, p.issue.number).length === 1, 15000);
    const out = server.output();
    expect(out.match(/REDIS_URL does not answer/g)).toHaveLength(1);
    expect((out.match(/ECONNREFUSED/g) ?? []).length).toBeLessThan(3);
  } finally {
    await server.stop();
    await fake.close();
  }
});
