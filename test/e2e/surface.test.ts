// The server's own surface: a body past GitHub's limit is refused while it is read, and a
// server that would accept Probot's default secret does not start.

import { spawn } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { MAX_BODY_BYTES } from "../../src/serve.js";
import { root } from "../helpers/fixtures.js";
import { privateKey } from "../helpers/probot.js";
import { type RunningServer, startServer } from "../helpers/server.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { scenarioRepo } from "../support/scenario.js";

let fake: FakeGitHub;
let server: RunningServer;
beforeAll(async () => {
  fake = await startFakeGitHub(scenarioRepo());
  server = await startServer(fake);
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

/** Streams `bytes` of body without a content-length; resolves with the status, or "closed". */
function stream(url: string, bytes: number, declared?: number): Promise<number | "closed"> {
  return new Promise((resolve) => {
    const u = new URL(`${url}/api/github/webhooks`);
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": "big",
    };
    if (declared !== undefined) headers["content-length"] = declared;
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => resolve("closed"));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("request bodies", () => {
  it("a declared length over 25 MiB is refused before the body is read", async () => {
    expect(await stream(server.url, 0, MAX_BODY_BYTES + 1)).toBe(413);
    expect((await fetch(`${server.url}/ping`)).ok).toBe(true);
  });

  it("a chunked body that grows past 25 MiB is cut off, and the server still serves", async () => {
    const got = await stream(server.url, 64 * 1024 * 1024);
    expect([413, "closed"]).toContain(got);
    expect((await fetch(`${server.url}/ping`)).ok).toBe(true);
    expect(server.proc.exitCode).toBeNull();
  });
});

describe("startup", () => {
  it("refuses to serve an app without WEBHOOK_SECRET (Probot would accept `development`)", async () => {
    const proc = spawn(process.execPath, [join(root, "lib/main.js")], {
      env: { PATH: process.env.PATH ?? "", APP_ID: "1", PRIVATE_KEY: privateKey, PORT: "0", CRATES_INDEX_URL: "off" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    proc.stderr!.on("data", (d) => (out += d));
    const code = await new Promise<number | null>((r) => proc.once("exit", r));
    expect(code).toBe(1);
    expect(out).toMatch(/WEBHOOK_SECRET is not set/);
  });
});
