// Redis, when REDIS_URL names one that answers. Every operation has a short deadline and never
// queues while disconnected, so an outage fails fast and the caller falls back to in-process state.
import { Redis } from "ioredis";

/** A command Redis has not answered in this time is failed: a frozen Redis must not hold a delivery. */
export const COMMAND_TIMEOUT_MS = 500;

export function connect(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1500,
    commandTimeout: COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (n) => Math.min(n * 200, 2000),
  });
}

export { redisUrlOf, reserveRedisUrl } from "./redis-url.js";

const reachable = new Map<string, Promise<boolean>>();

/** Asked once per URL and process: `npm start` and the app's coordination share the answer. */
export function redisReachable(url: string): Promise<boolean> {
  if (!reachable.has(url)) reachable.set(url, ping(url, 1500));
  return reachable.get(url)!;
}

async function ping(url: string, timeoutMs: number): Promise<boolean> {
  const r = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  r.on("error", () => {});
  try {
    await r.connect();
    return (await r.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
