// What stands between the network and Probot's webhook handler, for `npm start` and the
// middleware: a body limit enforced while reading (GitHub sends at most 25 MiB), a server that
// will not start with Probot's default secret, and a webhook proxy that skips a malformed message
// instead of crashing the process.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as HttpServer } from "node:http";

/** GitHub caps webhook payloads at 25 MB; a larger body is not a GitHub delivery. */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

/** Why this environment must not serve webhooks, or null. Setup mode (no APP_ID) registers the app first. */
export function startupProblem(env: NodeJS.ProcessEnv): string | null {
  if (!env.APP_ID || env.NODE_ENV === "development") return null;
  const secret = env.WEBHOOK_SECRET ?? "";
  if (secret === "" || secret === "development")
    return "WEBHOOK_SECRET is not set: Probot would accept deliveries signed with its default secret `development`. Set the secret of your GitHub App (or NODE_ENV=development for a local experiment).";
  return null;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function tooLarge(req: IncomingMessage, res: ServerResponse): void {
  if (!res.headersSent)
    res.writeHead(413, { "content-type": "text/plain", connection: "close" }).end("Payload too large");
  req.destroy();
}

/**
 * Reads the body up to `max` bytes before `next` runs, and hands it on as `rawBody` (which
 * @octokit/webhooks reads instead of the stream). A larger body, declared or streamed, is
 * answered 413 and the connection closed: at most `max` bytes are ever held.
 */
export function limitBody(next: Handler, max = MAX_BODY_BYTES): Handler {
  return (req, res) => {
    if (req.method !== "POST" && req.method !== "PUT") return next(req, res);
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > max) return tooLarge(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (c: Buffer) => {
      if (refused) return;
      size += c.length;
      if (size > max) {
        refused = true;
        chunks.length = 0;
        return tooLarge(req, res);
      }
      chunks.push(c);
    });
    req.on("error", () => undefined);
    req.on("end", () => {
      if (refused) return;
      // A Buffer is the Uint8Array @octokit/webhooks looks for: no second copy of the body. A body
      // that arrived in one chunk (up to 64 KiB on loopback) is not copied at all.
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      Object.assign(req, { rawBody: raw, body: {} });
      next(req, res);
    });
  };
}

/**
 * Probot 14's server offers no hook in front of its own body reader, so the limit wraps the
 * `request` listeners of the one HTTP server it creates, when it starts listening. `first` sees
 * each request with its body read, before Probot's listeners: true when it answered the request.
 */
export function limitServerBodies(
  max = MAX_BODY_BYTES,
  first: (req: IncomingMessage, res: ServerResponse) => Promise<boolean> = async () => false,
): () => void {
  const listen = HttpServer.prototype.listen;
  HttpServer.prototype.listen = function (this: Server, ...args: Parameters<Server["listen"]>) {
    const handlers = this.listeners("request") as Handler[];
    this.removeAllListeners("request");
    this.on(
      "request",
      limitBody((req, res) => {
        // A `first` that fails leaves the request to Probot, never unanswered or unhandled.
        void first(req, res)
          .catch(() => false)
          .then((answered) => {
            if (!answered) for (const h of handlers) h.call(this, req, res);
          });
      }, max),
    );
    return listen.apply(this, args);
  } as Server["listen"];
  return () => {
    HttpServer.prototype.listen = listen;
  };
}

interface ProxyLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/**
 * smee.io → the local server. smee-client's own forwarder parses each message without a guard
 * (one malformed message is an unhandled rejection that ends the process); this one logs it and
 * goes on. smee-client still keeps the channel open and reconnects.
 */
export async function startProxy(
  source: string,
  target: string,
  log: ProxyLog,
  fetchImpl: typeof fetch = fetch,
): Promise<{ close(): void }> {
  const { SmeeClient } = await import("smee-client");
  const client = new SmeeClient({
    source,
    target,
    forward: false,
    logger: {
      info: () => undefined,
      error: (...a: unknown[]) => log.warn({ error: String(a[0]) }, "webhook proxy: connection error"),
    } as never,
  });
  client.onmessage = (msg: MessageEvent) => void forward(msg, target, log, fetchImpl);
  const events = await client.start();
  log.info({ source }, "webhook proxy connected");
  return { close: () => events.close() };
}

async function forward(msg: MessageEvent, target: string, log: ProxyLog, fetchImpl: typeof fetch): Promise<void> {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(String(msg.data)) as Record<string, unknown>;
    if (typeof data !== "object" || data === null || Array.isArray(data) || !("body" in data))
      throw new Error("not a webhook");
  } catch (e) {
    log.warn(
      { error: (e as Error).message, bytes: String(msg.data ?? "").length },
      "webhook proxy: malformed message skipped",
    );
    return;
  }
  const { body, query: _q, host: _h, ...rest } = data;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(rest)) if (typeof v === "string" && /^x-|^user-agent$/i.test(k)) headers[k] = v;
  headers["content-type"] = "application/json";
  try {
    const res = await fetchImpl(target, { method: "POST", headers, body: JSON.stringify(body) });
    log.info({ status: res.status, delivery: headers["x-github-delivery"] }, "webhook proxy: forwarded");
  } catch (e) {
    log.warn({ error: (e as Error).message }, "webhook proxy: forward failed");
  }
}
