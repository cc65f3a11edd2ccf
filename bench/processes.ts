// Whole processes timed from spawn to exit: the CLI's commands against `node -e 0`, and the
// Action's bundle against building the app first (what the composite action did on every event).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ISSUE_MARKER } from "../src/render/issue.js";
import { startFakeGitHub } from "../test/support/fake-github.js";
import { projectRoot } from "../test/support/root.js";
import { scenarioRepo, webhook } from "../test/support/scenario.js";

const root = projectRoot(import.meta.url);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, d = 0) => Number(x.toFixed(d));

function timed(argv: string[], env: NodeJS.ProcessEnv = {}, command = process.execPath): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) =>
    execFile(
      command,
      argv,
      { cwd: root, env: { PATH: process.env.PATH ?? "", CRATES_INDEX_URL: "off", ...env }, timeout: 120_000 },
      (err) => (err ? reject(err) : resolve(performance.now() - t)),
    ),
  );
}

/** Rounds of the CLI's commands: at 11, the baseline's median moved by 3 ms (a tenth) between runs. */
export const ROUNDS = 21;

export async function cliStarts(): Promise<{
  baselineMs: number;
  commands: Array<{ command: string; ms: number; ratio: number }>;
}> {
  const cli = join(root, "dist/cli/cli.js");
  const manifest = join(root, "fixtures/manifests/examples-style.toml");
  const issue = join(root, "fixtures/issues/pos-registry-backtrace.md");
  const why = [cli, "why", "--offline", manifest];
  const explain = [cli, "explain", "--offline", issue];
  // The commands' code cache (src/cli/code-cache.ts): kept across the rounds, filled by a first
  // call of each; the "first call" rows have an empty one every time.
  const caches = mkdtempSync(join(tmpdir(), "burn-triage-bench-cli-"));
  const warm = { XDG_CACHE_HOME: join(caches, "warm") };
  let fresh = 0;
  const cold = () => ({ XDG_CACHE_HOME: join(caches, `cold-${fresh++}`) });
  const commands: Array<[string, string[], () => NodeJS.ProcessEnv]> = [
    ["node -e 0", ["-e", "0"], () => warm],
    ["burn-triage --help", [cli, "--help"], () => warm],
    ["burn-triage why", why, () => warm],
    ["burn-triage fix", [cli, "fix", "--offline", manifest], () => warm],
    ["burn-triage explain", explain, () => warm],
    ["burn-triage why, first call (no code cache yet)", why, cold],
    ["burn-triage explain, first call (no code cache yet)", explain, cold],
  ];
  try {
    // `fix` exits 1 when no edit is needed; the time is the same either way.
    for (const [, argv, env] of commands) await timed(argv, env()).catch(() => Number.NaN);
    // Rounds of every command in turn, the baseline among them: a slow spell of this shared
    // machine lands on one round of all of them, not on one command's five runs.
    const times = commands.map((): number[] => []);
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, [, argv, env]] of commands.entries())
        times[i]!.push(await timed(argv, env()).catch(() => Number.NaN));
    const baselineMs = round(median(times[0]!));
    const out = commands.slice(1).map(([command], i) => {
      const ms = round(median(times[i + 1]!));
      return { command, ms, ratio: round(ms / baselineMs, 2) };
    });
    return { baselineMs, commands: out };
  } finally {
    rmSync(caches, { recursive: true, force: true });
  }
}

export interface ActionTimes {
  /** Process start to the comment's POST reaching the fake GitHub. */
  commentMs: number;
  /** Process start to exit: after the label, which GitHub's write pacing holds for a second. */
  exitMs: number;
}

export async function actionRuns(): Promise<{ runs: number; bundle: ActionTimes; buildAndRun: ActionTimes }> {
  const fake = await startFakeGitHub(scenarioRepo());
  const dir = mkdtempSync(join(tmpdir(), "burn-triage-bench-action-"));
  try {
    let n = 0;
    const run = async (entry: string): Promise<ActionTimes> => {
      const p = webhook("issues.opened");
      p.issue.number = 50_000 + n++;
      const path = join(dir, `event-${n}.json`);
      writeFileSync(path, JSON.stringify(p));
      const start = Date.now();
      const exitMs = await timed([join(root, entry)], {
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: "issues",
        GITHUB_EVENT_PATH: path,
        "INPUT_GITHUB-TOKEN": "ghs_bench",
        GITHUB_API_URL: fake.apiUrl,
        LOG_LEVEL: "fatal",
      });
      const post = fake.calls.find(
        (c) => c.method === "POST" && c.path.endsWith(`/issues/${p.issue.number}/comments`) && c.at >= start,
      );
      if (!post || !fake.comments.some((c) => c.issue === p.issue.number && c.body.startsWith(ISSUE_MARKER)))
        throw new Error(`${entry} did not comment`);
      return { commentMs: post.at - start, exitMs };
    };
    const medians = (xs: ActionTimes[]): ActionTimes => ({
      commentMs: round(median(xs.map((x) => x.commentMs))),
      exitMs: round(median(xs.map((x) => x.exitMs))),
    });
    const bundle: ActionTimes[] = [];
    for (let i = 0; i < 5; i++) bundle.push(await run("dist/action.js"));
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const built: ActionTimes[] = [];
    for (let i = 0; i < 3; i++) {
      const buildMs = await timed([tsc, "-p", "tsconfig.json"]);
      const t = await run("lib/action.js");
      built.push({ commentMs: buildMs + t.commentMs, exitMs: buildMs + t.exitMs });
    }
    return { runs: 5, bundle: medians(bundle), buildAndRun: medians(built) };
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
