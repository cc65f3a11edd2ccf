// Redis fails in more ways than "down": killed mid-delivery, frozen, read-only after a failover,
// answering with the wrong types, or holding retry entries someone else wrote. Every one falls
// back to in-process state within a command deadline, and Redis is used again once it answers.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { afterAll, afterEach, beforeAll, expect, it } from "@jest/globals";
import { openPending, REDIS_PAUSE_MS, redisCoordination, sealPending } from "../../src/github/coordination.js";
import { connect } from "../../src/github/redis.js";
import { budget, freePort } from "../helpers/server.js";
import { requireOrSkip, which } from "../helpers/services.js";

const redisBin = which("redis-server");
const warnings: string[] = [];
const log = {
  warn: (_o: object, m?: string) => void warnings.push(m ?? ""),
  info: () => undefined,
  debug: () => undefined,
  error: () => undefined,
} as never;
const SECRET = "s3cret";

async function startRedis(port: number): Promise<ChildProcess> {
  const p = spawn(redisBin!, ["--port", String(port), "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  for (let i = 0; i < 50; i++) {
    try {
      execFileSync("redis-cli", ["-p", String(port), "ping"], { stdio: "ignore" });
      return p;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error("redis-server did not start");
}

const cli = (port: number, ...args: string[]) =>
  execFileSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8" }).trim();
/** A coordination over a fresh connection to `port`; `close()` disconnects it. */
async function coordinationAt(port: number) {
  const redis = connect(`redis://127.0.0.1:${port}`);
  redis.on("error", () => undefined);
  await redis.connect().catch(() => undefined);
  return { c: redisCoordination(redis, log, SECRET), close: () => redis.disconnect() };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Redis answers again and the pause after a failure is over. */
const recover = () => sleep(REDIS_PAUSE_MS + 300);

requireOrSkip(redisBin, "redis-server (Debian package redis-server; .ci/run installs it)")(
  "Redis failure modes",
  () => {
    let port = 0;
    let server: ChildProcess;
    beforeAll(async () => {
      port = await freePort();
      server = await startRedis(port);
    });
    afterAll(() => {
      server.kill("SIGCONT");
      server.kill();
    });
    afterEach(() => {
      warnings.length = 0;
    });

    it(
      "frozen (SIGSTOP): a claim answers within the command deadline, in process, and Redis is used again after SIGCONT",
      async () => {
        const { c, close } = await coordinationAt(port);
        server.kill("SIGSTOP");
        try {
          const t0 = Date.now();
          expect(await c.claimDelivery("frozen-1")).toBe(true);
          expect(Date.now() - t0).toBeLessThan(3000);
          // Paused: the next call does not wait for the deadline again.
          const t1 = Date.now();
          expect(await c.cooldown("k", 1000, 1)).toBe(true);
          expect(Date.now() - t1).toBeLessThan(100);
          expect(warnings).toContain("Redis unavailable; using in-process state");
        } finally {
          server.kill("SIGCONT");
        }
        await recover();
        expect(await c.claimDelivery("after-freeze")).toBe(true);
        expect(cli(port, "exists", "burn-triage:delivery:after-freeze")).toBe("1");
        close();
      },
      budget(6_000),
    );

    it(
      "read-only after a failover (READONLY): writes fall back; back to Redis once it is a primary again",
      async () => {
        const { c, close } = await coordinationAt(port);
        cli(port, "replicaof", "127.0.0.1", String(await freePort()));
        try {
          expect(await c.claimDelivery("ro-1")).toBe(true);
          const ran: string[] = [];
          await c.lock("issue#1", async () => void ran.push("locked"));
          expect(ran).toEqual(["locked"]);
          expect(warnings.length).toBeGreaterThan(0);
        } finally {
          cli(port, "replicaof", "no", "one");
        }
        await recover();
        expect(await c.claimDelivery("ro-2")).toBe(true);
        expect(await c.claimDelivery("ro-2")).toBe(false);
        close();
      },
      budget(5_400),
    );

    it(
      "killed mid-delivery and restarted: in process meanwhile, Redis again by itself",
      async () => {
        const { c, close } = await coordinationAt(port);
        let inside = false;
        await c.lock("issue#2", async () => {
          inside = true;
          server.kill("SIGKILL");
          await sleep(200);
          // Later work of the same delivery goes on in process.
          expect(await c.claimDelivery("killed-1")).toBe(true);
          await c.cacheSet("x", "y", 60);
          expect(await c.cacheGet("x")).toBe("y");
        });
        expect(inside).toBe(true);
        server = await startRedis(port);
        await recover();
        await sleep(2500); // ioredis reconnects on its own schedule (at most 2 s apart)
        expect(await c.claimDelivery("killed-2")).toBe(true);
        expect(cli(port, "exists", "burn-triage:delivery:killed-2")).toBe("1");
        close();
      },
      budget(8_200),
    );

    it("retry entries not signed by this app are dropped, never run", async () => {
      const { c, close } = await coordinationAt(port);
      const mine = { id: "d1:retry1", name: "issues", payload: { action: "opened" } };
      await c.defer(mine, 1);
      cli(port, "zadd", "burn-triage:retry", "1", JSON.stringify({ id: "evil", name: "issues", payload: {} }));
      cli(
        port,
        "zadd",
        "burn-triage:retry",
        "1",
        sealPending({ id: "forged", name: "issues", payload: {} }, "another-secret"),
      );
      const due = await c.takeDue(Date.now());
      expect(due).toEqual([mine]);
      expect(warnings.filter((w) => /not written by this app/.test(w))).toHaveLength(2);
      expect(openPending(sealPending(mine, SECRET), SECRET)).toEqual(mine);
      close();
    });
  },
);

/** A server that speaks RESP but answers every command with `:1` (an integer): the wrong type for SET and GET. */
async function wrongTypes(): Promise<{ port: number; server: Server }> {
  const server = createServer((sock) => {
    sock.on("data", (d) => {
      const commands = (d.toString().match(/\*\d+\r\n/g) ?? []).length;
      for (let i = 0; i < commands; i++) sock.write(":1\r\n");
    });
    sock.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as { port: number }).port, server };
}

it("a Redis answering with the wrong types does not drop deliveries", async () => {
  const { port, server } = await wrongTypes();
  const { c, close } = await coordinationAt(port);
  try {
    // `:1` is not "OK": before, the claim read as "already taken" and the delivery was dropped.
    expect(await c.claimDelivery("typed-1")).toBe(true);
    expect(await c.cacheGet("k")).toBeNull();
  } finally {
    close();
    server.close();
  }
});
