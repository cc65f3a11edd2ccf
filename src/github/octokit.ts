// The Octokit every entry point uses: Probot's, with one retry layer and a deadline per request.
// Probot's throttling only logs secondary rate limits; here they are retried, a bounded number
// of times, inside the throttling plugin itself (not a second hook stacked on the retry plugin).
// The function form of `defaults` receives Probot's own options, so these override them.
import { AsyncLocalStorage } from "node:async_hooks";
import Bottleneck from "bottleneck";
import { ProbotOctokit } from "probot";

export const MAX_RATE_LIMIT_RETRIES = 3;
/** Longer waits than this are not worth holding a delivery for; the delivery retry takes over. */
export const MAX_RATE_LIMIT_WAIT_S = 60;
/** GitHub answers in well under a second; a request past this is hung, and holds a lock. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 12_000;

interface LogLike {
  warn(obj: object, msg?: string): void;
}

type Fetch = typeof fetch;

/**
 * A fetch that gives up after `ms`. The timeout is reported as an AbortError, which Octokit
 * passes through without its own retries: the delivery is retried later instead, outside any lock.
 */
export function fetchWithTimeout(ms: number, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await base(input, { ...init, signal });
    } catch (e) {
      if (deadline.aborted) {
        const err = new Error(`GitHub did not answer within ${ms} ms`);
        err.name = "AbortError";
        throw err;
      }
      throw e;
    }
  };
}

export function secondaryRateLimitPolicy(log?: LogLike) {
  return (
    retryAfter: number,
    options: { method?: string; url?: string },
    _octokit: unknown,
    retryCount: number,
  ): boolean => {
    const retry = retryCount < MAX_RATE_LIMIT_RETRIES && retryAfter <= MAX_RATE_LIMIT_WAIT_S;
    log?.warn(
      { method: options.method, url: options.url, retry_in_s: retryAfter, attempt: retryCount + 1, retry },
      retry ? "secondary rate limit; retrying" : "secondary rate limit; giving up",
    );
    return retry;
  };
}

export function requestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.GITHUB_REQUEST_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_REQUEST_TIMEOUT_MS;
}

/**
 * The base of Octokit's retry backoff for 5xx answers, in ms (GITHUB_RETRY_BASE_MS; Octokit's
 * own 1000 by default): the n-th retry waits n² times it.
 */
export function retryBaseMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.GITHUB_RETRY_BASE_MS);
  return Number.isFinite(n) && n > 0 ? n : 1000;
}

/** GitHub's API root from the environment (GITHUB_API_URL, as Actions sets it), without a trailing slash. */
export function apiBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
}

/**
 * `url` is the API root or below it: same origin, and under its path (`/api/v3` on GHES), or
 * GitHub Enterprise Server's GraphQL endpoint beside it (`/api/graphql`, where Octokit sends it).
 */
export function withinApi(url: string, base: string): boolean {
  try {
    const u = new URL(url);
    const b = new URL(base);
    const prefix = b.pathname.replace(/\/+$/, "");
    if (u.origin === b.origin && /\/api\/v3$/.test(prefix) && u.pathname === prefix.replace(/v3$/, "graphql"))
      return true;
    return u.origin === b.origin && (u.pathname === prefix || u.pathname.startsWith(`${prefix}/`));
  } catch {
    return false;
  }
}

/**
 * No request leaves the API root with the token: the paginator follows whatever `Link:
 * rel="next"` GitHub (or something answering as GitHub) sends, and Octokit sends the
 * Authorization header to that URL as it is.
 */
export function sameApiOnly(octokit: {
  hook: { before(name: "request", hook: (o: { url?: string; baseUrl?: string }) => void): void };
}): void {
  octokit.hook.before("request", (o) => {
    const url = String(o.url ?? "");
    if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return; // a path: joined to the base URL
    if (withinApi(url, o.baseUrl ?? "https://api.github.com")) return;
    let where = "an unparseable URL";
    try {
      where = new URL(url).origin;
    } catch {}
    throw new Error(`refused a request outside GitHub's API root (${where}): a Link header pointed there`);
  });
}

/** Marks the GraphQL queries sent inside it as reads (the bot sends no GraphQL mutation). */
const reading = new AsyncLocalStorage<true>();

/** Runs `f` with its GraphQL queries exempt from the pacing of writes. */
export function asRead<T>(f: () => Promise<T>): Promise<T> {
  return reading.run(true, f);
}

interface Limiter {
  schedule<R>(options: object, fn: (...args: unknown[]) => R | Promise<R>, ...args: unknown[]): Promise<R>;
}
interface LimiterGroup {
  key(id: string): Limiter;
}

/**
 * Octokit's throttling paces every POST one second apart, GraphQL queries included: three reads
 * before a review would put it at four seconds. Its `write` group is replaced by this one, which
 * lets a query marked by `asRead` through and paces everything else as before (one second apart,
 * one at a time, shared through Redis when Probot clusters).
 */
export function writesExceptReads(group: LimiterGroup): LimiterGroup {
  return {
    key: (id) => {
      const limiter = group.key(id);
      return {
        schedule: (options, fn, ...args) =>
          reading.getStore() ? Promise.resolve(fn(...args)) : limiter.schedule(options, fn, ...args),
      };
    },
  };
}

let writeGroup: LimiterGroup | undefined;
/**
 * The caller's own write group (`scan` spaces writes itself), or one per process as Octokit's own
 * (its id and limits, on Probot's Redis connection if any), with reads let through either way.
 */
function writes(throttle: { connection?: unknown; timeout?: number; write?: LimiterGroup } | undefined): LimiterGroup {
  if (throttle?.write) return writesExceptReads(throttle.write);
  writeGroup ??= new Bottleneck.Group({
    id: "octokit-write",
    maxConcurrent: 1,
    minTime: 1000,
    timeout: throttle?.timeout ?? 120_000,
    ...(throttle?.connection ? { connection: throttle.connection as Bottleneck.IORedisConnection } : {}),
  }) as unknown as LimiterGroup;
  return writesExceptReads(writeGroup);
}

export function productionOctokit(
  opts: { timeoutMs?: number; base?: typeof ProbotOctokit } = {},
): typeof ProbotOctokit {
  const timeoutMs = opts.timeoutMs ?? requestTimeoutMs();
  // Read once: Probot builds an Octokit for every delivery, and each process.env read is a getenv.
  const retryAfterBaseValue = retryBaseMs();
  // biome-ignore lint/suspicious/noExplicitAny: Probot's merged options are untyped at this point
  return (opts.base ?? ProbotOctokit).plugin(sameApiOnly).defaults((o: any) => ({
    ...o,
    throttle: { ...o.throttle, onSecondaryRateLimit: secondaryRateLimitPolicy(o.log), write: writes(o.throttle) },
    retry: { ...o.retry, retryAfterBaseValue },
    request: { ...o.request, fetch: fetchWithTimeout(timeoutMs, o.request?.fetch) },
  }));
}
