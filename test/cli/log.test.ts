// What `scan` writes to stderr: words for a person at a terminal, JSON only when asked for.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { humanLine, logsJson } from "../../src/cli/log.js";
import { scanCmd } from "../../src/cli/scan.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { projectRoot } from "../support/root.js";
import { backlog } from "../support/scenario.js";

const JSON_LINE = /^\s*\{"level"/m;

describe("the command line's logs", () => {
  it("are a level word and the message, with the fields after it", () => {
    const line = JSON.stringify({
      level: 40,
      msg: "burn source read failed",
      status: 502,
      err: { message: "bad\nstack" },
    });
    expect(humanLine(line)).toBe("burn-triage: warn: burn source read failed (status=502, err=bad)\n");
    expect(logsJson({ env: {}, json: false, tty: false })).toBe(false);
    expect(logsJson({ env: {}, json: true, tty: true })).toBe(false);
    expect(logsJson({ env: {}, json: true, tty: false })).toBe(true);
    expect(logsJson({ env: { LOG_FORMAT: "json" }, json: false, tty: true })).toBe(true);
  });
});

describe("scan's stderr", () => {
  let fake: FakeGitHub;
  let cache: string;
  const retryBase = process.env.GITHUB_RETRY_BASE_MS;
  beforeEach(async () => {
    // Octokit's 5xx backoff at a thousandth of its default (read from the process's environment).
    process.env.GITHUB_RETRY_BASE_MS = "1";
    fake = await startFakeGitHub({ issues: backlog(4).issues });
    // The repository's config cannot be read: the scan logs an error and stops (by REST, where
    // the config is read on its own; by GraphQL it rides in the first page's query).
    fake.faults.push({ path: "/contents/.github", status: 500, times: 1000 });
    cache = mkdtempSync(join(tmpdir(), "burn-triage-log-"));
  });
  afterEach(async () => {
    if (retryBase === undefined) delete process.env.GITHUB_RETRY_BASE_MS;
    else process.env.GITHUB_RETRY_BASE_MS = retryBase;
    await fake.close();
    rmSync(cache, { recursive: true, force: true });
  });

  const run = async (args: string[], tty: boolean, extra: NodeJS.ProcessEnv = {}) => {
    let stderr = "";
    const env = {
      GITHUB_TOKEN: "ghp_fake_maintainer",
      GITHUB_API_URL: fake.apiUrl,
      CRATES_INDEX_URL: "off",
      XDG_CACHE_HOME: cache,
      GRAPHQL_READS: "off",
      ...extra,
    };
    const io = { stdout: () => undefined, stderr: (s: string) => (stderr += s), stdin: () => "", stderrIsTTY: tty };
    await scanCmd(["acme/widgets", ...args], io, env);
    return stderr;
  };

  it("on a terminal prints no JSON, even with --json: the log is in words", async () => {
    const out = await run(["--json"], true);
    expect(out).toMatch(/^burn-triage: error: config unreadable/m);
    expect(out).not.toMatch(JSON_LINE);
  });

  it("prints pino's JSON lines when asked: LOG_FORMAT=json, or --json into a pipe", async () => {
    expect(await run([], true, { LOG_FORMAT: "json" })).toMatch(JSON_LINE);
    expect(await run(["--json"], false)).toMatch(JSON_LINE);
    expect(await run([], false)).not.toMatch(JSON_LINE);
  });
});

/** util-linux's `script` runs a command on a pseudo-terminal; without it the built CLI's check is skipped. */
const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("the built CLI's scan on a pseudo-terminal", () => {
  (hasScript ? it : it.skip)("prints its log in words, no JSON", async () => {
    const fake = await startFakeGitHub({ issues: backlog(4).issues });
    fake.faults.push({ path: "/contents/.github", status: 500, times: 1000 });
    const cache = mkdtempSync(join(tmpdir(), "burn-triage-log-"));
    const cli = join(projectRoot(import.meta.url), "dist/cli/cli.js");
    try {
      const out = await new Promise<string>((resolve) =>
        execFile(
          "script",
          ["-qec", `"${process.execPath}" "${cli}" scan acme/widgets --json`, "/dev/null"],
          {
            env: {
              PATH: process.env.PATH ?? "",
              GITHUB_TOKEN: "ghp_fake_maintainer",
              GITHUB_API_URL: fake.apiUrl,
              CRATES_INDEX_URL: "off",
              GITHUB_RETRY_BASE_MS: "1",
              XDG_CACHE_HOME: cache,
              GRAPHQL_READS: "off",
            },
          },
          (_e, stdout) => resolve(String(stdout)),
        ),
      );
      expect(out).toMatch(/burn-triage: error: config unreadable/);
      expect(out).not.toMatch(/\{"level"/);
    } finally {
      await fake.close();
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
