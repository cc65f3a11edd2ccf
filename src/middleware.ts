// burn-triage as a request handler, for serverless platforms (Vercel, Netlify, Cloud Functions)
// and any Node HTTP server. Configured from the environment like `npm start` (APP_ID,
// PRIVATE_KEY, WEBHOOK_SECRET, GHE_HOST…); webhooks are answered at /api/github/webhooks.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createNodeMiddleware, createProbot, type Probot } from "probot";
import { earlyAnswer } from "./github/early-answer.js";
import { productionOctokit } from "./github/octokit.js";
import { reserveRedisUrl } from "./github/redis-url.js";
import app from "./index.js";
import { limitBody, startupProblem } from "./serve.js";

export type Middleware = Awaited<ReturnType<typeof createNodeMiddleware>>;

export async function burnTriageMiddleware(probot?: Probot): Promise<Middleware> {
  if (!probot) {
    const problem = startupProblem(process.env);
    if (problem) throw new Error(problem);
    reserveRedisUrl();
  }
  const instance = probot ?? createProbot({ overrides: { Octokit: productionOctokit() } });
  const early = earlyAnswer(instance);
  const middleware = await createNodeMiddleware(app, { probot: instance });
  // A delivery the plan ignores is answered before Probot builds its context (early-answer.ts),
  // when the body was read into rawBody first (as the default handler below reads it).
  return async (req, res, next) => (await early(req, res)) || middleware(req, res, next);
}

let ready: Promise<Middleware> | undefined;

/** `(req, res)` handler; the app is created from the environment on the first request. */
export default async function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  ready ??= burnTriageMiddleware();
  const middleware = await ready;
  // The body is read with GitHub's 25 MiB limit before Probot sees it, never buffered past it.
  await new Promise<void>((done) => {
    res.on("close", () => done());
    limitBody((r, s) => {
      void Promise.resolve(
        middleware(r, s, () => {
          s.writeHead(404, { "content-type": "text/plain" }).end("Not found");
        }),
      ).finally(done);
    })(req, res);
  });
}
