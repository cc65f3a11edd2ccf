// cargo's refusal pasted in an issue (`package `myapp` depends on `burn` with feature `server`
// but `burn` does not have that feature.`): the release cargo tried, every feature the reporter's
// manifest names that the release lacks (cargo names one per run), and what burn's history says
// of each. Pure: text (and the repository's manifests, when the shell read them) in.

import { snapshot } from "../cargo/index/registry.js";
import { type CargoRefusal, detectCargoRefusal } from "../cargo/judge/cargo-error.js";
import { ACCEPTED, historyOf, type Refusal } from "../cargo/judge/refusal.js";
import { type Evidence, gatherEvidence } from "../evidence/index.js";
import * as semver from "../util/semver.js";
import type { AnalyzeInput } from "./analyze-input.js";
import { type ManifestVerdict, manifestFromRepo, manifestFromText } from "./find-manifest.js";

export interface RefusalAnalysis {
  found: CargoRefusal;
  /** The release cargo tried: the newest of the versions its message lists (null: none listed). */
  version: string | null;
  /** The reporter's manifest, judged at its own release (its verdict says every feature cargo refuses). */
  manifest: ManifestVerdict | null;
  /** burn's history of the feature cargo named, at that release (null: no release to judge at). */
  history: Refusal["history"] | null;
}

export function analyzeRefusal(
  input: AnalyzeInput,
  gather: () => Evidence = () => gatherEvidence(input.text, input.repoLock),
): RefusalAnalysis | null {
  const found = detectCargoRefusal(input.text);
  if (!found) return null;
  const version =
    [...found.versions]
      .filter((v) => semver.valid(v))
      .sort(semver.compare)
      .at(-1) ?? null;
  const evidence = gather();
  // Only what cargo refuses is edited: no feature the reporter did not ask about is added.
  const fx = { platform: input.platform, registries: input.registries, target: ACCEPTED };
  const manifest = manifestFromText(evidence.snippets, fx) ?? manifestFromRepo(input, fx);
  const registry = input.registries?.tags ?? snapshot("tags");
  const known = version !== null && registry.versions(found.crate).some((l) => l.vers === version);
  return {
    found,
    version,
    manifest,
    history: known ? historyOf(found.crate, found.feature, version, registry) : null,
  };
}
