// The README's commands are run as written, and its example comment is what the bot posts: a
// newcomer who copies a line gets what the README says.

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "./support/fake-github.js";
import { projectRoot } from "./support/root.js";
import { backlog } from "./support/scenario.js";

const root = projectRoot(import.meta.url);
const readme = readFileSync(join(root, "README.md"), "utf8");
const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<string, string>;

/** Every line of the README's ```sh blocks, comments and continuation stripped. */
const shellLines = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
  m[1]!
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l.length > 0),
);
const cliLines = shellLines.filter((l) => l.startsWith("node dist/cli/cli.js "));
/** The exit code a line's comment documents ("… exits 1 …"), 0 when it says none. */
const documentedExit = (line: string): number => {
  const raw = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.split("\n"))
    .find((l) => l.trim().startsWith(line));
  return Number(/#.*\bexits (\d)\b/.exec(raw ?? "")?.[1] ?? 0);
};

function run(line: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  // The README's placeholders, for the fake GitHub's repository.
  const argv = line
    .replace(/^node /, "")
    .replace("OWNER/REPO", "acme/widgets")
    .split(/\s+/);
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      argv,
      { cwd: root, env: { PATH: process.env.PATH ?? "", CRATES_INDEX_URL: "off", ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe("the README", () => {
  let fake: FakeGitHub;
  let cache: string;
  beforeAll(async () => {
    // Few issues: `scan --apply` spaces new comments three seconds apart, as GitHub asks.
    fake = await startFakeGitHub({ issues: backlog(8).issues });
    cache = mkdtempSync(join(tmpdir(), "burn-triage-readme-"));
  });
  afterAll(async () => {
    await fake.close();
    rmSync(cache, { recursive: true, force: true });
  });

  it("names only npm scripts that exist", () => {
    const named = [...readme.matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((s) => !(s in scripts))).toEqual([]);
  });

  it("shows every command line subcommand, and each runs as written", async () => {
    expect(new Set(cliLines.map((l) => l.split(/\s+/)[2]))).toEqual(
      new Set(["explain", "why", "fix", "review", "scan"]),
    );
    const failed: string[] = [];
    for (const line of cliLines) {
      const r = await run(line, {
        GITHUB_TOKEN: "ghp_fake_readme",
        GITHUB_API_URL: fake.apiUrl,
        XDG_CACHE_HOME: cache,
      });
      if (r.code !== documentedExit(line) || r.stdout.length === 0)
        failed.push(`${line} → exit ${r.code}: ${r.stderr.split("\n")[0]}`);
    }
    expect(failed).toEqual([]);
    // `scan --apply` wrote through the fake GitHub, as the README says it does.
    expect(fake.comments.length).toBeGreaterThan(0);
  });

  it("shows the comment the bot posts on its example issue, as the bot writes it today", async () => {
    const m = /<!-- example-comment:start \((node [^)]+)\) -->\n([\s\S]*?)\n<!-- example-comment:end -->/.exec(readme);
    expect(m).not.toBeNull();
    const shown = m![2]!
      .split("\n")
      .map((l) => l.replace(/^> ?/, ""))
      .join("\n");
    const { stdout } = await run(m![1]!, {});
    expect(`${shown}\n`).toBe(stdout);
  });

  it("its worked examples are the entries the data files hold", () => {
    const diffs = [...readme.matchAll(/```diff\n([\s\S]*?)```/g)].map((m) =>
      m[1]!
        .split("\n")
        .filter((l) => l.startsWith("+") && !l.includes("…"))
        .map((l) => l.slice(1)),
    );
    const rules = readFileSync(join(root, "data/review-rules.yml"), "utf8");
    const catalog = readFileSync(join(root, "data/catalog-source.yml"), "utf8");
    const [rule, message] = diffs.slice(-2);
    expect(rules).toContain(rule!.join("\n"));
    for (const line of message!) expect(catalog).toContain(line);
  });

  it("runs its demo (the first command a newcomer types)", async () => {
    expect(scripts.demo).toContain("build/test/support/demo.js");
    const r = await run("node build/test/support/demo.js", {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d+ deliveries, \d+ GitHub API calls, 4 comments, 1 review\./);
  });
});
