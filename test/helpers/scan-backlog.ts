// The built CLI's `scan` against the fake GitHub holding a backlog, as a maintainer runs it: each
// test gets a fresh fake and a fresh cache folder (the scan's state lives there).

import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "@jest/globals";
import { answerOf } from "../../src/answer/publish-plan.js";
import { issueMarker } from "../../src/render/issue.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { projectRoot } from "../support/root.js";
import { backlog, openBacklog } from "../support/scenario.js";

export const SCAN_CLI = join(projectRoot(import.meta.url), "dist/cli/cli.js");
export const SCAN_REPO = "acme/widgets";

export interface Backlog {
  fake: FakeGitHub;
  cache: string;
  /** The open issues (not pull requests) a clean run answers. */
  answered: number[];
}

/**
 * A fresh backlog of `size` issues for each test of the file; `open`: every one an open issue
 * (no pull request, none closed), as a backlog of that many issues to answer.
 */
export function withBacklog(size: number, shape: { open?: boolean } = {}): Backlog {
  const b = {} as Backlog;
  beforeEach(async () => {
    const made = shape.open ? openBacklog(size) : backlog(size);
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

/**
 * The App's answers on every answerable issue of the backlog, as `--apply` with its installation
 * token writes them. Posted (by REST) on a copy of the backlog holding one issue per distinct
 * text, then copied to every issue with that text, the marker dated to each: a backlog of 1,000
 * is answered in the time of 26 (the setup is not what a test measures).
 */
export async function answeredByTheApp(b: Backlog): Promise<void> {
  const issues = b.fake.repo.issues ?? [];
  const answered = issues.filter((i) => b.answered.includes(i.number));
  const one = [...new Map(answered.map((i) => [i.body, i])).values()].map((i) => ({ ...i, labels: [...i.labels] }));
  const copy = await startFakeGitHub({ issues: one });
  try {
    const r = await runScan(
      { ...b, fake: copy },
      [SCAN_REPO, "--apply", "--write-interval-ms", "0", "--state", join(b.cache, "app.json")],
      {
        GITHUB_TOKEN: "ghs_fake_1",
        GRAPHQL_READS: "off",
      },
    );
    if (r.code !== 0) throw new Error(`the App's answers were not posted: ${r.stderr}`);
    let id = 900_000;
    for (const issue of answered) {
      const model = one.find((i) => i.body === issue.body)!;
      const said = copy.comments.find((c) => c.issue === model.number)!;
      b.fake.comments.push({
        ...said,
        id: id++,
        issue: issue.number,
        body: `${issueMarker(issue.updated_at)}\n${answerOf(said.body)}`,
      });
      for (const label of model.labels) {
        issue.labels.push({ name: label.name });
        b.fake.events.push({ issue: issue.number, event: "labeled", label: { name: label.name } });
      }
    }
  } finally {
    await copy.close();
  }
}
