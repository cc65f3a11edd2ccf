// burn-triage scan OWNER/REPO: what the bot would answer on a repository's open issues (and
// with --all, closed ones), as a table, Markdown or JSON; --apply posts it as the bot would.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import Bottleneck from "bottleneck";
import { Probot } from "probot";
import { pino } from "pino";
import { memoryCoordination } from "../github/coordination.js";
import { identityResolver } from "../github/identity.js";
import { productionOctokit } from "../github/octokit.js";
import { scanRepository } from "../github/scan.js";
import type { Deps } from "../handlers/deps.js";
import { fixText, markdownReport, statusText, summaryLine } from "../render/scan.js";
import type { ScanReport } from "../scan/report.js";
import { resumeState, type ScanState } from "../scan/state.js";
import { toolDigest } from "../scan/tool.js";
import { type Io, UsageError } from "./usage.js";

/**
 * Writes one at a time, `ms` apart. Without the option, Octokit's throttling spaces them as GitHub
 * asks integrators to (a second apart, three for a write that notifies, such as a new comment).
 */
function spaced(ms: number) {
  return new Bottleneck.Group({ maxConcurrent: 1, minTime: ms });
}
/** A primary rate limit resets within the hour; a scan waits for it rather than stop. */
const MAX_RATE_LIMIT_WAIT_S = 3600;

function token(env: NodeJS.ProcessEnv): string {
  const t = env.GITHUB_TOKEN || env.GH_TOKEN;
  if (t) return t;
  try {
    const out = execFileSync("gh", ["auth", "token"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 10_000,
    }).trim();
    if (out) return out;
  } catch {
    // No gh, or not logged in: said below.
  }
  throw new UsageError("scan needs a token: set GITHUB_TOKEN (or log in with `gh auth login`)");
}

function statePath(env: NodeJS.ProcessEnv, repo: string): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "burn-triage", `scan-${repo.replace("/", "--")}.json`);
}

function loadState(path: string, repo: string, tool: string, query: string): ScanState {
  let raw: unknown = null;
  try {
    if (existsSync(path)) raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    // An unreadable state is a fresh start, never an error: it only saves calls.
  }
  return resumeState(raw, repo, tool, query);
}

/** Written whole, then renamed: an interrupted write never leaves half a state. */
function saver(path: string): (s: ScanState) => void {
  return (s) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify(s));
    renameSync(`${path}.tmp`, path);
  };
}

async function table(r: ScanReport): Promise<string> {
  const { default: Table } = await import("cli-table3");
  const t = new Table({
    head: ["issue", "title", "found", "fix", "comment"],
    wordWrap: true,
    colWidths: [8, 36, 22, 30, 20],
    style: { head: [] },
  });
  for (const row of r.rows) t.push([`#${row.number}`, row.title, row.found.id, fixText(row), statusText(row)]);
  return `${r.rows.length > 0 ? `${t.toString()}\n` : ""}${summaryLine(r)}\n`;
}

async function progressBar(enabled: boolean): Promise<{ update(done: number, total: number): void; stop(): void }> {
  if (!enabled) return { update: () => {}, stop: () => {} };
  const { SingleBar } = await import("cli-progress");
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: "scanning {bar} {value}/{total} issues",
      hideCursor: true,
      clearOnComplete: true,
    },
    undefined,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) bar.start(total, done);
      started = true;
      bar.setTotal(total);
      bar.update(done);
    },
    stop: () => bar.stop(),
  };
}

export async function scanCmd(args: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, owner, repo, interval } = scanArgs(args);
  // Logs (rate-limit waits, retries) go to stderr; stdout is the report.
  const log = pino({ level: env.LOG_LEVEL ?? "warn" }, pino.destination(2));
  const octokit = await scanOctokit(env, log, interval, io);
  const query = JSON.stringify({ state: values.all ? "all" : "open", since: values.since ?? null });
  const path = values.state ?? statePath(env, `${owner}/${repo}`);
  const previous = loadState(path, `${owner}/${repo}`, toolDigest(), query);
  const bar = await progressBar(values.progress ?? process.stderr.isTTY === true);
  let report: ScanReport;
  try {
    report = await scanRepository(octokit, scanDeps(), log, {
      owner,
      repo,
      state: values.all ? "all" : "open",
      since: values.since,
      apply: values.apply === true,
      previous,
      save: saver(path),
      progress: bar.update,
    });
  } catch (e) {
    bar.stop();
    const err = e as { status?: number; message?: string };
    io.stderr(
      `burn-triage: the scan stopped: ${err.status ? `GitHub answered ${err.status}: ` : ""}${err.message?.split("\n")[0]}\nWhat was done is kept in ${path}; run the same command again to resume.\n`,
    );
    return 1;
  }
  bar.stop();
  if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else if (values.markdown) io.stdout(markdownReport(report));
  else io.stdout(await table(report));
  return 0;
}

/** The command line, checked: a usage error names what is wrong before anything is asked of GitHub. */
function scanArgs(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      all: { type: "boolean" },
      since: { type: "string" },
      markdown: { type: "boolean" },
      json: { type: "boolean" },
      apply: { type: "boolean" },
      state: { type: "string" },
      "write-interval-ms": { type: "string" },
      progress: { type: "boolean" },
    },
    allowPositionals: true,
  });
  const slug = positionals[0] ?? "";
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(slug);
  if (!m) throw new UsageError(`scan wants OWNER/REPO (got ${JSON.stringify(slug)})`);
  if (values.since !== undefined && Number.isNaN(Date.parse(values.since)))
    throw new UsageError(`--since wants a date, e.g. 2026-01-31 (got ${JSON.stringify(values.since)})`);
  const interval = values["write-interval-ms"] === undefined ? undefined : Number(values["write-interval-ms"]);
  if (interval !== undefined && !(Number.isFinite(interval) && interval >= 0))
    throw new UsageError("--write-interval-ms wants a number of milliseconds");
  return { values, owner: m[1]!, repo: m[2]!, interval };
}

/** The token's client, throttled as the App's is, with writes spaced by `interval` when given. */
async function scanOctokit(env: NodeJS.ProcessEnv, log: pino.Logger, interval: number | undefined, io: Io) {
  const probot = new Probot({
    githubToken: token(env),
    baseUrl: env.GITHUB_API_URL || "https://api.github.com",
    log,
    // biome-ignore lint/suspicious/noExplicitAny: Probot's merged options are untyped at this point
    Octokit: productionOctokit().defaults((o: any) => ({
      ...o,
      throttle: {
        ...o.throttle,
        ...(interval === undefined ? {} : { write: spaced(interval), notifications: spaced(interval) }),
        onRateLimit: (retryAfter: number) => {
          const wait = retryAfter <= MAX_RATE_LIMIT_WAIT_S;
          io.stderr(
            `burn-triage: GitHub's rate limit is used up; ${wait ? `waiting ${retryAfter} s` : `it resets in ${retryAfter} s, stopping (run again then: the scan resumes)`}\n`,
          );
          return wait;
        },
      },
    })),
  });
  return probot.auth();
}

function scanDeps(): Deps {
  const coordination = memoryCoordination();
  const actionIdentity = identityResolver("action");
  return {
    coordination: async () => coordination,
    // The token's owner, and any GitHub App: the bot installed as an App may have answered
    // already, and one issue gets one comment whoever posted it.
    identity: async (octokit) => ({ ...(await actionIdentity(octokit)), anyApp: true }),
    redeliveries: () => Promise.reject(new Error("a scan schedules no redeliveries")),
  };
}
