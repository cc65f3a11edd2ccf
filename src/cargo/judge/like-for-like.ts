// Which of a removed feature's replacements is the like-for-like one. burn's history lists
// `server` → `remote-server` or `remote-websocket` with no order; the resolver tells them apart:
// at the last release that had it, `server` brought in burn-remote with `tokio-tungstenite` and
// `axum` (the websocket transport); at the release that refuses it, `remote-websocket` still brings
// those in and `remote-server` does not (it brings `iroh`). The replacement that keeps the most of
// what the removed feature brought in comes first; among equals, the one that brings in fewest
// crates; then the history's order. Pure: the index lines and the resolver only.
import * as semver from "../../util/semver.js";
import type { IndexLine } from "../index/index-file.js";
import { allFeatures, type Registry } from "../index/registry.js";
import { DIAGNOSIS_STEPS, resolve, WorkBudget } from "../resolve/resolve.js";

export interface Ranked {
  /** The replacements, like-for-like first. */
  replacement: string[];
  /** The last release that had the removed feature (what it brought in was read there). */
  from: string;
  /** Crates the removed feature brought in that the first keeps and some other replacement drops. */
  kept: string[];
}

/** The crates `features` bring in on `line` beyond what the line brings in with none. */
function broughtIn(line: IndexLine, features: string[], registry: Registry, budget: WorkBudget): Set<string> {
  const base = resolve(line, [], { registry, budget }).named;
  return new Set([...resolve(line, features, { registry, budget }).named].filter((c) => !base.has(c)));
}

/**
 * `replacement` of `crate`'s `feature` (removed before `version`) ranked like-for-like first, or
 * null when nothing can be compared (one replacement, no earlier release, a graph too large).
 */
export function rankReplacements(
  crate: string,
  feature: string,
  version: string,
  replacement: string[],
  registry: Registry,
): Ranked | null {
  if (replacement.length < 2) return null;
  const lines = registry.versions(crate);
  const now = lines.find((l) => l.vers === version);
  const before = lines
    .filter((l) => semver.lt(l.vers, version) && Object.hasOwn(allFeatures(l), feature))
    .sort((a, b) => semver.compare(a.vers, b.vers))
    .at(-1);
  if (!now || !before) return null;
  try {
    // Its own budget: the ranking is an aside of a refusal, never the reason a diagnosis fails.
    const budget = new WorkBudget(DIAGNOSIS_STEPS);
    const old = broughtIn(before, [feature], registry, budget);
    const each = replacement.map((r, i) => {
      const brings = broughtIn(now, [r], registry, budget);
      return { r, i, brings, keeps: [...old].filter((c) => brings.has(c)) };
    });
    each.sort((a, b) => b.keeps.length - a.keeps.length || a.brings.size - b.brings.size || a.i - b.i);
    const [first, ...rest] = each;
    const kept = first!.keeps.filter((c) => rest.some((o) => !o.brings.has(c)));
    return { replacement: each.map((e) => e.r), from: before.vers, kept };
  } catch {
    // A budget exceeded or a crate the index could not give: the history's order stands.
    return null;
  }
}
