// The fixture scenario shared by the demo, the end-to-end test and the benchmark: which webhook
// fixtures to replay and what the fake repository holds.
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { Probot, ProbotOctokit } from "probot";
import type { FakeRepo } from "./fake-github.js";
import { projectRoot } from "./root.js";

export const fixturesDir = `${projectRoot(import.meta.url)}fixtures/`;

export function fixtureText(path: string): string {
  return readFileSync(`${fixturesDir}${path}`, "utf8");
}

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are plain JSON fixtures
export function webhook(name: string): any {
  return JSON.parse(fixtureText(`webhooks/${name}.json`));
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

/** A throwaway app key: the fake API accepts any signed JWT. */
export function throwawayKey(): string {
  return generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs1", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } }).privateKey;
}

export const DEMO_EVENTS: Array<{ event: string; fixture: string; note: string }> = [
  { event: "issues", fixture: "issues.opened.unrelated", note: "an unrelated issue: no API call at all" },
  { event: "issues", fixture: "issues.opened", note: "the stub panic with a manifest in the body" },
  { event: "issues", fixture: "issues.opened", note: "the same delivery again: nothing new is written" },
  { event: "pull_request", fixture: "pull_request.opened", note: "a PR that sets default-features = false on a crate that trains" },
  { event: "issue_comment", fixture: "issue_comment.created", note: "/explain-panic with a pasted log" },
  { event: "issues", fixture: "issues.opened.compile-error", note: "rustc cannot find `burn::train`: the compile-time twin, answered with the same verified edit" },
];

/**
 * A Probot for in-process runs (demo, bench, tests). GitHub's write pacing and retries are off:
 * the function form of `defaults` runs after Probot's own, so they really are off.
 */
export function offlineProbot(opts: { baseUrl?: string; logLevel?: "fatal" | "warn"; privateKey?: string } = {}): Probot {
  return new Probot({
    appId: 1,
    privateKey: opts.privateKey ?? throwawayKey(),
    baseUrl: opts.baseUrl,
    logLevel: opts.logLevel ?? "fatal",
    Octokit: ProbotOctokit.defaults((o: object) => ({ ...o, throttle: { enabled: false }, retry: { enabled: false } })),
  });
}
