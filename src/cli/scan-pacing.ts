// How `scan --apply` spends GitHub's patience. Writes go one at a time, each a second (or
// --write-interval-ms) after the previous one was answered. Each write is its own job here, and
// the gap is kept after a write's answer, not between the starts of jobs: Octokit's throttling
// inside a job holds a comment for its notification slot (3 s) and then sends it, so spacing
// starts let the label that follows go out 40 ms after its comment. Over that, GitHub's
// content-creation limits (80 a minute, 500 an hour) are kept as reservoirs, so a large backlog
// is paced rather than refused, and the wait is said with its end.
import Bottleneck from "bottleneck";

export interface PaceLimits {
  perMinute: number;
  perHour: number;
  minuteMs: number;
  hourMs: number;
}

export const GITHUB_CONTENT_LIMITS: PaceLimits = { perMinute: 80, perHour: 500, minuteMs: 60_000, hourMs: 3_600_000 };
export const DEFAULT_WRITE_SPACING_MS = 1000;

/** How long `writes` take at these limits, from a fresh start (for the message and the docs). */
export function paceDurationMs(writes: number, spacingMs: number, l: PaceLimits = GITHUB_CONTENT_LIMITS): number {
  if (writes <= 0) return 0;
  const hours = Math.floor((writes - 1) / l.perHour);
  const inLastHour = writes - hours * l.perHour;
  const minutes = Math.floor((inLastHour - 1) / l.perMinute);
  return hours * l.hourMs + minutes * l.minuteMs + (inLastHour - 1 - minutes * l.perMinute) * spacingMs;
}

export function contentPacer(o: {
  spacingMs?: number;
  say: (s: string) => void;
  limits?: PaceLimits;
  now?: () => number;
}): <T>(job: () => Promise<T>) => Promise<T> {
  const l = o.limits ?? GITHUB_CONTENT_LIMITS;
  const now = o.now ?? Date.now;
  const started = now();
  const reservoir = (n: number, ms: number) =>
    new Bottleneck({ reservoir: n, reservoirRefreshAmount: n, reservoirRefreshInterval: ms });
  const hour = reservoir(l.perHour, l.hourMs);
  const minute = reservoir(l.perMinute, l.minuteMs);
  const spacing = o.spacingMs ?? DEFAULT_WRITE_SPACING_MS;
  const spaced = new Bottleneck({ maxConcurrent: 1 });
  spaced.chain(minute);
  minute.chain(hour);
  const until = (ms: number) => new Date(now() + ms - ((now() - started) % ms)).toISOString().slice(11, 19);
  hour.on("depleted", () =>
    o.say(
      `burn-triage: ${l.perHour} writes this hour, GitHub's content limit; the next waits until ${until(l.hourMs)} UTC\n`,
    ),
  );
  minute.on("depleted", () =>
    o.say(
      `burn-triage: ${l.perMinute} writes this minute, GitHub's content limit; the next waits until ${until(l.minuteMs)} UTC\n`,
    ),
  );
  // The caller has its answer at once; the slot stays taken for the spacing after it.
  return (job) =>
    new Promise((resolve, reject) => {
      const held = async () => {
        try {
          resolve(await job());
        } catch (e) {
          reject(e);
        }
        if (spacing > 0) await new Promise((r) => setTimeout(r, spacing));
      };
      spaced.schedule(held).catch(reject);
    });
}

export const MAX_RATE_LIMIT_WAITS = 3;
/** A primary rate limit resets within the hour; a scan waits for it rather than stop. */
export const SCAN_MAX_RATE_LIMIT_WAIT_S = 3600;

/**
 * Octokit's answer to a spent primary rate limit: wait, saying until when, at most three times
 * and at most an hour; a reset that is absurd (far in the future, so Octokit computes 0 or a
 * negative wait) or keeps failing stops the scan, which a rerun resumes.
 */
export function rateLimitPolicy(say: (s: string) => void, now: () => number = Date.now) {
  return (retryAfter: number, _options: unknown, _octokit: unknown, retryCount = 0): boolean => {
    const known = Number.isFinite(retryAfter) && retryAfter > 0 && retryAfter <= SCAN_MAX_RATE_LIMIT_WAIT_S;
    const wait = known && retryCount < MAX_RATE_LIMIT_WAITS;
    const at = known ? ` (at ${new Date(now() + retryAfter * 1000).toISOString().slice(11, 19)} UTC)` : "";
    say(
      wait
        ? `burn-triage: GitHub's rate limit is used up; waiting ${retryAfter} s${at}, attempt ${retryCount + 1} of ${MAX_RATE_LIMIT_WAITS}\n`
        : `burn-triage: GitHub's rate limit is used up and ${known ? `its reset${at} is past ${MAX_RATE_LIMIT_WAITS} waits` : "its reset time makes no sense"}; stopping (run again later: the scan resumes)\n`,
    );
    return wait;
  };
}
