import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER } from "../../src/render/issue.js";
import {
  budget,
  deliver,
  freePort,
  type RunningServer,
  startServer,
  until,
  untilDone,
  untilSettled,
  withServers,
} from "../helpers/server.js";
import { requireOrSkip, which } from "../helpers/services.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { editedToPre1, scenarioRepo, webhook } from "../support/scenario.js";

// The fault suite runs the production configuration: Probot's retry and throttling plugins on.
let n = 500;
function issue(body?: string) {
  const p = webhook("issues.opened");
  p.issue.number = n++;
  if (body !== undefined) p.issue.body = body;
  return p;
}
const commentsOn = (fake: FakeGitHub, issueNumber: number) => fake.comments.filter((c) => c.issue === issueNumber);
const postsTo = (fake: FakeGitHub, path: string) =>
  fake.calls.filter((c) => c.method === "POST" && c.path === path).length;

describe("fault suite: the real server against a misbehaving GitHub", () => {
  const stack = withServers(1);

  it("a 5xx is retried and the comment still lands once", async () => {
    const p = issue();
    stack.fake.faults.push({ method: "GET", path: `/issues/${p.issue.number}/comments`, status: 502, times: 1 });
    expect((await deliver(stack.servers[0]!, "issues", p)).status).toBe(200);
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1, 15000);
    expect(stack.fake.faults.every((f) => f.times === 0)).toBe(true);
  });

  it("a secondary rate limit (403 + retry-after) is retried, not dropped", async () => {
    const p = issue();
    const path = `/repos/alice/mnist-demo/issues/${p.issue.number}/comments`;
    stack.fake.faults.push({
      method: "POST",
      path,
      status: 403,
      headers: { "retry-after": "1" },
      body: { message: "You have exceeded a secondary rate limit." },
      times: 1,
    });
    await deliver(stack.servers[0]!, "issues", p);
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1, 15000);
    expect(postsTo(stack.fake, path)).toBe(2);
    expect(stack.servers[0]!.output()).toContain("secondary rate limit; retrying");
  });

  it("a 429 with retry-after is retried", async () => {
    const p = issue();
    const path = `/repos/alice/mnist-demo/issues/${p.issue.number}/labels`;
    stack.fake.faults.push({ method: "POST", path, status: 429, headers: { "retry-after": "1" }, times: 1 });
    await deliver(stack.servers[0]!, "issues", p);
    await until(() => stack.fake.labels.some((l) => l.issue === p.issue.number), 15000);
    expect(postsTo(stack.fake, path)).toBe(2);
  });

  it("404s for the repository's manifests fall back to a stated assumption", async () => {
    const p = issue(
      "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n",
    );
    await deliver(stack.servers[0]!, "issues", p);
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1);
    expect(stack.fake.calls.some((c) => c.path.startsWith("/repos/alice/mnist-demo/contents/Cargo.toml"))).toBe(true);
    expect(commentsOn(stack.fake, p.issue.number)[0]!.body).toContain("If your `burn` dependency looks like this");
  });

  it("a huge body with malformed TOML and binary noise gets a clear comment, not a crash", async () => {
    const noise = "\u0000\u0001\uFFFD".repeat(2000);
    const log = "INFO step\n".repeat(5000);
    const body = `${log}${noise}\nthread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires \`autodiff\` feature\n\`\`\`toml\n[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["wgpu" }\n\`\`\`\n`;
    const p = issue(body);
    expect((await deliver(stack.servers[0]!, "issues", p)).status).toBe(200);
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1);
    const c = commentsOn(stack.fake, p.issue.number)[0]!.body;
    expect(c).toMatch(/I could not read your Cargo.toml:\*\* line 2, column \d+/);
    expect(c).not.toContain("```diff");
  });

  it(
    "100 redeliveries of one delivery leave exactly one comment",
    async () => {
      const p = issue();
      for (let batch = 0; batch < 10; batch++) {
        const res = await Promise.all(
          Array.from({ length: 10 }, () => deliver(stack.servers[0]!, "issues", p, { id: "same-delivery" })),
        );
        expect(res.map((r) => r.status)).toEqual(res.map(() => 200));
      }
      await untilSettled(stack.servers, "same-delivery", 100);
      expect(commentsOn(stack.fake, p.issue.number)).toHaveLength(1);
      // The label went on once: every later delivery read the issue's events and found it added.
      expect(postsTo(stack.fake, `/repos/alice/mnist-demo/issues/${p.issue.number}/labels`)).toBe(1);
    },
    budget(7_000),
  );

  it("concurrent opened/edited deliveries for one issue leave exactly one comment", async () => {
    const opened = issue();
    const edited = { ...opened, action: "edited", changes: { body: { from: "x" } } };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        deliver(stack.servers[0]!, "issues", i % 2 ? edited : opened, { id: `race-${i}` }),
      ),
    );
    for (let i = 0; i < 20; i++) await untilSettled(stack.servers, `race-${i}`, 1);
    expect(commentsOn(stack.fake, opened.issue.number)).toHaveLength(1);
  });

  it("injection: mentions, HTML and fences from the issue never escape into the comment", async () => {
    const p = issue(
      [
        "@maintainers please look <img src=x onerror=alert(1)> ````",
        "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:",
        "not implemented: Requires `autodiff` feature",
        "```toml",
        '[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false } # @octocat </details><script>x</script>',
        "```",
      ].join("\n"),
    );
    await deliver(stack.servers[0]!, "issues", p);
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1);
    const body = commentsOn(stack.fake, p.issue.number)[0]!.body;
    const fence = /^(`{3,})diff$/m.exec(body)![1]!;
    const inside = body.slice(body.indexOf(`${fence}diff`), body.lastIndexOf(fence) + fence.length);
    const outside = body.replace(inside, "");
    expect(outside).not.toMatch(/@(maintainers|octocat)/);
    expect(outside).not.toMatch(/<img|<script|<\/details><script/);
    expect(body.split(ISSUE_MARKER)).toHaveLength(2);
  });
});

describe("slow GitHub: past the 10 s webhook budget", () => {
  const stack = withServers(1);

  it(
    "the delivery is acknowledged in time and the work still finishes",
    async () => {
      stack.fake.latencyMs = 2500;
      const p = issue();
      const t = Date.now();
      const res = await deliver(stack.servers[0]!, "issues", p);
      const answered = Date.now() - t;
      expect([200, 202]).toContain(res.status);
      expect(answered).toBeLessThan(10000);
      await until(() => commentsOn(stack.fake, p.issue.number).length === 1, budget(13_000));
      expect(Date.now() - t).toBeGreaterThan(10000);
    },
    budget(15_500),
  );
});

describe("horizontal scale: two replicas share nothing but GitHub", () => {
  const stack = withServers(2);

  it("a delivery handled by one replica and redelivered to the other leaves one comment, edited in place", async () => {
    const [a, b] = stack.servers as [RunningServer, RunningServer];
    const p = issue();
    await deliver(a, "issues", p);
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1);
    const edited = editedToPre1(p);
    await deliver(b, "issues", edited);
    await until(() => commentsOn(stack.fake, p.issue.number)[0]!.body.includes("0.22.0-pre.1"));
    expect(commentsOn(stack.fake, p.issue.number)).toHaveLength(1);
    await deliver(b, "issues", p);
    await until(() => commentsOn(stack.fake, p.issue.number)[0]!.body.includes("v0.22.0-pre.2/"));
    expect(commentsOn(stack.fake, p.issue.number)).toHaveLength(1);
  });

  it("two replicas answering at once may both comment; the next delivery leaves one", async () => {
    const [a, b] = stack.servers as [RunningServer, RunningServer];
    const p = issue();
    await Promise.all([deliver(a, "issues", p, { id: "two-a" }), deliver(b, "issues", p, { id: "two-b" })]);
    await untilDone(a, "two-a");
    await untilDone(b, "two-b");
    expect(commentsOn(stack.fake, p.issue.number).length).toBeLessThanOrEqual(2);
    await deliver(a, "issues", { ...p, action: "edited", changes: { body: { from: "x" } } });
    await until(() => commentsOn(stack.fake, p.issue.number).length === 1);
  });
});

const redisBin = which("redis-server");

requireOrSkip(redisBin, "redis-server (Debian package redis-server; .ci/run installs it)")(
  "REDIS_URL is burn-triage's, not Probot's throttling",
  () => {
    let redis: ChildProcess;
    let fake: FakeGitHub;
    let server: RunningServer;
    let port = 0;
    beforeAll(async () => {
      port = await freePort();
      redis = spawn(redisBin!, ["--port", String(port), "--save", "", "--appendonly", "no"], { stdio: "ignore" });
      await new Promise((r) => setTimeout(r, 500));
      fake = await startFakeGitHub(scenarioRepo());
      server = await startServer(fake, { REDIS_URL: `redis://127.0.0.1:${port}` });
    });
    afterAll(async () => {
      await server?.stop();
      await fake?.close();
      redis?.kill();
    });
    it("comments with coordination in Redis and rate-limit throttling in process", async () => {
      const p = issue();
      await deliver(server, "issues", p);
      await until(() => commentsOn(fake, p.issue.number).length === 1, 15000);
      expect(server.output()).not.toMatch(/bottleneck|ECONNREFUSED/i);
      // Bottleneck (Probot's throttling) has no fallback and no deadline: its state must not be in
      // Redis, or every GitHub call stops when Redis does.
      const keys = execFileSync("redis-cli", ["-p", String(port), "--scan"], { encoding: "utf8" });
      expect(keys).toMatch(/^burn-triage:delivery:/m);
      expect(keys).not.toMatch(/^b_/m);
    });
  },
);
