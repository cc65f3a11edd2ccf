// Where the reporter's manifest comes from: a Cargo.toml pasted in the issue (a workspace root
// among the snippets serves the members that inherit from it), else the repository's manifests.
// Pure: the shell fetched the repository's files before.
import { extractSnippets } from "./cargo/extract.js";
import { isBurnDependency } from "./cargo/burn-version.js";
import { manifestFacts } from "./cargo/facts.js";
import { parseManifest } from "./cargo/manifest.js";
import { type FixOptions, type FixPlan, type ManifestFile, planFix } from "./cargo/fix.js";

export interface ManifestVerdict {
  origin: "issue" | "repository" | "assumed";
  plan: FixPlan;
  /** The manifest judged and the workspace root it inherits from. */
  file: ManifestFile;
  root: ManifestFile | null;
  /** For a snippet that had no table header: line numbers are not the user's. */
  wrapped: boolean;
  /** A whole manifest was read, not a fragment of one (only then is "declares no burn" said). */
  whole: boolean;
}

/**
 * What a fragment without a burn dependency line still shows: a `[features]` table that
 * forwards to `burn/…` proves a burn dependency the paste left out.
 */
export interface FragmentShown {
  forwards: string[];
}

/** The first pasted fragment that declares no burn crate, when the text has no usable manifest. */
export function fragmentShown(text: string): FragmentShown | null {
  for (const s of extractSnippets(text)) {
    if (s.kind !== "manifest" || s.whole) continue;
    try {
      const m = parseManifest(s.text);
      if (m.dependencies.some(isBurnDependency)) continue;
      const forwards = [...new Set(Object.values(m.features).flat().filter((f) => /^burn(?:-[a-z0-9-]+)?\??\//.test(f)))];
      return { forwards };
    } catch {
      // A fragment that does not parse shows nothing; its error is reported with the manifest.
    }
  }
  return null;
}

/** The plan for a manifest whose only burn is a dev-dependency: tests and examples build with it. */
function planWithDev(file: ManifestFile, fx: FixOptions): FixPlan {
  const plan = planFix(file, fx);
  if (plan.kind !== "no-fix" || plan.diagnosis.verdict !== "no-burn" || fx.includeDev) return plan;
  try {
    const m = parseManifest(file.text);
    return m.dependencies.some((d) => d.kind === "dev" && isBurnDependency(d)) ? planFix(file, { ...fx, includeDev: true }) : plan;
  } catch {
    return plan;
  }
}

export interface RepoManifests {
  repoManifests?: ManifestFile[];
  repoRoot?: ManifestFile | null;
}

export function manifestFromText(text: string, fx: FixOptions): ManifestVerdict | null {
  const snippets = extractSnippets(text).filter((s) => s.kind === "manifest");
  if (snippets.length === 0) return null;
  const roots = snippets.filter((s) => manifestFacts(s.text).isWorkspaceRoot);
  const root = roots[0] ? { path: "Cargo.toml", text: roots[0].text } : null;
  let fallback: ManifestVerdict | null = null;
  for (const s of [...snippets.filter((x) => !roots.includes(x)), ...roots]) {
    // `workspace = true` without the workspace root says nothing about features.
    if (!root && manifestFacts(s.text).inheritsBurn && !manifestFacts(s.text).isWorkspaceRoot) continue;
    const file = { path: "Cargo.toml", text: s.text };
    const ownRoot = s === roots[0] ? null : root;
    const plan = planWithDev(file, { ...fx, root: ownRoot });
    const verdict: ManifestVerdict = { origin: "issue", plan, wrapped: s.wrapped, file, root: ownRoot, whole: s.whole };
    if (plan.kind === "fixed" || plan.kind === "already-on" || plan.kind === "invalid-toml") return verdict;
    if (plan.kind === "no-fix" && plan.diagnosis.verdict !== "no-burn") return verdict;
    // A fragment without burn says nothing about the manifest's burn: it is not a verdict.
    if (s.whole) fallback ??= verdict;
  }
  return fallback;
}

export function manifestFromRepo(input: RepoManifests, fx: FixOptions): ManifestVerdict | null {
  for (const file of input.repoManifests ?? []) {
    const root = input.repoRoot ?? null;
    const plan = planWithDev(file, { ...fx, root });
    if (plan.kind === "no-fix" && plan.diagnosis.verdict === "no-burn") continue;
    return { origin: "repository", plan, wrapped: false, file, root, whole: true };
  }
  return null;
}

