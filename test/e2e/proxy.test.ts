// The development loop: WEBHOOK_PROXY_URL points the real server at a smee channel (here a
// local server speaking smee's protocol), and webhooks sent to the channel reach the app.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER } from "../../src/render/issue.js";
import { type RunningServer, SECRET, startServer, until } from "../helpers/server.js";
import { type FakeSmee, startFakeSmee } from "../helpers/smee.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { scenarioRepo, webhook } from "../support/scenario.js";

let fake: FakeGitHub;
let smee: FakeSmee;
let server: RunningServer;

beforeAll(async () => {
  fake = await startFakeGitHub(scenarioRepo());
  smee = await startFakeSmee();
  server = await startServer(fake, { WEBHOOK_PROXY_URL: smee.url });
  await smee.connected();
});
afterAll(async () => {
  await server?.stop();
  await smee?.close();
  await fake?.close();
});

describe("webhook proxy (smee-client)", () => {
  it("forwards a webhook from the channel to the app, which comments", async () => {
    smee.send("issues", webhook("issues.opened"), SECRET);
    await until(() => fake.comments.length === 1);
    expect(fake.comments[0]!.body.startsWith(ISSUE_MARKER)).toBe(true);
    expect(server.output()).not.toContain("SmeeClient is not available");
  });

  it("still checks the signature of what comes through the proxy", async () => {
    const before = fake.calls.length;
    smee.send(
      "issues",
      { ...webhook("issues.opened"), issue: { ...webhook("issues.opened").issue, number: 8 } },
      "not-the-secret",
    );
    await until(() => /webhook proxy: forwarded","status":400/.test(server.output()));
    expect(fake.calls.length).toBe(before);
  });

  it("skips a malformed message (not JSON, no body) and keeps forwarding", async () => {
    smee.sendRaw("{not json");
    smee.sendRaw('"a string"');
    await until(() => (server.output().match(/malformed message skipped/g) ?? []).length === 2);
    expect(server.proc.exitCode).toBeNull();
    const before = fake.comments.length;
    smee.send(
      "issues",
      { ...webhook("issues.opened"), issue: { ...webhook("issues.opened").issue, number: 9 } },
      SECRET,
    );
    await until(() => fake.comments.length === before + 1);
  });
});
