// GitHub Action entry: runs the same app function on the one event of the workflow run, with the
// workflow's token instead of an app installation. action.yml runs its bundle, dist/action.js.
import { readFileSync } from "node:fs";
import { Probot } from "probot";
import { deliveryFromEnv } from "./adapters/action-event.js";
import { apiBaseUrl, productionOctokit } from "./github/octokit.js";
import app from "./index.js";

async function main(): Promise<void> {
  // A JavaScript action receives its inputs as INPUT_<NAME>; GITHUB_TOKEN serves a plain `run:` step.
  const token = process.env["INPUT_GITHUB-TOKEN"] || process.env.GITHUB_TOKEN;
  if (!token)
    throw new Error("no token: pass `github-token` (the default is the workflow's token) or set GITHUB_TOKEN");
  const delivery = deliveryFromEnv(process.env, (p) => readFileSync(p, "utf8"));
  const probot = new Probot({
    githubToken: token,
    Octokit: productionOctokit(),
    baseUrl: apiBaseUrl(),
    logLevel: (process.env.LOG_LEVEL as "info" | undefined) ?? "info",
  });
  await probot.load(app);
  await probot.receive(delivery);
}

main().catch((e) => {
  process.stderr.write(`burn-triage: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
