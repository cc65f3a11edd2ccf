import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "@jest/globals";
import { limitServerBodies } from "../src/serve.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server whose own listener (Probot's, in production) answers "probot", behind `first`. */
async function serve(first: Parameters<typeof limitServerBodies>[1]): Promise<string> {
  const restore = limitServerBodies(1024, first);
  const server = createServer((_req, res) => res.end("probot"));
  servers.push(server);
  try {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  } finally {
    restore();
  }
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: "POST",
    body: "{}",
    signal: AbortSignal.timeout(5000),
  });
  return res.text();
}

describe("what stands in front of Probot's server", () => {
  it("hands the request to Probot when `first` does not answer it, or fails", async () => {
    expect(await serve(async () => false)).toBe("probot");
    expect(
      await serve(async () => {
        throw new Error("a failing early answer");
      }),
    ).toBe("probot");
  });

  it("leaves Probot out when `first` answered", async () => {
    expect(
      await serve(async (_req, res) => {
        res.end("early");
        return true;
      }),
    ).toBe("early");
  });
});
