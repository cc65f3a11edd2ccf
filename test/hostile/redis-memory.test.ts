// The Redis coordination's rules, over ioredis-mock (an in-memory Redis of ioredis's interface,
// Lua included): they run on every machine, in a second, where the suite against redis-server
// needs the Debian package. Two coordinations on one store stand for two replicas.
import { describe, expect, it } from "@jest/globals";
import type { Redis } from "ioredis";
import RedisMock from "ioredis-mock";
import { redisCoordination, sealPending } from "../../src/github/coordination.js";

const log = { warn: () => undefined, info: () => undefined, debug: () => undefined, error: () => undefined };
const SECRET = "s3cret";
let n = 0;
/** Two replicas sharing one store (a fresh one per test: its own port number). */
function replicas() {
  const opts = { port: 7000 + n++ };
  const a = new RedisMock(opts) as unknown as Redis;
  const b = new RedisMock(opts) as unknown as Redis;
  return { a: redisCoordination(a, log, SECRET), b: redisCoordination(b, log, SECRET), redis: a };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Redis coordination over an in-memory store", () => {
  it("the lock lets one replica at a time work on a conversation, and others after it", async () => {
    const { a, b } = replicas();
    const trace: string[] = [];
    const work = (who: string) => async () => {
      trace.push(`${who} in`);
      await sleep(30);
      trace.push(`${who} out`);
      return who;
    };
    const results = await Promise.all([a.lock("o/r#7", work("a")), b.lock("o/r#7", work("b"))]);
    expect(results.sort()).toEqual(["a", "b"]);
    // Never two inside at once.
    for (let i = 0; i < trace.length; i += 2) expect(trace[i]!.split(" ")[0]).toBe(trace[i + 1]!.split(" ")[0]);
    // Other conversations are not held up.
    const other: string[] = [];
    await Promise.all([
      a.lock("o/r#7", async () => {
        await sleep(50);
        other.push("7");
      }),
      b.lock("o/r#8", async () => void other.push("8")),
    ]);
    expect(other).toEqual(["8", "7"]);
  });

  it("a lock is released only by its holder's token, so an expired holder cannot free another's", async () => {
    const { a, redis } = replicas();
    await a.lock("o/r#9", async () => {
      // The lock expired and another replica took it: its token replaces ours.
      await redis.set("burn-triage:lock:o/r#9", "someone-else");
    });
    expect(await redis.get("burn-triage:lock:o/r#9")).toBe("someone-else");
  });

  it("a delivery is claimed once across replicas, and claimable again once released", async () => {
    const { a, b } = replicas();
    expect(await a.claimDelivery("d1")).toBe(true);
    expect(await b.claimDelivery("d1")).toBe(false);
    await a.releaseDelivery("d1");
    expect(await b.claimDelivery("d1")).toBe(true);
  });

  it("a due retry is taken by one replica only; one this app did not sign is dropped", async () => {
    const { a, b, redis } = replicas();
    await a.defer({ id: "d2:retry1", name: "issues", payload: { x: 1 } }, 1000);
    await redis.zadd("burn-triage:retry", 1000, JSON.stringify({ body: '{"id":"evil","name":"issues"}', mac: "00" }));
    await redis.zadd(
      "burn-triage:retry",
      1000,
      sealPending({ id: "forged", name: "issues", payload: {} }, "another secret"),
    );
    const [ta, tb] = await Promise.all([a.takeDue(2000), b.takeDue(2000)]);
    expect([...ta, ...tb].map((p) => p.id)).toEqual(["d2:retry1"]);
    expect(await a.takeDue(2000)).toEqual([]);
    // Not due yet: stays.
    await b.defer({ id: "d3:retry1", name: "issues", payload: {} }, 5000);
    expect(await a.takeDue(2000)).toEqual([]);
    expect((await a.takeDue(6000)).map((p) => p.id)).toEqual(["d3:retry1"]);
  });
});
