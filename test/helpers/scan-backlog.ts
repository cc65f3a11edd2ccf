// The built CLI's `scan` against the fake GitHub holding a backlog, as a maintainer runs it: each
// test gets a fresh fake and a fresh cache folder (the scan's state lives there).

import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { projectRoot } from "../support/root.js";
import { backlog } from "../support/scenario.js";

export const SCAN_CLI = join(projectRoot(import.meta.url), "dist/cli/cli.js");
export const SCAN_REPO = "acme/widgets";

export interface Backlog {
  fake: FakeGitHub;
  cache: string;
  /** The open issues (not pull requests) a clean run answers. */
  answered: number[];
}

/** A fresh backlog of `size` issues for each test of the file. */
export function withBacklog(size: number): Backlog {
  const b = {} as Backlog;
  beforeEach(async () => {
    const made = backlog(size);
    b.answered = made.answered;
    b.fake = await startFakeGitHub({ issues: made.issues });
    b.cache = mkdtempSync(join(tmpdir(), "burn-triage-scan-"));
  });
  afterEach(async () => {
    await b.fake.close();
    rmSync(b.cache, { recursive: true, force: true });
  });
  return b;
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** `burn-triage scan ARGS` as a process; `env` overrides the token, the API URL or the cache. */
export function runScan(b: Backlog, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [SCAN_CLI, "scan", ...args],
      {
        env: {
          PATH: process.env.PATH ?? "",
          GITHUB_TOKEN: "ghp_fake_maintainer",
          GITHUB_API_URL: b.fake.apiUrl,
          CRATES_INDEX_URL: "off",
          // Octokit's 5xx backoff at a tenth of its default: the retry is under test, not its wait.
          GITHUB_RETRY_BASE_MS: "100",
          XDG_CACHE_HOME: b.cache,
          ...env,
        },
        timeout: 120_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}
