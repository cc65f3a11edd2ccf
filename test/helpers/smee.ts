// A local stand-in for smee.io: a server-sent-events channel that speaks smee's protocol (each
// webhook is one `message` event whose data holds the delivery's headers and its `body`).
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sign } from "./server.js";

export interface FakeSmee {
  /** The channel URL, as WEBHOOK_PROXY_URL. */
  url: string;
  /** Resolves once a client holds the channel open. */
  connected: () => Promise<void>;
  /** Sends one signed webhook down the channel. */
  send: (event: string, payload: unknown, secret: string) => void;
  /** Sends one message with this data, verbatim (a malformed one, say). */
  sendRaw: (data: string) => void;
  close: () => Promise<void>;
}

export async function startFakeSmee(): Promise<FakeSmee> {
  const clients: ServerResponse[] = [];
  let onClient: () => void = () => {};
  const server = createServer((req, res) => {
    if (req.method !== "GET" || !req.url?.startsWith("/channel")) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.write("event: ready\ndata: {}\n\n");
    clients.push(res);
    onClient();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  let n = 0;
  return {
    url: `http://127.0.0.1:${port}/channel`,
    connected: () => (clients.length > 0 ? Promise.resolve() : new Promise<void>((r) => (onClient = r))),
    send: (event, payload, secret) => {
      const body = payload;
      const data = {
        "x-github-event": event,
        "x-github-delivery": `smee-${++n}`,
        "x-hub-signature-256": sign(JSON.stringify(body), secret),
        body,
        query: {},
        timestamp: Date.now(),
      };
      for (const c of clients) c.write(`id: ${n}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    sendRaw: (data) => {
      for (const c of clients) c.write(`id: ${++n}\ndata: ${data}\n\n`);
    },
    close: () =>
      new Promise((r) => {
        for (const c of clients) c.end();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
