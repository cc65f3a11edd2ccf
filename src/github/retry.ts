// Deliveries that failed for a reason that passes (5xx, a timeout, a malformed answer, a rate
// limit) are run again later, beyond the webhook's acknowledgement: GitHub does not redeliver
// on its own. The pending deliveries live in the coordination store (Redis when configured, so
// another replica can finish what a dying one could not), a bounded number of times.
import type { Coordination } from "./coordination.js";
import type { Log } from "./types.js";

export const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 600_000];
const RETRY_SUFFIX = /:retry(\d+)$/;

/**
 * What failed, as a closed set: GitHub answered with an error (`github`, by its status), the
 * network or a deadline failed (`network`), or the bot itself is wrong (`bug`: a TypeError in
 * the analyser, a broken invariant). Only the first two can pass by waiting.
 */
export type Failure =
  | { kind: "github"; status: number; passes: boolean }
  | { kind: "network"; passes: true }
  | { kind: "bug"; passes: false };

/** Node's and undici's codes for a connection that failed or timed out (not a request refused). */
const NETWORK_CODES =
  /^(?:ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|UND_ERR_\w+)$/;

export function classify(e: unknown, depth = 0): Failure {
  const err = (e ?? {}) as { status?: unknown; name?: string; message?: string; code?: unknown; cause?: unknown };
  if (typeof err.status === "number") {
    const status = err.status;
    const passes = status >= 500 || status === 429 || (status === 403 && /rate limit/i.test(err.message ?? ""));
    return { kind: "github", status, passes };
  }
  if (err.name === "AbortError" || err.name === "TimeoutError") return { kind: "network", passes: true };
  if (typeof err.code === "string" && NETWORK_CODES.test(err.code)) return { kind: "network", passes: true };
  // fetch's own network failure is a TypeError("fetch failed") whose cause holds the socket error.
  if (err.name === "TypeError" && err.message === "fetch failed") return { kind: "network", passes: true };
  // A wrapper (the config reader's, fetch's) keeps what failed underneath as its cause.
  if (depth < 4 && err.cause && typeof err.cause === "object") return classify(err.cause, depth + 1);
  return { kind: "bug", passes: false };
}

/** Worth trying again later: GitHub or the network failed, not the request or the bot. */
export function transient(e: unknown): boolean {
  return classify(e).passes;
}

/** `off`: no delivery is retried (in-process tests, where a late retry would reach the next test). */
export function retryDelays(env: NodeJS.ProcessEnv = process.env): number[] {
  if (env.BURN_TRIAGE_RETRY_DELAYS_MS === "off") return [];
  const list = (env.BURN_TRIAGE_RETRY_DELAYS_MS ?? "")
    .split(",")
    .map(Number)
    .filter((n) => Number.isFinite(n) && n >= 0);
  return list.length > 0 ? list.slice(0, 10) : DEFAULT_RETRY_DELAYS_MS;
}

/** How many times this delivery id has been retried (`<id>:retry<n>`). */
export function attemptOf(id: string): number {
  return Number(RETRY_SUFFIX.exec(id)?.[1] ?? 0);
}

function originalId(id: string): string {
  return id.replace(RETRY_SUFFIX, "");
}

export interface Delivery {
  id: string;
  name: string;
  payload: unknown;
}

export class Redeliveries {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Coordination,
    private readonly receive: (d: Delivery) => Promise<void>,
    private readonly log: Log,
    private readonly delays: number[] = retryDelays(),
  ) {}

  /** Schedules the next attempt; returns its delay in ms, or null when the attempts are spent. */
  async schedule(d: Delivery, error: unknown): Promise<number | null> {
    const attempt = attemptOf(d.id);
    if (!transient(error) || attempt >= this.delays.length) return null;
    const delay = this.delays[attempt]!;
    await this.store.defer(
      { id: `${originalId(d.id)}:retry${attempt + 1}`, name: d.name, payload: d.payload },
      Date.now() + delay,
    );
    this.start();
    return delay;
  }

  /** Polls the store; in Redis mode every replica polls, so a retry survives its scheduler. */
  start(): void {
    if (this.timer) return;
    const every = Math.max(50, Math.min(1000, ...this.delays.map((d) => d / 2)));
    this.timer = setInterval(() => void this.runDue(), every);
    this.timer.unref();
  }

  private async runDue(): Promise<void> {
    let due: Awaited<ReturnType<Coordination["takeDue"]>>;
    try {
      due = await this.store.takeDue(Date.now());
    } catch {
      return;
    }
    for (const d of due) {
      this.log.info({ delivery: d.id, event: d.name }, "retrying a failed delivery");
      // The handler logs its own failure and schedules the next attempt.
      this.receive(d).catch(() => undefined);
    }
  }
}
