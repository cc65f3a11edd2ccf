// `npm start`: Probot's server with burn-triage's Octokit (one retry layer, request deadlines),
// and Redis used only when it answers: an unreachable REDIS_URL is one warning and in-process
// behaviour, not a server that acknowledges every delivery and never comments.
import { run } from "probot";
import { redisReachable } from "./github/redis.js";
import { productionOctokit } from "./github/octokit.js";
import app from "./index.js";
import { redactUrl } from "./redact.js";

try {
  process.loadEnvFile();
} catch {
  // no .env: the environment alone configures the server
}
const url = process.env.REDIS_URL;
if (url && !(await redisReachable(url))) {
  process.stderr.write(`${JSON.stringify({ level: 40, msg: "REDIS_URL does not answer; running without Redis (in-process locks, cooldowns and retries)", redis: redactUrl(url) })}\n`);
  delete process.env.REDIS_URL;
}
await run(app, { Octokit: productionOctokit() });
