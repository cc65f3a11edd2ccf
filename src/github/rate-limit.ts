// Probot's throttling retries primary rate limits but only logs secondary ones (403/429 with
// retry-after or a "secondary rate limit" message). Those are retried here, a bounded number
// of times, waiting what GitHub asks.
import type { Log, Octokit } from "./types.js";

export const MAX_RETRIES = 3;
export const MAX_WAIT_S = 60;

interface HttpError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined> };
}

/** Seconds to wait before retrying, or null when the error is not a rate limit. */
export function retryAfter(e: unknown): number | null {
  const err = e as HttpError;
  if (err.status !== 403 && err.status !== 429) return null;
  const headers = err.response?.headers ?? {};
  const after = Number(headers["retry-after"]);
  if (Number.isFinite(after) && after >= 0) return Math.min(after, MAX_WAIT_S);
  if (headers["x-ratelimit-remaining"] === "0") {
    const reset = Number(headers["x-ratelimit-reset"]);
    if (Number.isFinite(reset)) return Math.min(Math.max(0, reset - Date.now() / 1000), MAX_WAIT_S);
  }
  if (/secondary rate limit/i.test(err.message ?? "")) return MAX_WAIT_S;
  return null;
}

const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

export function retryRateLimits(octokit: Octokit, log: Log): void {
  octokit.hook.wrap("request", async (request, options) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(options);
      } catch (e) {
        const wait = retryAfter(e);
        if (wait === null || attempt >= MAX_RETRIES) throw e;
        log.warn({ method: options.method, url: options.url, status: (e as HttpError).status, retry_in_s: wait, attempt: attempt + 1 }, "rate limited; retrying");
        await sleep(wait);
      }
    }
  });
}
