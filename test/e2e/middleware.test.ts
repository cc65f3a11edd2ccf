// lib/middleware.js mounted in a plain http.createServer, as a serverless host or any Node server
// would: configured from the environment, answering signed webhooks at /api/github/webhooks.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER } from "../../src/render/issue.js";
import { payload, privateKey } from "../helpers/probot.js";
import { SECRET, sign, until } from "../helpers/server.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { scenarioRepo, webhook } from "../support/scenario.js";

let fake: FakeGitHub;
let server: Server;
let url: string;

beforeAll(async () => {
  fake = await startFakeGitHub(scenarioRepo());
  Object.assign(process.env, {
    APP_ID: "1",
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: SECRET,
    GHE_HOST: fake.host,
    GHE_PROTOCOL: "http",
    LOG_LEVEL: "fatal",
  });
  const { default: handler } = await import("../../src/middleware.js");
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await fake?.close();
  for (const k of ["APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET", "GHE_HOST", "GHE_PROTOCOL", "LOG_LEVEL"])
    delete process.env[k];
});

const post = (body: string, signature: string) =>
  fetch(`${url}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": `mw-${Math.random()}`,
      "x-hub-signature-256": signature,
    },
    body,
  });

describe("the exported request handler", () => {
  it("processes a signed webhook and comments", async () => {
    const body = JSON.stringify(webhook("issues.opened"));
    const res = await post(body, sign(body));
    expect(res.status).toBe(200);
    await until(() => fake.comments.length === 1);
    expect(fake.comments[0]!.body.startsWith(ISSUE_MARKER)).toBe(true);
  });

  it("refuses a forged signature and answers other paths with 404", async () => {
    const before = fake.calls.length;
    const body = JSON.stringify(webhook("issues.opened"));
    expect((await post(body, sign(body, "wrong"))).status).toBe(400);
    expect((await fetch(`${url}/elsewhere`)).status).toBe(404);
    expect(fake.calls.length).toBe(before);
  });
});

describe("burnTriageMiddleware", () => {
  it("answers an issue the plan ignores before Probot takes it, and leaves the rest to Probot", async () => {
    const { Probot } = await import("probot");
    const { burnTriageMiddleware } = await import("../../src/middleware.js");
    const { limitBody } = await import("../../src/serve.js");
    const probot = new Probot({ appId: 1, privateKey, secret: SECRET, logLevel: "fatal", baseUrl: fake.apiUrl });
    const middleware = await burnTriageMiddleware(probot);
    const taken: string[] = [];
    // Called for every delivery Probot's webhooks take, before any handler.
    probot.webhooks.onAny((e) => void taken.push(e.id));
    const own = createServer(limitBody((req, res) => void middleware(req, res)));
    await new Promise<void>((r) => own.listen(0, "127.0.0.1", () => r()));
    try {
      const at = `http://127.0.0.1:${(own.address() as AddressInfo).port}/api/github/webhooks`;
      const send = (id: string, body: string) =>
        fetch(at, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": "issues",
            "x-github-delivery": id,
            "x-hub-signature-256": sign(body),
          },
          body,
        });
      const quiet = await send("mw-quiet", JSON.stringify(payload("issues.opened.unrelated")));
      expect([quiet.status, await quiet.text()]).toEqual([200, "ok\n"]);
      // A closed issue is not the plan's to judge (no handler runs for it): Probot takes it.
      const closed = await send(
        "mw-closed",
        JSON.stringify({ ...payload("issues.opened.unrelated"), action: "closed" }),
      );
      expect(closed.status).toBe(200);
      expect(taken).toEqual(["mw-closed"]);
    } finally {
      own.closeAllConnections();
      await new Promise((r) => own.close(r));
    }
  });
});
