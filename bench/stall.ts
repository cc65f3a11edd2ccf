// The event loop's worst stall while one adversarial event is processed next to a normal one:
// a timer that should fire every few milliseconds records the longest gap between its ticks.

import app from "../src/index.js";
import { startFakeGitHub } from "../test/support/fake-github.js";
import { offlineProbot, scenarioRepo } from "../test/support/scenario.js";
import { matchingIssue, type StallCase } from "./inputs.js";

const TICK_MS = 5;

export interface Stall {
  name: string;
  /** Longest time the event loop did not turn, minus the timer's own period. */
  worstMs: number;
  /**
   * The process's CPU time over that longest gap (all its threads: the collector's helpers too).
   * On a machine shared with other jobs, the gap grows with the wait for a core; this does not.
   */
  worstCpuMs: number;
  /** The normal event's comment was still written. */
  normalAnswered: boolean;
  /** Comments and reviews the adversarial event wrote on its own issue or PR. */
  adversarialWrites: number;
  /** The adversarial event's delivery settled without an error reaching Probot. */
  adversarialSettled: boolean;
}

/** A 5 ms timer that records the event loop's longest lateness until `stop()`, and the CPU time over it. */
export function stallMeter(): { stop(): number; cpuOfWorst(): number } {
  let worst = 0;
  let worstCpu = 0;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    if (now - last - TICK_MS > worst) {
      worst = now - last - TICK_MS;
      worstCpu = (cpu.user + cpu.system) / 1000;
    }
    last = now;
  }, TICK_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(0, Number(worst.toFixed(1)));
    },
    cpuOfWorst: () => Number(worstCpu.toFixed(1)),
  };
}

export async function measureStall(c: StallCase): Promise<Stall> {
  const repo = scenarioRepo();
  repo.files = { ...repo.files, ...c.files };
  const fake = await startFakeGitHub(repo);
  const probot = offlineProbot({ baseUrl: fake.apiUrl });
  await probot.load(app);
  // Warm the caches (catalog, index) so the stall is the input's, not the first load's.
  await probot.receive({ id: "warm", name: "issues", payload: matchingIssue() });
  const normal = matchingIssue();
  const meter = stallMeter();
  let worstMs = 0;
  let worstCpuMs = 0;
  let settled: PromiseSettledResult<unknown>[] = [];
  try {
    settled = await Promise.allSettled([
      probot.receive({ id: `adversarial-${c.name}`, name: c.event, payload: c.payload }),
      probot.receive({ id: "normal", name: "issues", payload: normal }),
    ]);
  } finally {
    worstMs = meter.stop();
    worstCpuMs = meter.cpuOfWorst();
    await fake.close();
  }
  const own = c.payload.issue?.number ?? c.payload.pull_request?.number;
  return {
    name: c.name,
    worstMs,
    worstCpuMs,
    normalAnswered: fake.comments.some((x) => x.issue === normal.issue.number),
    adversarialWrites:
      fake.comments.filter((x) => x.issue === own).length + fake.reviews.filter((x) => x.pull === own).length,
    adversarialSettled: settled[0]?.status === "fulfilled",
  };
}
