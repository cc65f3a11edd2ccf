// The fixture scenario shared by the demo, the end-to-end test and the benchmark: which webhook
// fixtures to replay and what the fake repository holds.
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { load } from "js-yaml";
import { Probot, ProbotOctokit } from "probot";
import type { FakeIssue, FakeRepo } from "./fake-github.js";
import { projectRoot } from "./root.js";

export const fixturesDir = `${projectRoot(import.meta.url)}fixtures/`;

export function fixtureText(path: string): string {
  return readFileSync(`${fixturesDir}${path}`, "utf8");
}

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are plain JSON fixtures
export function webhook(name: string): any {
  return JSON.parse(fixtureText(`webhooks/${name}.json`));
}

/**
 * The `issues.edited` delivery after the reporter moved the scenario's issue from burn
 * 0.22.0-pre.2 to 0.22.0-pre.1 (backtrace and manifest both): the answer's link must move too.
 */
// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are plain JSON
export function editedToPre1(opened: any, issue: Record<string, unknown> = {}): any {
  return {
    ...opened,
    action: "edited",
    changes: { body: { from: opened.issue.body } },
    issue: {
      ...opened.issue,
      ...issue,
      body: opened.issue.body
        .replace("0.22.0-pre.2/src/backend.rs:824", "0.22.0-pre.1/src/backend.rs:826")
        .replace(/"0\.22\.0-pre\.2"/, '"0.22.0-pre.1"'),
    },
  };
}

export const HEAD_SHA = "b".repeat(40);
export const BASE_SHA = "a".repeat(40);

export function scenarioRepo(): FakeRepo {
  return {
    files: {
      [`${BASE_SHA}:Cargo.toml`]: fixtureText("repos/pr-trim/base/Cargo.toml"),
      [`${HEAD_SHA}:Cargo.toml`]: fixtureText("repos/pr-trim/head/Cargo.toml"),
      [`${HEAD_SHA}:src/train.rs`]: fixtureText("repos/pr-trim/src/train.rs"),
    },
    prFiles: { 12: [{ filename: "Cargo.toml", status: "modified", patch: fixtureText("repos/pr-trim/patch.diff") }] },
  };
}

let key: string | undefined;

/**
 * A throwaway app key (the fake API accepts any signed JWT), made once per process: one run of
 * the suite on Node 24 failed once with `asn1 encoding routines::too long` while signing with a
 * fresh key, which 1,900 fresh keys signed in a loop did not reproduce; fewer keys, fewer draws.
 */
export function throwawayKey(): string {
  key ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  return key;
}

export const DEMO_EVENTS: Array<{ event: string; fixture: string; note: string }> = [
  { event: "issues", fixture: "issues.opened.unrelated", note: "an unrelated issue: no API call at all" },
  { event: "issues", fixture: "issues.opened", note: "the stub panic with a manifest in the body" },
  { event: "issues", fixture: "issues.opened", note: "the same delivery again: nothing new is written" },
  {
    event: "pull_request",
    fixture: "pull_request.opened",
    note: "a PR that sets default-features = false on a crate that trains",
  },
  { event: "issue_comment", fixture: "issue_comment.created", note: "/explain-panic with a pasted log" },
  {
    event: "issues",
    fixture: "issues.opened.compile-error",
    note: "rustc cannot find `burn::train`: the compile-time twin, answered with the same verified edit",
  },
  {
    event: "issues",
    fixture: "issues.opened.gated-method",
    note: "E0599 on `Device::autodiff`: a gated method, where rustc itself gives no hint",
  },
];

/**
 * A Probot for in-process runs (demo, bench, tests). GitHub's write pacing and retries are off:
 * the function form of `defaults` runs after Probot's own, so they really are off.
 */
export function offlineProbot(
  opts: { baseUrl?: string; logLevel?: "fatal" | "warn"; privateKey?: string } = {},
): Probot {
  return new Probot({
    appId: 1,
    privateKey: opts.privateKey ?? throwawayKey(),
    baseUrl: opts.baseUrl,
    logLevel: opts.logLevel ?? "fatal",
    Octokit: ProbotOctokit.defaults((o: object) => ({ ...o, throttle: { enabled: false }, retry: { enabled: false } })),
  });
}

/**
 * A repository's backlog of `n` issues for `scan`: the issue fixtures in turn (cases.yml says
 * which the bot answers), with every 11th a pull request and every 7th closed. `answered` lists
 * the open issues a scan of open issues must answer.
 */
export function backlog(n: number): { issues: FakeIssue[]; answered: number[] } {
  const cases = load(fixtureText("issues/cases.yml")) as Record<string, { finding: string | null; compile?: boolean }>;
  const pos = Object.keys(cases).filter((f) => cases[f]!.finding !== null);
  const neg = Object.keys(cases).filter((f) => cases[f]!.finding === null && !cases[f]!.compile);
  const issues: FakeIssue[] = [];
  const answered: number[] = [];
  const t0 = Date.parse("2026-06-01T00:00:00Z");
  for (let number = 1; number <= n; number++) {
    const answers = number % 4 === 0;
    const file = answers ? pos[(number / 4) % pos.length]! : neg[number % neg.length]!;
    const pr = number % 11 === 0;
    const state = number % 7 === 0 ? "closed" : "open";
    issues.push({
      number,
      title: `Issue ${number}`,
      body: fixtureText(`issues/${file}`),
      state,
      updated_at: new Date(t0 + number * 60_000).toISOString().replace(/\.\d+Z$/, "Z"),
      user: { login: `user${number}`, type: "User" },
      labels: [],
      comments: 0,
      ...(pr ? { pull_request: { url: `https://example.invalid/pulls/${number}` } } : {}),
    });
    if (answers && !pr && state === "open") answered.push(number);
  }
  return { issues, answered };
}

/** `backlog(n)` with every item an open issue: the same texts, a quarter of them answerable. */
export function openBacklog(n: number): ReturnType<typeof backlog> {
  const issues = backlog(n).issues.map(({ pull_request: _, ...i }) => ({ ...i, state: "open" as const }));
  return { issues, answered: issues.filter((i) => i.number % 4 === 0).map((i) => i.number) };
}
