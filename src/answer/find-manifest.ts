// Where the reporter's manifest comes from: a Cargo.toml pasted in the issue (a workspace root
// among the snippets serves the members that inherit from it), else the repository's manifests.
// Pure: the shell fetched the repository's files before.

import { type FixOptions, type FixPlan, type ManifestFile, planFix, planWorkspaceFix } from "../cargo/fix/fix.js";
import { typoChoices } from "../cargo/fix/typo-choices.js";
import { snapshot } from "../cargo/index/registry.js";
import { featureNames } from "../cargo/judge/refusal.js";
import { isBurnDependency, isPinSource } from "../cargo/manifest/burn-version.js";
import type { Snippet } from "../cargo/manifest/extract.js";
import { manifestFacts } from "../cargo/manifest/facts.js";
import { parseManifest } from "../cargo/manifest/manifest.js";
import type { NamedFeatures } from "../evidence/named-features.js";
import type { VersionGuess } from "../evidence/version.js";

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
  /**
   * Only the workspace root was seen: `file` is a member assumed to inherit the root's burn entry
   * as it is (`burn = { workspace = true }`), and the fix is made in the root.
   */
  assumedMember?: boolean;
  /** An assumed manifest built from the features the prose names (the reporter's words). */
  named?: NamedFeatures;
  /**
   * A refused name no release has, near several (`rocn`: `rocm` or `doc`): `plan` renames it to
   * the nearest, and these to each other near name, in order; each verified on its own.
   */
  alternatives?: Array<FixPlan & { kind: "fixed" }>;
}

/**
 * Where an edit is, as a claim with its proof: the file it edits (the member read, or the
 * workspace root it inherits from, told apart by the text the edit was made on, since both were
 * pasted as `Cargo.toml`) and its line, only when that text is a whole file as the user has it. An
 * excerpt (`[dependencies]` and what follows, a wrapped line) has lines of its own: no number.
 */
export interface EditPlace {
  path: string;
  /** null: the manifest read is not the whole file, so its line numbers are not the file's. */
  line: number | null;
  /** The edit is in the workspace root (for every member inheriting it), not in the file read. */
  inRoot: boolean;
}

/** Line numbers of the text read are the file's: a whole manifest, pasted as it is or fetched. */
export function linesAreFiles(m: Pick<ManifestVerdict, "origin" | "wrapped" | "whole">): boolean {
  return m.origin !== "assumed" && !m.wrapped && m.whole;
}

export function editPlace(
  m: ManifestVerdict,
  change: { path: string; before: string; suggestion: { startLine: number } },
): EditPlace {
  const inRoot = m.root !== null && change.before === m.root.text && change.before !== m.file.text;
  // A root pasted in the issue is a whole file when it declares [workspace]; an assumed member's
  // edit is always in that root.
  const whole = inRoot || m.assumedMember === true ? /^\s*\[workspace\]/m.test(change.before) : linesAreFiles(m);
  return {
    path: change.path,
    line: whole ? change.suggestion.startLine : null,
    inRoot: inRoot || m.assumedMember === true,
  };
}

/** The plan for a manifest whose only burn is a dev-dependency: tests and examples build with it. */
function planWithDev(file: ManifestFile, fx: FixOptions): FixPlan {
  const plan = planFix(file, fx);
  // No burn among its dependencies (refused or not, as a dev- or build-dependency can be).
  const noNormalBurn = plan.kind !== "invalid-toml" && plan.diagnosis.primary === null;
  if (!noNormalBurn || !["no-burn", "refused"].includes(plan.diagnosis.verdict) || fx.includeDev) return plan;
  try {
    const m = parseManifest(file.text);
    return m.dependencies.some((d) => d.kind === "dev" && isBurnDependency(d))
      ? planFix(file, { ...fx, includeDev: true })
      : plan;
  } catch {
    return plan;
  }
}

/** The repository's manifests as the analysis receives them (github/manifests.ts reads them). */
export interface RepoManifestInput {
  repoManifests?: ManifestFile[];
  repoRoot?: ManifestFile | null;
}

/** The verdict on the manifests pasted in the text (its evidence's snippets). */
export function manifestFromText(pasted: Snippet[], fx: FixOptions): ManifestVerdict | null {
  const snippets = pasted.filter((s) => s.kind === "manifest");
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
    const judged: ManifestVerdict = { origin: "issue", plan, wrapped: s.wrapped, file, root: ownRoot, whole: s.whole };
    const verdict = withTypoChoices(judged, fx);
    if (plan.kind === "fixed" || plan.kind === "already-on" || plan.kind === "invalid-toml") return verdict;
    if (plan.kind === "no-fix" && plan.diagnosis.verdict !== "no-burn") return verdict;
    // A fragment without burn says nothing about the manifest's burn: it is not a verdict.
    if (s.whole) fallback ??= verdict;
  }
  return (root && inheritingMember(root, fx)) ?? fallback;
}

/**
 * A workspace root pasted without the member that failed: its `[workspace.dependencies]` entry
 * is what every member writing `burn = { workspace = true }` builds with, so the verdict is for
 * such a member, and the edit goes in the root (verified on that member).
 */
function inheritingMember(root: ManifestFile, fx: FixOptions): ManifestVerdict | null {
  let keys: string[];
  try {
    keys = parseManifest(root.text)
      .workspaceDependencies.filter(isBurnDependency)
      .map((d) => d.key);
  } catch {
    return null;
  }
  const key = keys.includes("burn") ? "burn" : keys[0];
  if (key === undefined) return null;
  // The key as a TOML string, whatever characters the root's key has.
  const file = {
    path: "Cargo.toml",
    text: `[package]\nname = "member"\n\n[dependencies]\n${JSON.stringify(key)} = { workspace = true }\n`,
  };
  const verdict = { origin: "issue" as const, wrapped: false, file, root, whole: true, assumedMember: true };
  return { ...verdict, plan: planFor(verdict, fx) };
}

/** The edit for a verdict's manifest: in the root for an assumed member, which is not the user's file. */
export function planFor(m: Omit<ManifestVerdict, "plan">, fx: FixOptions): FixPlan {
  return m.assumedMember && m.root ? planWorkspaceFix(m.root, m.file, fx) : planFix(m.file, { ...fx, root: m.root });
}

export function manifestFromRepo(input: RepoManifestInput, fx: FixOptions): ManifestVerdict | null {
  for (const file of input.repoManifests ?? []) {
    const root = input.repoRoot ?? null;
    const plan = planWithDev(file, { ...fx, root });
    if (plan.kind === "no-fix" && plan.diagnosis.verdict === "no-burn") continue;
    return withTypoChoices({ origin: "repository", plan, wrapped: false, file, root, whole: true }, fx);
  }
  return null;
}

/** Of the features the prose names, those burn has at `release` (none at a commit: its features are not read here). */
function namedAt(named: NamedFeatures | null, release: string | null, fx: FixOptions): NamedFeatures | null {
  if (!named || !release) return null;
  const line = (fx.registries?.tags ?? snapshot("tags")).versions("burn").find((l) => l.vers === release);
  const has = line ? featureNames(line) : null;
  const features = has ? named.features.filter((f) => has.has(f)) : [];
  return features.length > 0 ? { features, said: named.said } : null;
}

/**
 * The manifest most reports have, when none was shown: burn with default features off and the
 * features the prose names (`named`, said as the reporter's words), else `std` alone.
 */
export function assumedManifest(
  version: VersionGuess,
  fallback: string | null,
  named: NamedFeatures | null,
  fx: FixOptions,
): ManifestVerdict | null {
  // A build at a commit is assumed to declare burn from git at that commit: main's graph when it
  // is the snapshot's, else said as assumed (burn-version.ts); a release, at that release.
  const commit = version.commit && /^[0-9a-f]{7,40}$/i.test(version.commit) ? version.commit : null;
  const release = commit ? null : (version.version ?? fallback);
  if (!commit && !release) return null;
  const source = commit ? `git = "https://github.com/tracel-ai/burn", rev = "${commit}"` : `version = "${release}"`;
  const pin = commit
    ? {}
    : { burnVersion: release, burnVersionSource: isPinSource(version.source) ? version.source : "prose" };
  const judged = (features: string[]) => {
    const list = features.map((f) => JSON.stringify(f)).join(", ");
    const file = {
      path: "Cargo.toml",
      text: `[dependencies]\nburn = { ${source}, default-features = false, features = [${list}] }\n`,
    };
    return { file, plan: planFix(file, { ...fx, ...pin }) };
  };
  // The features the reporter named, when that build takes a verified edit; else the usual `std`.
  const own = namedAt(named, release, fx);
  const tried = own ? judged(own.features) : null;
  const { file, plan } = tried?.plan.kind === "fixed" ? tried : judged(["std"]);
  // At a commit the data cannot read, the assumed manifest shows no edit: it says that commit is unknown.
  const unread = plan.kind === "no-fix" && plan.diagnosis.verdict === "unknown-commit";
  if (plan.kind !== "fixed" && !unread) return null;
  const verdict: ManifestVerdict = { origin: "assumed", plan, wrapped: true, file, root: null, whole: false };
  return tried?.plan.kind === "fixed" && own ? { ...verdict, named: own } : verdict;
}

/**
 * A manifest cargo refuses for a name no release has, with several names of that release near it:
 * each near name is its own edit (cargo/fix/typo-choices.ts), the nearest the verdict's plan.
 */
function withTypoChoices(v: ManifestVerdict, fx: FixOptions): ManifestVerdict {
  const p = v.plan;
  const includeDev =
    (p.kind !== "invalid-toml" && p.diagnosis.burnDeps.some((d) => d.decl.kind === "dev")) || fx.includeDev;
  const { plan, alternatives } = typoChoices(p, (typos) =>
    planFor(v, { ...fx, includeDev, typos: { ...fx.typos, ...typos } }),
  );
  return alternatives.length > 0 || plan !== p ? { ...v, plan, alternatives } : v;
}
