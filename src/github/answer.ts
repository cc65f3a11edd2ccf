// What the bot's comment on an issue would say: the plan's reads (repository manifests, burn's
// graph, burn's source at a newer tag) and the analysis. The issue handler and `scan` both call
// it; scan with the repository's manifests read once for all issues.
import { type Analysis, type AnalyzeInput, analyzeWithSources, indexRoots } from "../answer/analyze.js";
import type { IssuePlan } from "../answer/plan.js";
import { registries } from "../cargo/index/live-registries.js";
import { readBurnSources } from "./burn-source.js";
import type { Deps } from "./deps.js";
import { repoManifests } from "./manifests.js";
import type { Log, Octokit, RepoRef } from "./types.js";

export interface Gathering {
  octokit: Octokit;
  log: Log;
  repo(): RepoRef;
}

type Answer = Extract<IssuePlan, { kind: "answer" }>;

/** Analyzes; for a release newer than the data, reads the burn files it asks for at that tag. */
export async function withSources(
  context: Pick<Gathering, "octokit" | "log">,
  deps: Pick<Deps, "coordination">,
  input: AnalyzeInput,
): Promise<Analysis> {
  return analyzeWithSources(input, async (reads) =>
    readBurnSources(context.octokit, reads, await deps.coordination(), context.log),
  );
}

export async function gatherAnswer(
  context: Gathering,
  deps: Pick<Deps, "coordination">,
  plan: Answer,
  readRepository = () => repoManifests(context.octokit, context.repo(), context.log),
): Promise<Analysis> {
  const { text, featureOff } = plan;
  const repo = plan.readRepository ? await readRepository() : null;
  const index = featureOff ? await registries(context.log, indexRoots(text, repo?.manifests)) : undefined;
  return withSources(context, deps, {
    text,
    repoManifests: repo?.manifests,
    repoRoot: repo?.root,
    repoLock: repo?.lock,
    registries: index,
  });
}
