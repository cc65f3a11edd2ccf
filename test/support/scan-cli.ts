// The built CLI's `scan` as a maintainer runs it, against the fake GitHub, for the end-to-end
// tests and the scan bench; and the App's own answers put on a backlog first, as a setup.

import { execFile } from "node:child_process";
import { join } from "node:path";
import { answerOf } from "../../src/answer/publish-plan.js";
import { issueMarker } from "../../src/render/issue.js";
import { type FakeGitHub, startFakeGitHub } from "./fake-github.js";
import { projectRoot } from "./root.js";

export const SCAN_CLI = join(projectRoot(import.meta.url), "dist/cli/cli.js");
export const SCAN_REPO = "acme/widgets";

/** A fake GitHub holding a backlog, a cache folder for the scan's state, the issues a clean run answers. */
export interface Backlog {
  fake: FakeGitHub;
  cache: string;
  /** The open issues (not pull requests) a clean run answers. */
  answered: number[];
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** `burn-triage scan ARGS` as a process; `env` overrides the token, the API URL or the cache. */
export function runScan(
  b: Pick<Backlog, "fake" | "cache">,
  args: string[],
  env: Record<string, string> = {},
): Promise<Ran> {
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

/** Issues answered by the App, then: every third outdated (an older answer), every third deleted. */
export function age(bk: Backlog): { outdated: number[]; deleted: number[] } {
  const outdated = bk.answered.filter((_, i) => i % 3 === 1);
  const deleted = bk.answered.filter((_, i) => i % 3 === 2);
  for (const c of bk.fake.comments)
    if (outdated.includes(c.issue)) c.body = `${c.body.slice(0, c.body.indexOf("\n"))}\nolder advice`;
  bk.fake.comments.splice(0, bk.fake.comments.length, ...bk.fake.comments.filter((c) => !deleted.includes(c.issue)));
  return { outdated, deleted };
}
