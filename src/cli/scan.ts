// burn-triage scan OWNER/REPO: what the bot would answer on a repository's open issues (and
// with --all, closed ones), as a table, Markdown or JSON; --apply posts it as the bot would.
// Without --apply the client cannot write: a report is planned with read-only types, and its
// Octokit refuses any request but a GET or a GraphQL query.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import Bottleneck from "bottleneck";
import type { pino } from "pino";
import { Probot } from "probot";
import { memoryCoordination } from "../github/coordination.js";
import type { Deps } from "../github/deps.js";
import { identityResolver } from "../github/identity.js";
import { apiBaseUrl, productionOctokit } from "../github/octokit.js";
import { graphqlEnabled } from "../github/pr-reads.js";
import { readsOf, writesOf } from "../github/publish.js";
import { type ScanMode, scanRepository } from "../github/scan.js";
import { DEFAULT_MAX_PAGES, type Octokit } from "../github/types.js";
import { fixText, markdownReport, staleText, statusText, summaryLine } from "../render/scan.js";
import type { ScanReport } from "../scan/report.js";
import { resumeState, type ScanState } from "../scan/state.js";
import { toolDigest } from "../scan/tool.js";
import { cacheHome } from "./cache-home.js";
import { cliLogger } from "./log.js";
import { contentPacer, GITHUB_CONTENT_LIMITS, rateLimitPolicy } from "./scan-pacing.js";
import { redactSecrets, terminalJson, terminalSafe } from "./terminal.js";
import { type Io, UsageError } from "./usage.js";

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
  return join(cacheHome(env), `scan-${repo.replace("/", "--")}.json`);
}

function loadState(path: string, repo: string, tool: string, warn: (s: string) => void): ScanState {
  let raw: unknown = null;
  try {
    if (existsSync(path)) raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    warn(`burn-triage: ignoring the scan state in ${path}: ${(e as Error).message.split("\n")[0]}\n`);
  }
  const { state, ignored } = resumeState(raw, repo, tool);
  if (ignored) warn(`burn-triage: ignoring the scan state in ${path}: ${ignored}; starting afresh\n`);
  return state;
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
  const stale = staleText(r);
  return `${r.rows.length > 0 ? `${t.toString()}\n` : ""}${stale ? `${stale}\n` : ""}${summaryLine(r)}\n`;
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
  const a = scanArgs(args);
  const secret = token(env);
  // Everything this command prints passes here: no token, no credential, no terminal control.
  const safe = (s: string) => terminalSafe(redactSecrets(s, [secret]));
  const stderr = (s: string) => io.stderr(safe(s));
  // Logs (retries, throttling) go to stderr, through the same filter as the messages, in words
  // unless JSON is asked for (cli/log.ts).
  const log = cliLogger({ env, json: a.json, tty: io.stderrIsTTY ?? process.stderr.isTTY === true, write: stderr });
  const octokit = await scanOctokit(env, log, secret, a, stderr);
  const path = a.state ?? statePath(env, `${a.owner}/${a.repo}`);
  const previous = loadState(path, `${a.owner}/${a.repo}`, toolDigest(), stderr);
  const deps = scanDeps();
  const bar = await progressBar(a.progress ?? process.stderr.isTTY === true);
  let report: ScanReport;
  try {
    const mode = async (): Promise<ScanMode> => {
      const who = await deps.identity(octokit);
      return a.apply ? { apply: true, gh: writesOf(octokit, who) } : { apply: false, gh: readsOf(octokit, who) };
    };
    report = await scanRepository(octokit, deps, log, {
      owner: a.owner,
      repo: a.repo,
      state: a.all ? "all" : "open",
      since: a.since,
      apply: a.apply,
      mode,
      previous,
      save: saver(path),
      progress: bar.update,
      maxPages: a.maxPages,
      graphql: graphqlEnabled(env),
    });
  } catch (e) {
    bar.stop();
    stderr(stoppedMessage(e, path));
    return 1;
  }
  bar.stop();
  if (a.json) io.stdout(`${redactSecrets(terminalJson(report), [secret])}\n`);
  else if (a.markdown) io.stdout(safe(markdownReport(report)));
  else io.stdout(safe(await table(report)));
  return 0;
}

function stoppedMessage(e: unknown, path: string): string {
  const err = e as { status?: number; message?: string; maxPages?: number };
  const cap = err.maxPages !== undefined ? " (raise it with --max-pages N)" : "";
  return `burn-triage: the scan stopped: ${err.status ? `GitHub answered ${err.status}: ` : ""}${String(err.message ?? e).split("\n")[0]}${cap}\nWhat was done is kept in ${path}; run the same command again to resume.\n`;
}

/** GitHub's rules for the two names: an owner of 1-39 letters, digits and hyphens; a repository not `.` or `..`. */
const OWNER = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

/** The command line, checked: a usage error names what is wrong before anything is asked of GitHub. */
export function scanArgs(args: string[]) {
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
      "max-pages": { type: "string" },
      "content-limits": { type: "string" },
      progress: { type: "boolean" },
    },
    allowPositionals: true,
  });
  const slug = positionals[0] ?? "";
  const [owner = "", repo = "", ...extra] = slug.split("/");
  if (extra.length > 0 || !OWNER.test(owner) || !REPO.test(repo) || repo === "." || repo === "..")
    throw new UsageError(`scan wants OWNER/REPO as GitHub names them (got ${JSON.stringify(terminalSafe(slug))})`);
  if (values.since !== undefined && Number.isNaN(Date.parse(values.since)))
    throw new UsageError(`--since wants a date, e.g. 2026-01-31 (got ${JSON.stringify(terminalSafe(values.since))})`);
  const number = (flag: string, v: string | undefined, min: number) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!(Number.isInteger(n) && n >= min)) throw new UsageError(`--${flag} wants a whole number of at least ${min}`);
    return n;
  };
  const limits = /^(\d+)\/(\d+)$/.exec(values["content-limits"] ?? "80/500");
  if (!limits || Number(limits[1]) < 1 || Number(limits[2]) < 1)
    throw new UsageError("--content-limits wants writes a minute and an hour, e.g. 80/500");
  return {
    owner,
    repo,
    limits: { ...GITHUB_CONTENT_LIMITS, perMinute: Number(limits[1]), perHour: Number(limits[2]) },
    all: values.all === true,
    since: values.since,
    markdown: values.markdown === true,
    json: values.json === true,
    apply: values.apply === true,
    state: values.state,
    progress: values.progress,
    interval: number("write-interval-ms", values["write-interval-ms"], 0),
    maxPages: number("max-pages", values["max-pages"], 1) ?? DEFAULT_MAX_PAGES,
  };
}

/**
 * The token's client, throttled as the App's is; writes paced under GitHub's content limits and
 * spaced by --write-interval-ms when given. Without --apply, any request but a read is refused.
 */
async function scanOctokit(
  env: NodeJS.ProcessEnv,
  log: pino.Logger,
  secret: string,
  a: ReturnType<typeof scanArgs>,
  stderr: (s: string) => void,
): Promise<Octokit> {
  const probot = new Probot({
    githubToken: secret,
    baseUrl: apiBaseUrl(env),
    log,
    // biome-ignore lint/suspicious/noExplicitAny: Probot's merged options are untyped at this point
    Octokit: productionOctokit().defaults((o: any) => ({
      ...o,
      throttle: {
        ...o.throttle,
        // The pacer below spaces writes; Octokit's groups would add their own seconds on top.
        ...(a.interval === undefined ? {} : { write: spaced(a.interval), notifications: spaced(a.interval) }),
        onRateLimit: rateLimitPolicy(stderr),
      },
    })),
  });
  const octokit = (await probot.auth()) as Octokit;
  if (!a.apply)
    octokit.hook.before("request", (o) => {
      if (!reads(o)) throw new Error(`a report does not write (refused ${o.method} ${o.url})`);
    });
  else {
    const pace = contentPacer({ spacingMs: a.interval, say: stderr, limits: a.limits });
    octokit.hook.wrap("request", (request, o) => (reads(o) ? request(o) : pace(async () => request(o))));
  }
  return octokit;
}

/**
 * A GET, or a GraphQL document of queries only (a POST that reads): a document that also holds a
 * mutation or subscription anywhere is a write, whichever operation it names first.
 */
export function reads(o: { method?: string; url?: string; query?: unknown }): boolean {
  if (o.method === "GET" || o.method === "HEAD") return true;
  return (
    o.method === "POST" &&
    /\/graphql$/.test(o.url ?? "") &&
    typeof o.query === "string" &&
    /^\s*query\b/.test(o.query) &&
    !/\b(mutation|subscription)\b/.test(o.query)
  );
}

function spaced(ms: number) {
  return new Bottleneck.Group({ maxConcurrent: 1, minTime: ms });
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
