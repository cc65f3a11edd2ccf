// burn-triage as a request handler, for serverless platforms (Vercel, Netlify, Cloud Functions)
// and any Node HTTP server. Configured from the environment like `npm start` (APP_ID,
// PRIVATE_KEY, WEBHOOK_SECRET, GHE_HOST…); webhooks are answered at /api/github/webhooks.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createNodeMiddleware, createProbot, type Probot } from "probot";
import { productionOctokit } from "./github/octokit.js";
import app from "./index.js";

export type Middleware = Awaited<ReturnType<typeof createNodeMiddleware>>;

export function burnTriageMiddleware(probot: Probot = createProbot({ overrides: { Octokit: productionOctokit() } })): Promise<Middleware> {
  return createNodeMiddleware(app, { probot });
}

let ready: Promise<Middleware> | undefined;

/** `(req, res)` handler; the app is created from the environment on the first request. */
export default async function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  ready ??= burnTriageMiddleware();
  const middleware = await ready;
  await middleware(req, res, () => {
    res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
  });
}
