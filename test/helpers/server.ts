// Starts the real webhook server (`node lib/main.js`, as `npm start` does) against a
// fake GitHub on loopback, and sends it HMAC-signed deliveries over HTTP.
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll } from "@jest/globals";
import { type FakeGitHub, type FakeRepo, startFakeGitHub } from "../support/fake-github.js";
import { scenarioRepo } from "../support/scenario.js";
import { root } from "./fixtures.js";
import { privateKey } from "./probot.js";

export const SECRET = "e2e-webhook-secret";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export interface RunningServer {
  url: string;
  /** The fake GitHub it talks to: deliveries are recorded there as GitHub's current state. */
  fake: FakeGitHub;
  proc: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

export interface ServerOptions {
  /** Working directory (Probot reads app.yml and .env there, and writes .env in setup mode). */
  cwd?: string;
  /** false: no APP_ID/PRIVATE_KEY/WEBHOOK_SECRET in the environment (setup mode, or read from .env). */
  credentials?: boolean;
}

export async function startServer(
  fake: FakeGitHub,
  env: Record<string, string> = {},
  opts: ServerOptions = {},
): Promise<RunningServer> {
  const port = await freePort();
  let out = "";
  const credentials =
    opts.credentials === false ? {} : { APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: SECRET };
  const proc = spawn(process.execPath, [join(root, "lib/main.js")], {
    cwd: opts.cwd ?? root,
    env: {
      PATH: process.env.PATH ?? "",
      ...credentials,
      PORT: String(port),
      HOST: "127.0.0.1",
      GHE_HOST: fake.host,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      // No internet in CI: a test that wants the live index passes its fake's URL.
      CRATES_INDEX_URL: "off",
      // Octokit's 5xx backoff at a tenth of its default (1+4+9 s for three retries): the retries
      // are what these tests look at, not the waits between them.
      GITHUB_RETRY_BASE_MS: "100",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const r = await fetch(`${url}/ping`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    fake,
    proc,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill("SIGTERM");
      }),
  };
}

/**
 * A test's budget from its time on an unloaded 2-core machine: six times that, never under jest's
 * 30 s default. A loaded machine runs these processes two to three times slower; a budget that
 * races the unloaded time fails there and says nothing about the code.
 */
export const budget = (unloadedMs: number): number => Math.max(30_000, 6 * unloadedMs);

export function sign(body: string, secret = SECRET): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export async function deliver(
  server: RunningServer,
  event: string,
  payload: unknown,
  opts: { id?: string; secret?: string; signature?: string } = {},
): Promise<Response> {
  const body = JSON.stringify(payload);
  server.fake.observe(payload);
  return fetch(`${server.url}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": opts.id ?? `d-${Math.random().toString(36).slice(2)}`,
      "x-hub-signature-256": opts.signature ?? sign(body, opts.secret),
    },
    body,
  });
}

/** Waits until `check` holds (the server answers GitHub before its work is done). */
export async function until(check: () => boolean, ms = 10000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

const SETTLED = ['"msg":"delivery done"', '"msg":"delivery already taken by another replica"'];

/** Log lines of `servers` that end an attempt of delivery `id` (its retries are `id:retryN`). */
function endings(servers: RunningServer[], id: string, kinds: string[]): number {
  return servers
    .flatMap((s) => s.output().split("\n"))
    .filter(
      (l) =>
        kinds.some((k) => l.includes(k)) && (l.includes(`"delivery":"${id}"`) || l.includes(`"delivery":"${id}:retry`)),
    ).length;
}

/**
 * Waits until the server logged that an attempt of delivery `id` finished without failing:
 * after that, a negative assert is about what the server did, not how long the test slept.
 */
export async function untilDone(server: RunningServer, id: string, ms = 25000): Promise<void> {
  await until(() => endings([server], id, SETTLED.slice(0, 1)) >= 1, ms);
}

/** Waits until `count` deliveries of `id` across `servers` were handled or refused as taken. */
export async function untilSettled(servers: RunningServer[], id: string, count: number, ms = 25000): Promise<void> {
  await until(() => endings(servers, id, SETTLED) >= count, ms);
}

export interface Stack {
  fake: FakeGitHub;
  servers: RunningServer[];
}

/** Inside a describe: a fake GitHub and `replicas` real servers, started before its tests and stopped after. */
export function withServers(
  replicas = 1,
  env: Record<string, string> | (() => Record<string, string>) = {},
  repo: FakeRepo = scenarioRepo(),
): Stack {
  const stack = { servers: [] } as unknown as Stack;
  beforeAll(async () => {
    stack.fake = await startFakeGitHub(repo);
    const e = typeof env === "function" ? env() : env;
    stack.servers = await Promise.all(Array.from({ length: replicas }, () => startServer(stack.fake, e)));
  });
  afterAll(async () => {
    await Promise.all(stack.servers.map((s) => s.stop()));
    await stack.fake?.close();
  });
  return stack;
}
