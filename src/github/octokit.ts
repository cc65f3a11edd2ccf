// The Octokit every entry point uses: Probot's, with one retry layer and a deadline per request.
// Probot's throttling only logs secondary rate limits; here they are retried, a bounded number
// of times, inside the throttling plugin itself (not a second hook stacked on the retry plugin).
// The function form of `defaults` receives Probot's own options, so these override them.
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

export function productionOctokit(
  opts: { timeoutMs?: number; base?: typeof ProbotOctokit } = {},
): typeof ProbotOctokit {
  const timeoutMs = opts.timeoutMs ?? requestTimeoutMs();
  // biome-ignore lint/suspicious/noExplicitAny: Probot's merged options are untyped at this point
  return (opts.base ?? ProbotOctokit).defaults((o: any) => ({
    ...o,
    throttle: { ...o.throttle, onSecondaryRateLimit: secondaryRateLimitPolicy(o.log) },
    request: { ...o.request, fetch: fetchWithTimeout(timeoutMs, o.request?.fetch) },
  }));
}
