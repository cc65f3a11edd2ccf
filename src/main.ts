// `npm start`: Probot's server with burn-triage's Octokit (one retry layer, request deadlines),
// and Redis used only when it answers: an unreachable REDIS_URL is one warning and in-process
// behaviour, not a server that acknowledges every delivery and never comments.
import { run } from "probot";
import { type EarlyAnswer, earlyAnswer, serverRequestLog } from "./github/early-answer.js";
import { productionOctokit } from "./github/octokit.js";
import { redisUrlOf, reserveRedisUrl } from "./github/redis-url.js";
import app from "./index.js";
import { limitServerBodies, MAX_BODY_BYTES, startProxy, startupProblem } from "./serve.js";
import { redactUrl } from "./util/redact.js";

const say = (level: number, msg: string, extra: object = {}) =>
  process.stderr.write(`${JSON.stringify({ level, time: Date.now(), msg, ...extra })}\n`);

try {
  process.loadEnvFile();
} catch {
  // no .env: the environment alone configures the server
}
const problem = startupProblem(process.env);
if (problem) {
  say(60, problem);
  process.exit(1);
}
reserveRedisUrl();
const url = redisUrlOf();
if (url && !(await (await import("./github/redis.js")).redisReachable(url))) {
  say(40, "REDIS_URL does not answer; running without Redis (in-process locks, cooldowns and retries)", {
    redis: redactUrl(url),
  });
  delete process.env.BURN_TRIAGE_REDIS_URL;
}
// smee-client as Probot starts it crashes the process on one malformed message; ours skips it.
// Setup mode (no APP_ID) keeps it: Probot registers the app with the proxy as its webhook URL.
const proxy = process.env.APP_ID ? process.env.WEBHOOK_PROXY_URL : undefined;
if (proxy) delete process.env.WEBHOOK_PROXY_URL;
// A delivery the plan ignores is answered before Probot builds its context (early-answer.ts).
let early: EarlyAnswer | undefined;
limitServerBodies(MAX_BODY_BYTES, async (req, res) => (early ? early(req, res) : false));
const server = await run(
  (probot) => {
    early = earlyAnswer(probot, { logRequest: serverRequestLog(probot) });
    app(probot);
  },
  { Octokit: productionOctokit() },
);
if (proxy) {
  const log = {
    info: (o: object, m?: string) => say(30, m ?? "", o),
    warn: (o: object, m?: string) => say(40, m ?? "", o),
  };
  await startProxy(
    proxy,
    `http://${server.host.replace(/^::1$/, "[::1]")}:${server.port}/api/github/webhooks`,
    log,
  ).catch((e) => say(50, "webhook proxy did not connect", { error: (e as Error).message }));
}
