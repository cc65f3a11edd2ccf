// The server's early answer: a signed issue delivery the plan ignores is answered as
// @octokit/webhooks answers it, before Probot builds a context; every delivery it cannot judge
// with certainty is left to Probot, untouched.
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "@jest/globals";
import { Probot } from "probot";
import { earlyAnswer, type ReadRequest } from "../src/github/early-answer.js";
import { payload, privateKey } from "./helpers/probot.js";
import { sign } from "./helpers/server.js";

const SECRET = "early-secret";
const probot = new Probot({ appId: 1, privateKey, secret: SECRET, logLevel: "fatal" });

interface Sent {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

function request(
  body: string,
  over: { headers?: Record<string, string | undefined>; url?: string; method?: string; raw?: boolean } = {},
): ReadRequest {
  const headers: Record<string, string | undefined> = {
    "content-type": "application/json",
    "x-github-event": "issues",
    "x-github-delivery": "early-1",
    "x-hub-signature-256": sign(body, SECRET),
    ...over.headers,
  };
  for (const k of Object.keys(headers)) if (headers[k] === undefined) delete headers[k];
  return {
    method: over.method ?? "POST",
    url: over.url ?? "/api/github/webhooks",
    headers,
    ...(over.raw === false ? {} : { rawBody: Buffer.from(body) }),
  } as unknown as IncomingMessage;
}

function response(): { res: ServerResponse; sent: Sent } {
  const sent: Sent = {};
  const res = {
    writeHead(status: number, headers: Record<string, string>) {
      Object.assign(sent, { status, headers });
      return res;
    },
    end(body: string) {
      sent.body = body;
      return res;
    },
  };
  return { res: res as unknown as ServerResponse, sent };
}

async function answer(req: ReadRequest): Promise<{ answered: boolean; sent: Sent }> {
  const logged: string[] = [];
  const { res, sent } = response();
  const answered = await earlyAnswer(probot, { logRequest: (r) => logged.push(r.url ?? "") })(req, res);
  // The request is logged exactly when it is answered here (Probot's server logs the others).
  expect(logged).toHaveLength(answered ? 1 : 0);
  return { answered, sent };
}

const unrelated = JSON.stringify(payload("issues.opened.unrelated"));

describe("an issue delivery the plan ignores", () => {
  it("is answered 200 `ok` as @octokit/webhooks answers it", async () => {
    const { answered, sent } = await answer(request(unrelated));
    expect(answered).toBe(true);
    expect(sent).toEqual({
      status: 200,
      headers: { "content-type": "text/plain", accept: "application/json", "content-length": "3" },
      body: "ok\n",
    });
  });

  it("is answered when a bot sent it, which the plan ignores whatever it holds", async () => {
    const matching = payload("issues.opened");
    const fromBot = JSON.stringify({ ...matching, sender: { ...matching.sender, type: "Bot" } });
    expect((await answer(request(fromBot))).answered).toBe(true);
  });
});

describe("a delivery left to Probot, untouched", () => {
  const cases: Array<[string, ReadRequest]> = [
    ["an issue with a known panic", request(JSON.stringify(payload("issues.opened")))],
    [
      "an edit that removed the panic (the answer is retracted)",
      request(JSON.stringify(payload("issues.edited.removed"))),
    ],
    ["a forged signature", request(unrelated, { headers: { "x-hub-signature-256": sign(unrelated, "forged") } })],
    ["no signature", request(unrelated, { headers: { "x-hub-signature-256": undefined } })],
    ["no delivery id", request(unrelated, { headers: { "x-github-delivery": undefined } })],
    ["a form-encoded body", request(unrelated, { headers: { "content-type": "application/x-www-form-urlencoded" } })],
    ["another event", request(unrelated, { headers: { "x-github-event": "pull_request" } })],
    ["another path", request(unrelated, { url: "/api/github/webhooks/" })],
    ["another method", request(unrelated, { method: "PUT" })],
    ["a body the server did not read first", request(unrelated, { raw: false })],
    ["signed JSON that does not parse", request(`${unrelated}}`)],
    ["a signed payload of another shape", request(JSON.stringify({ action: "opened" }))],
    ["another action", request(JSON.stringify({ ...JSON.parse(unrelated), action: "closed" }))],
  ];
  it.each(cases)("%s", async (_name, req) => {
    const { answered, sent } = await answer(req);
    expect(answered).toBe(false);
    expect(sent).toEqual({});
  });
});
