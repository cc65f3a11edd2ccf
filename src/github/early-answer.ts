// A delivery the plan ignores, answered before Probot takes it. Probot builds, for every delivery
// a handler is registered for, an installation Octokit, a child logger and a context, and arms a
// 9 s timer, before the handler's first line: about 0.1 ms of the 0.3 ms a non-matching delivery
// costs the bare app over HTTP (BENCHMARKS.md). The body is read once by limitBody; here its
// signature is checked with Probot's own secret, the same pure decision the handler's guard asks
// is taken, and an ignored delivery is answered as @octokit/webhooks answers it. Anything else, a
// delivery this cannot judge with certainty included, goes on to Probot unchanged.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pinoHttp, startTime } from "pino-http";
import type { Probot } from "probot";
import type { IssuesPayload } from "../answer/plan.js";

/** A request as limitBody hands it on: the whole body read. */
export type ReadRequest = IncomingMessage & { rawBody?: Uint8Array };

/** True when the delivery was answered here; false: Probot takes it, untouched. */
export type EarlyAnswer = (req: ReadRequest, res: ServerResponse) => Promise<boolean>;

/** The actions whose deliveries the plan decides from the payload alone (index.ts, `relevant`). */
const ISSUE_ACTIONS: ReadonlySet<unknown> = new Set(["opened", "edited"]);
/** @octokit/webhooks' own test of the content type; another type is Probot's to refuse. */
const JSON_TYPE = /^\s*(application\/json)\s*(?:;|$)/u;

export interface EarlyOptions {
  /** Logs the request as the server would have (Probot's server logs each; its middleware does not). */
  logRequest?: (req: IncomingMessage, res: ServerResponse) => void;
}

export function earlyAnswer(probot: Probot, { logRequest }: EarlyOptions = {}): EarlyAnswer {
  let plan: Promise<typeof import("../answer/plan.js")> | undefined;
  const decoder = new TextDecoder();
  return async (req, res) => {
    try {
      const h = req.headers;
      if (req.method !== "POST" || req.url !== probot.webhookPath || h["x-github-event"] !== "issues") return false;
      const signature = h["x-hub-signature-256"];
      const id = h["x-github-delivery"];
      if (typeof signature !== "string" || typeof id !== "string" || !req.rawBody) return false;
      if (!JSON_TYPE.test(h["content-type"] ?? "")) return false;
      // Decoded as @octokit/webhooks decodes it, so that the signature is checked over the same text.
      const text = decoder.decode(req.rawBody);
      if (!(await probot.webhooks.verify(text, signature))) return false;
      const payload = JSON.parse(text) as { action?: unknown };
      if (!ISSUE_ACTIONS.has(payload.action)) return false;
      plan ??= import("../answer/plan.js");
      if (!(await plan).ignoresIssueDelivery(payload as IssuesPayload)) return false;
      probot.log.debug({ id }, "issues delivery: nothing to answer, answered before Probot's context");
      logRequest?.(req, res);
      res
        .writeHead(200, { "content-type": "text/plain", accept: "application/json", "content-length": "3" })
        .end("ok\n");
      return true;
    } catch {
      // Unreadable JSON, a payload of another shape, a secret Probot does not have: Probot's to
      // answer, with its own error.
      return false;
    }
  };
}

/** The request log Probot's server writes (probot/lib/server/handlers/http-logger.js), for the same line. */
export function serverRequestLog(probot: Probot): (req: IncomingMessage, res: ServerResponse) => void {
  return pinoHttp({
    logger: probot.log.child({ name: "http" }),
    customSuccessMessage: (req, res) => `${req.method} ${req.url} ${res.statusCode} - ${Date.now() - res[startTime]}ms`,
    genReqId: (req) => req.headers["x-request-id"] || req.headers["x-github-delivery"] || randomUUID(),
  });
}
