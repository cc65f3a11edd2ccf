// The GitHub Action entry, run as a runner runs it: a Node process with the workflow's
// environment, an event file, the workflow token, and GITHUB_API_URL at a fake GitHub.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER } from "../../src/render/issue.js";
import { root } from "../helpers/fixtures.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { scenarioRepo, webhook } from "../support/scenario.js";

let fake: FakeGitHub;
let dir: string;

beforeAll(async () => {
  fake = await startFakeGitHub(scenarioRepo());
  dir = mkdtempSync(join(tmpdir(), "burn-triage-action-"));
});
afterAll(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the committed bundle (dist/action.js, what action.yml runs) on one event; resolves with its exit code, output and the API calls it made. */
function runAction(event: string, payload: unknown, env: Record<string, string> = {}) {
  const path = join(dir, `${event}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(payload));
  const before = fake.calls.length;
  return new Promise<{ code: number; output: string; calls: string[] }>((resolve) => {
    execFile(
      process.execPath,
      [join(root, "dist/action.js")],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? "",
          // What every Actions runner sets.
          GITHUB_ACTIONS: "true",
          GITHUB_EVENT_NAME: event,
          GITHUB_EVENT_PATH: path,
          // What the runner passes a JavaScript action for `with: github-token:` (its default).
          "INPUT_GITHUB-TOKEN": "ghs_workflow_token",
          GITHUB_API_URL: fake.apiUrl,
          GITHUB_RUN_ID: "77",
          GITHUB_RUN_ATTEMPT: "1",
          LOG_LEVEL: "warn",
          CRATES_INDEX_URL: "off",
          ...env,
        },
        timeout: 30000,
      },
      (err, stdout, stderr) =>
        resolve({
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          output: stdout + stderr,
          calls: fake.calls.slice(before).map((c) => `${c.method} ${c.path}`),
        }),
    );
  });
}

describe("GitHub Action entry (lib/action.js)", () => {
  it("comments on an issue with the panic, authenticated by the workflow token (no app token exchange)", async () => {
    const r = await runAction("issues", webhook("issues.opened"));
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      "GET /repos/alice/mnist-demo/contents/.github%2Fburn-triage.yml",
      "GET /repos/alice/.github/contents/.github%2Fburn-triage.yml",
      "GET /user",
      "GET /repos/alice/mnist-demo/issues/7/comments?per_page=100",
      "POST /repos/alice/mnist-demo/issues/7/comments",
      "POST /repos/alice/mnist-demo/issues/7/labels",
    ]);
    const comment = fake.comments.find((c) => c.issue === 7)!;
    expect(comment.body.startsWith(ISSUE_MARKER)).toBe(true);
    expect(comment.body).toContain('features = ["std", "wgpu", "dataset", "autodiff"]');
  });

  it("answers /explain-panic in an issue comment", async () => {
    const r = await runAction("issue_comment", webhook("issue_comment.created"));
    expect(r.code).toBe(0);
    expect(r.calls).toContain("POST /repos/alice/mnist-demo/issues/comments/9001/reactions");
    expect(r.calls).toContain("POST /repos/alice/mnist-demo/issues/9/comments");
    expect(fake.comments.find((c) => c.issue === 9)!.body).toContain("Requires `autodiff` feature");
  });

  it("reviews a pull_request_target event as a pull request", async () => {
    const r = await runAction("pull_request_target", webhook("pull_request.opened"));
    expect(r.code).toBe(0);
    expect(r.calls).toContain("POST /repos/alice/mnist-demo/pulls/12/reviews");
    expect(fake.reviews).toHaveLength(1);
    expect(fake.reviews[0]!.comments).toEqual([
      expect.objectContaining({ path: "Cargo.toml", line: 7, body: expect.stringContaining("```suggestion") }),
    ]);
  });

  it("stays silent on an unrelated issue and on events it does not handle", async () => {
    const unrelated = await runAction("issues", webhook("issues.opened.unrelated"));
    expect(unrelated).toMatchObject({ code: 0, calls: [] });
    const push = await runAction("push", { ref: "refs/heads/main", repository: webhook("issues.opened").repository });
    expect(push).toMatchObject({ code: 0, calls: [] });
  });

  it("fails the step with a clear message when the workflow gives it no token or no event", async () => {
    const noToken = await runAction("issues", webhook("issues.opened"), { "INPUT_GITHUB-TOKEN": "" });
    expect(noToken.code).toBe(1);
    expect(noToken.output).toContain("no token: pass `github-token`");
    const noEvent = await runAction("issues", webhook("issues.opened"), {
      GITHUB_EVENT_PATH: join(dir, "missing.json"),
    });
    expect(noEvent.code).toBe(1);
    expect(noEvent.output).toContain("cannot read the event payload");
    expect(noEvent.calls).toEqual([]);
  });
});
