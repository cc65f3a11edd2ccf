// GitHub Action entry: runs the same app function on the one event of the workflow run, with the
// workflow's token instead of an app installation (action.yml calls this after building).
import { readFileSync } from "node:fs";
import { Probot } from "probot";
import { deliveryFromEnv } from "./adapters/action-event.js";
import { productionOctokit } from "./github/octokit.js";
import app from "./index.js";

async function main(): Promise<void> {
  const token = process.env.GITHUB_TOKEN;
  if (!token) throw new Error("GITHUB_TOKEN is not set: pass `github-token` (the default is the workflow's token)");
  const delivery = deliveryFromEnv(process.env, (p) => readFileSync(p, "utf8"));
  const probot = new Probot({
    githubToken: token,
    Octokit: productionOctokit(),
    baseUrl: process.env.GITHUB_API_URL ?? "https://api.github.com",
    logLevel: (process.env.LOG_LEVEL as "info" | undefined) ?? "info",
  });
  await probot.load(app);
  await probot.receive(delivery);
}

main().catch((e) => {
  process.stderr.write(`burn-triage: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
