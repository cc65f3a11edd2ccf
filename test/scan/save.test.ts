// scanRepository in process against the fake GitHub: what it saves, issue by issue, so that a
// run killed at any point resumes where it stopped.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { ProbotOctokit } from "probot";
import { memoryCoordination } from "../../src/github/coordination.js";
import type { Deps } from "../../src/github/deps.js";
import { readsOf, writesOf } from "../../src/github/publish.js";
import { type ScanOptions, scanRepository } from "../../src/github/scan.js";
import type { Octokit } from "../../src/github/types.js";
import { emptyState, type ScanState } from "../../src/scan/state.js";
import { FAKE_USER, type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { backlog } from "../support/scenario.js";

let fake: FakeGitHub;
let answered: number[];
let listedIssues: number;
beforeEach(async () => {
  const b = backlog(40);
  answered = b.answered;
  listedIssues = b.issues.filter((i) => i.state === "open" && !i.pull_request).length;
  fake = await startFakeGitHub({ issues: b.issues });
  process.env.CRATES_INDEX_URL = "off";
});
afterEach(() => fake.close());

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const who = { appId: null, login: FAKE_USER.login, anyApp: true };
const deps: Deps = {
  coordination: async () => memoryCoordination(),
  identity: async () => who,
  redeliveries: () => Promise.reject(new Error("none")),
};

function options(octokit: Octokit, apply: boolean, saves: ScanState[]): ScanOptions {
  return {
    owner: "acme",
    repo: "widgets",
    state: "open",
    apply,
    mode: async () =>
      apply ? { apply: true, gh: writesOf(octokit, who) } : { apply: false, gh: readsOf(octokit, who) },
    previous: emptyState("acme/widgets", "t"),
    save: (s) => saves.push(structuredClone(s)),
    maxPages: 10,
  };
}

describe("scan's state, issue by issue", () => {
  it("is saved after every issue, so a kill loses at most the issue in hand; an apply saves ahead of its writes", async () => {
    const octokit = new ProbotOctokit({
      auth: { token: "ghp_fake_maintainer" },
      baseUrl: fake.apiUrl,
      throttle: { enabled: false },
      retry: { enabled: false },
    }) as unknown as Octokit;
    const saves: ScanState[] = [];
    await scanRepository(octokit, deps, quiet, options(octokit, false, saves));
    // One save per listed issue, each holding one issue more, and the final one.
    const counts = saves.map((s) => Object.keys(s.issues).length);
    expect(counts.slice(0, listedIssues)).toEqual(Array.from({ length: listedIssues }, (_, i) => i + 1));
    expect(saves.at(-1)!.listings[Object.keys(saves.at(-1)!.listings)[0]!]!.complete).toBe(true);

    const applying: ScanState[] = [];
    await scanRepository(octokit, deps, quiet, options(octokit, true, applying));
    // Before each answer is written, the issue is saved as answered and not yet current.
    for (const n of answered) {
      const ahead = applying.find((s) => s.issues[String(n)]?.current === false);
      expect(ahead?.issues[String(n)]?.answer).toEqual(expect.any(String));
    }
    expect(fake.comments).toHaveLength(answered.length);
  });
});
