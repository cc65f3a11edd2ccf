// Webhook streams as GitHub sends them: signed deliveries over HTTP to two server processes, the
// app as `npm start` runs it and a bare Probot app through `probot run`, in alternating batches.
// Each batch is timed at the sender (wall) and by the server's CPU time (its main thread's, from
// /proc/PID/schedstat), which another job on the machine disturbs least. A server answers GitHub before its
// handler finishes, so a batch ends with a /ping, answered once the handlers' work is done (none
// of these events waits on I/O: a non-matching issue makes no API call).
import type { ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { projectRoot } from "../test/support/root.js";
import { spawnServer } from "./cold-start.js";
import type { Payload } from "./inputs.js";

const root = projectRoot(import.meta.url);
const SECRET = "bench-http";

interface Server {
  url: string;
  proc: ChildProcess;
}

async function start(argv: string[], port: number, githubUrl: string): Promise<Server> {
  const proc = spawnServer(argv, port, { WEBHOOK_SECRET: SECRET, GITHUB_API_URL: githubUrl });
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 20000;
  for (;;) {
    try {
      if ((await fetch(`${url}/ping`)).ok) return { url, proc };
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
    if (performance.now() > deadline) throw new Error(`${argv.join(" ")} did not start`);
  }
}

/**
 * The server's main thread's CPU time so far, in ms: /proc/PID/schedstat's run time, in
 * nanoseconds (where JavaScript runs; /proc/PID/stat's 10 ms ticks were too coarse for batches of
 * sub-millisecond events). null where /proc is missing.
 */
function cpuMs(proc: ChildProcess): number | null {
  try {
    return Number(readFileSync(`/proc/${proc.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

async function send(s: Server, event: string, payload: Payload, id: string): Promise<void> {
  const body = JSON.stringify(payload);
  const r = await fetch(`${s.url}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    },
    body,
  });
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`delivery ${id} answered ${r.status}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, d = 3) => Number(x.toFixed(d));

export interface HttpStream {
  stream: string;
  events: number;
  /** bare / burn-triage per batch, medians over every pair's batches: > 1 means burn-triage is faster. */
  wallRatio: number;
  cpuRatio: number | null;
  /** The lowest and highest of the pairs' own CPU-ratio medians. */
  cpuRatioPairs: [number, number] | null;
  /** Per event, medians over the batches. */
  burnTriageCpuMs: number | null;
  bareCpuMs: number | null;
}

/** The server as `npm start` runs it. */
const BURN_TRIAGE = [`${root}lib/main.js`];
/** The baseline: a Probot app that does nothing, through `probot run`. Passed as `ours`, the A/A test. */
export const BARE = [`${root}node_modules/probot/bin/probot.js`, "run", "./build/bench/bare-app.js"];

interface Batch {
  wall: number;
  cpu: number | null;
  ours: number | null;
  bare: number | null;
}

/**
 * Pairs of fresh server processes per stream. One pair's ratio is a property of those two
 * processes as much as of the code: the same build's 64 KiB stream gave CPU ratios from 0.74 to
 * 0.95 in eight single pairs, each steady over its own batches, and the bare app against itself
 * from 0.85 to 1.15. Eight pairs left the pooled ratio good to ±5% (A/A 0.956–1.057 over seven
 * runs); three times as many narrow that by about √3.
 */
export const HTTP_PAIRS = 24;
/** Each pair takes one batch in each order: burn-triage first, then the bare app first. */
export const BATCHES_PER_PAIR = 2;

/**
 * `n` events of `make` to each app, in alternating batches spread over `pairs` pairs of server
 * processes, one pair after another (HTTP_PAIRS says why). The medians are over every pair's
 * batches, and the pairs' own medians are reported as the spread. `ours`: the server in
 * burn-triage's place (BARE: the A/A test).
 */
export async function httpStream(
  stream: string,
  event: string,
  make: () => Payload,
  n: number,
  githubUrl: string,
  { pairs = HTTP_PAIRS, ours = BURN_TRIAGE }: { pairs?: number; ours?: readonly string[] } = {},
): Promise<HttpStream> {
  const size = Math.max(1, Math.round(n / (pairs * BATCHES_PER_PAIR)));
  const runs: Batch[][] = [];
  for (let p = 0; p < pairs; p++) runs.push(await pairBatches(ours, event, make, size, githubUrl));
  const all = runs.flat();
  const cpu = all.filter((b) => b.cpu !== null);
  const pairMedians = runs
    .map((r) => r.filter((b) => b.cpu !== null).map((b) => b.cpu!))
    .filter((xs) => xs.length > 0)
    .map(median);
  return {
    stream,
    events: size * BATCHES_PER_PAIR * pairs,
    wallRatio: round(median(all.map((b) => b.wall))),
    cpuRatio: cpu.length > 0 ? round(median(cpu.map((b) => b.cpu!))) : null,
    cpuRatioPairs: pairMedians.length > 0 ? [round(Math.min(...pairMedians)), round(Math.max(...pairMedians))] : null,
    burnTriageCpuMs: cpu.length > 0 ? round(median(cpu.map((b) => b.ours!)), 2) : null,
    bareCpuMs: cpu.length > 0 ? round(median(cpu.map((b) => b.bare!)), 2) : null,
  };
}

/** One pair of fresh server processes: warmed up, then BATCHES_PER_PAIR alternating batches of `size`. */
async function pairBatches(
  oursArgv: readonly string[],
  event: string,
  make: () => Payload,
  size: number,
  githubUrl: string,
): Promise<Batch[]> {
  const port = 41000 + Math.floor(Math.random() * 2000);
  const ours = await start([...oursArgv], port, githubUrl);
  const bare = await start([...BARE], port + 1, githubUrl);
  try {
    // Warm-up: the JIT compiles both event paths before anything is timed.
    for (const s of [ours, bare]) for (let i = 0; i < 200; i++) await send(s, event, make(), `warm-${i}`);
    const out: Batch[] = [];
    for (let b = 0; b < BATCHES_PER_PAIR; b++) {
      const spent = new Map<Server, { wall: number; cpu: number | null }>();
      for (const s of b % 2 === 0 ? [ours, bare] : [bare, ours]) {
        const payloads = Array.from({ length: size }, make);
        const c0 = cpuMs(s.proc);
        const t = performance.now();
        for (const [i, p] of payloads.entries()) await send(s, event, p, `b${b}-${i}`);
        await fetch(`${s.url}/ping`).then((r) => r.arrayBuffer());
        const c1 = cpuMs(s.proc);
        spent.set(s, { wall: performance.now() - t, cpu: c0 === null || c1 === null ? null : c1 - c0 });
      }
      const [o, a] = [spent.get(ours)!, spent.get(bare)!];
      const both = o.cpu !== null && a.cpu !== null && o.cpu > 0;
      out.push({
        wall: a.wall / o.wall,
        cpu: both ? a.cpu! / o.cpu! : null,
        ours: both ? o.cpu! / size : null,
        bare: both ? a.cpu! / size : null,
      });
    }
    return out;
  } finally {
    ours.proc.kill("SIGTERM");
    bare.proc.kill("SIGTERM");
  }
}
