// State that replicas must share: the lock around find-or-create of a conversation's comment,
// which deliveries were already taken, command cooldowns, and deliveries waiting to be retried.
// In Redis when REDIS_URL is set and answers; in process otherwise (one replica is then exact,
// several converge on the next delivery). A Redis error mid-flight falls back to in-process
// state for that call, with a warning at most once a minute.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { withLock } from "./lock.js";
import { redisUrlOf } from "./redis-url.js";
import type { Log } from "./types.js";

export interface Pending {
  id: string;
  name: string;
  payload: unknown;
}

export interface Coordination {
  kind: "memory" | "redis";
  lock<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** False when another process (or this one) already took this delivery id. */
  claimDelivery(id: string): Promise<boolean>;
  /** A delivery that failed is no longer taken: GitHub's or the retry's redelivery may run. */
  releaseDelivery(id: string): Promise<void>;
  /** True (and the cooldown starts) unless another command in `key` was answered in the last `ms`. */
  cooldown(key: string, ms: number, commentId: number): Promise<boolean>;
  /** Keeps a delivery to run again at `due` (ms since epoch). */
  defer(p: Pending, due: number): Promise<void>;
  /** Deliveries whose time has come, each handed to exactly one caller. */
  takeDue(now: number): Promise<Pending[]>;
  /** A shared cache for immutable reads (burn's source at a tag); null when absent. */
  cacheGet(key: string): Promise<string | null>;
  cacheSet(key: string, value: string, ttlSeconds: number): Promise<void>;
}

/** In process, the cache keeps this many entries (a burn source file is tens of KiB). */
const MEMORY_CACHE_ENTRIES = 64;
/** Conversations whose last command is remembered for its cooldown (the oldest forgotten first). */
const COOLDOWN_ENTRIES = 10_000;

const PREFIX = "burn-triage:";
const DELIVERY_TTL_S = 3600;
const LOCK_TTL_MS = 60_000;
const LOCK_WAIT_MS = 70_000;

export function memoryCoordination(): Coordination {
  // Bounded like every process-long store: one entry per conversation that saw a command.
  const last = new LRUCache<string, { at: number; commentId: number }>({ max: COOLDOWN_ENTRIES });
  const cache = new LRUCache<string, string>({ max: MEMORY_CACHE_ENTRIES });
  const pending: Array<{ p: Pending; due: number }> = [];
  return {
    kind: "memory",
    lock: withLock,
    claimDelivery: async () => true,
    releaseDelivery: async () => {},
    cooldown: async (key, ms, commentId) => {
      const now = Date.now();
      const prev = last.get(key);
      // A redelivery of the same comment is not spam: it must be able to finish an interrupted reply.
      if (prev && prev.commentId !== commentId && now - prev.at < ms) return false;
      last.set(key, { at: now, commentId });
      return true;
    },
    defer: async (p, due) => {
      pending.push({ p, due });
    },
    takeDue: async (now) => {
      const due = pending.filter((x) => x.due <= now);
      for (const x of due) pending.splice(pending.indexOf(x), 1);
      return due.map((x) => x.p);
    },
    cacheGet: async (key) => cache.get(key) ?? null,
    cacheSet: async (key, value, ttlSeconds) => {
      cache.set(key, value, { ttl: ttlSeconds * 1000 });
    },
  };
}

const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/** After a Redis failure, this long in process before Redis is asked again (it comes back by itself). */
export const REDIS_PAUSE_MS = 5_000;

/** A reply of the wrong type (a proxy, a misconfigured or hostile server) is a failure, not an answer. */
class RedisReplyError extends Error {
  override name = "RedisReplyError";
}

function expectReply<T>(value: unknown, ok: (v: unknown) => v is T, what: string): T {
  if (!ok(value)) throw new RedisReplyError(`unexpected ${what} reply: ${typeof value}`);
  return value;
}

const okOrNull = (v: unknown): v is "OK" | null => v === "OK" || v === null;
const stringOrNull = (v: unknown): v is string | null => typeof v === "string" || v === null;
const integer = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/**
 * Retry-queue entries are signed with the webhook secret: an entry this app did not write (put
 * there by anyone who can reach Redis) is dropped, never run as a delivery.
 */
export function sealPending(p: Pending, secret: string): string {
  const body = JSON.stringify(p);
  return JSON.stringify({ body, mac: createHmac("sha256", secret).update(body).digest("hex") });
}

export function openPending(sealed: string, secret: string): Pending | null {
  try {
    const { body, mac } = JSON.parse(sealed) as { body?: unknown; mac?: unknown };
    if (typeof body !== "string" || typeof mac !== "string") return null;
    const want = createHmac("sha256", secret).update(body).digest();
    const got = Buffer.from(mac, "hex");
    if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
    const p = JSON.parse(body) as Pending;
    return typeof p.id === "string" && typeof p.name === "string" ? p : null;
  } catch {
    return null;
  }
}

export function redisCoordination(redis: Redis, log: Log, secret = "development"): Coordination {
  return new RedisCoordination(redis, log, secret);
}

/** Every call asks Redis and, when Redis fails, answers from the in-process state instead. */
class RedisCoordination implements Coordination {
  readonly kind = "redis";
  private readonly memory = memoryCoordination();
  private warnedAt = 0;
  private pausedUntil = 0;

  constructor(
    private readonly redis: Redis,
    private readonly log: Log,
    private readonly secret: string,
  ) {}

  async lock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const token = await this.acquire(key);
    if (token === null) return this.memory.lock(key, work);
    try {
      return await work();
    } finally {
      await this.redis.eval(RELEASE, 1, `${PREFIX}lock:${key}`, token).catch(() => undefined);
    }
  }

  claimDelivery(id: string): Promise<boolean> {
    return this.fallback(
      "claim",
      async () =>
        expectReply(
          await this.redis.set(`${PREFIX}delivery:${id}`, "1", "EX", DELIVERY_TTL_S, "NX"),
          okOrNull,
          "SET",
        ) === "OK",
      () => this.memory.claimDelivery(id),
    );
  }

  releaseDelivery(id: string): Promise<void> {
    return this.fallback(
      "release",
      async () => void (await this.redis.del(`${PREFIX}delivery:${id}`)),
      () => this.memory.releaseDelivery(id),
    );
  }

  cooldown(key: string, ms: number, commentId: number): Promise<boolean> {
    return this.fallback(
      "cooldown",
      async () => {
        const k = `${PREFIX}cooldown:${key}`;
        const set = await this.redis.set(k, String(commentId), "PX", Math.max(1, ms), "NX");
        if (expectReply(set, okOrNull, "SET") === "OK") return true;
        return expectReply(await this.redis.get(k), stringOrNull, "GET") === String(commentId);
      },
      () => this.memory.cooldown(key, ms, commentId),
    );
  }

  defer(p: Pending, due: number): Promise<void> {
    return this.fallback(
      "defer",
      async () =>
        void expectReply(await this.redis.zadd(`${PREFIX}retry`, due, sealPending(p, this.secret)), integer, "ZADD"),
      () => this.memory.defer(p, due),
    );
  }

  takeDue(now: number): Promise<Pending[]> {
    return this.fallback(
      "take",
      async () => [...(await this.takeDueFromRedis(now)), ...(await this.memory.takeDue(now))],
      () => this.memory.takeDue(now),
    );
  }

  cacheGet(key: string): Promise<string | null> {
    return this.fallback(
      "cache-get",
      async () => expectReply(await this.redis.get(`${PREFIX}cache:${key}`), stringOrNull, "GET"),
      () => this.memory.cacheGet(key),
    );
  }

  cacheSet(key: string, value: string, ttl: number): Promise<void> {
    return this.fallback(
      "cache-set",
      async () => void expectReply(await this.redis.set(`${PREFIX}cache:${key}`, value, "EX", ttl), okOrNull, "SET"),
      () => this.memory.cacheSet(key, value, ttl),
    );
  }

  private async takeDueFromRedis(now: number): Promise<Pending[]> {
    const members = expectReply(
      await this.redis.zrangebyscore(`${PREFIX}retry`, "-inf", now, "LIMIT", 0, 10),
      strings,
      "ZRANGEBYSCORE",
    );
    const mine: Pending[] = [];
    // ZREM succeeds for exactly one replica: that one runs the delivery.
    for (const m of members) {
      if (expectReply(await this.redis.zrem(`${PREFIX}retry`, m), integer, "ZREM") !== 1) continue;
      const p = openPending(m, this.secret);
      if (p) mine.push(p);
      else
        this.log.warn(
          { bytes: m.length },
          "retry entry in Redis not written by this app (signature does not verify); dropped",
        );
    }
    return mine;
  }

  /** The lock's token, or null when Redis failed (the caller then locks in process). */
  private async acquire(key: string): Promise<string | null> {
    if (Date.now() < this.pausedUntil) return null;
    const token = randomUUID();
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let wait = 25; ; wait = Math.min(wait * 2, 500)) {
      try {
        const set = await this.redis.set(`${PREFIX}lock:${key}`, token, "PX", LOCK_TTL_MS, "NX");
        if (expectReply(set, okOrNull, "SET") === "OK") return token;
      } catch (e) {
        this.failed("lock", e);
        return null;
      }
      // A deadline, like a network timeout: the retry may find the lock free.
      if (Date.now() > deadline)
        throw Object.assign(new Error(`lock ${key} not acquired in ${LOCK_WAIT_MS} ms`), { name: "TimeoutError" });
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  // Down, frozen, READONLY after a failover, LOADING, OOM, wrong types: every failure is the same
  // answer — in process for REDIS_PAUSE_MS, so a frozen Redis costs one command deadline, not one per call.
  private async fallback<T>(what: string, op: () => Promise<T>, instead: () => Promise<T>): Promise<T> {
    if (Date.now() < this.pausedUntil) return instead();
    try {
      return await op();
    } catch (e) {
      this.failed(what, e);
      return instead();
    }
  }

  private failed(what: string, e: unknown): void {
    this.pausedUntil = Date.now() + REDIS_PAUSE_MS;
    if (Date.now() - this.warnedAt < 60_000) return;
    this.warnedAt = Date.now();
    this.log.warn({ op: what, error: (e as Error).message }, "Redis unavailable; using in-process state");
  }
}

/** Redis when REDIS_URL is set and answers now; otherwise in process, said once. */
export async function coordinationFromEnv(env: NodeJS.ProcessEnv, log: Log): Promise<Coordination> {
  const url = redisUrlOf(env);
  if (!url) return memoryCoordination();
  // The Redis client loads only here: a server without REDIS_URL never pays for it.
  const { connect, redisReachable } = await import("./redis.js");
  if (!(await redisReachable(url))) {
    log.warn({}, "REDIS_URL does not answer; locks, cooldowns and retries stay in this process");
    return memoryCoordination();
  }
  const redis = connect(url);
  redis.on("error", () => {});
  await redis.connect().catch(() => undefined);
  return redisCoordination(redis, log, env.WEBHOOK_SECRET || "development");
}
