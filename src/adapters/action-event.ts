// What a GitHub Actions runner hands a workflow step, turned into one webhook delivery.
import type { Probot } from "probot";

export type ActionDelivery = Parameters<Probot["receive"]>[0];

/**
 * `pull_request_target` carries a `pull_request` payload; the app answers it as one (it reads
 * the PR's files through the API and never checks out or runs the PR's code, so the base
 * repository's token is safe to use here).
 */
const EVENT_ALIASES: Record<string, string> = { pull_request_target: "pull_request" };

export function deliveryFromEnv(env: NodeJS.ProcessEnv, readFile: (path: string) => string): ActionDelivery {
  const event = env.GITHUB_EVENT_NAME;
  const path = env.GITHUB_EVENT_PATH;
  if (!event || !path)
    throw new Error("GITHUB_EVENT_NAME and GITHUB_EVENT_PATH must be set (run this inside a GitHub Actions workflow)");
  let payload: unknown;
  try {
    payload = JSON.parse(readFile(path));
  } catch (e) {
    throw new Error(`cannot read the event payload at GITHUB_EVENT_PATH: ${(e as Error).message}`);
  }
  return {
    id: `${env.GITHUB_RUN_ID ?? "local"}-${env.GITHUB_RUN_ATTEMPT ?? "1"}`,
    name: (EVENT_ALIASES[event] ?? event) as ActionDelivery["name"],
    payload,
  } as ActionDelivery;
}
