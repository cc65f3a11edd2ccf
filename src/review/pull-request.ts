// The pure core of PR review: a snapshot of everything the shell read (changed manifests at base
// and head, the roots that govern them, the members a root change reaches, gradient evidence,
// the bot's previous review) in; what to say, as data, out (render/review.ts words it). The
// handler and the CLI both call it.
import { isBurnDependency } from "../cargo/burn-version.js";
import { inheritsBurnFrom, manifestFacts } from "../cargo/facts.js";
import type { ManifestFile } from "../cargo/fix.js";
import { type Manifest, parseManifest } from "../cargo/manifest.js";
import { ancestorManifests, governingRoot, membersOf } from "../cargo/workspace.js";
import type { GradientUse } from "./evidence.js";
import {
  commentableLines,
  type ManifestReview,
  type Regression,
  reviewManifest,
  reviewWorkspaceRoot,
} from "./manifest.js";

export interface ChangedManifest {
  path: string;
  status: string;
  previousPath?: string;
  patch?: string;
}

/** What the bot's last review says now: a problem still open, fixed, or replaced by a newer review. */
export type ReviewState = "open" | "fixed" | "superseded";

/** A crate whose build lost autodiff, and where its code asks for gradients (null: assumed, not read). */
export interface NeedsGradients {
  manifest: string;
  evidence: GradientUse | null;
}

type Regressed = Extract<ManifestReview, { kind: "regression" | "regression-unfixable" }>;
export type Problem = Extract<ManifestReview, { kind: "invalid-toml" }> | (Regressed & { crates: NeedsGradients[] });
export type Unresolved = Extract<ManifestReview, { kind: "unresolved" }>;

export interface PreviousReview {
  id: number;
  sha: string | null;
  state: ReviewState;
}

export interface PrSnapshot {
  repo: { owner: string; repo: string };
  headSha: string;
  changed: ChangedManifest[];
  /** Manifest texts read at each side, by path; null when absent or unreadable there. */
  head: Record<string, string | null>;
  base: Record<string, string | null>;
  /** Every file path at the head commit. */
  tree: string[];
  /** Gradient evidence by crate manifest path; null when its sources were read and show none. */
  evidence: Record<string, GradientUse | null>;
  previous: { review: PreviousReview | null; checkRunId: number | null };
  /** Caps that were hit while gathering, said in the review and the check. */
  notices: string[];
  options: {
    checkRun: boolean;
    conclusion: "neutral" | "failure";
    reviewBurnRepo: boolean;
    /** The CLI has no sources to read: a regression is reported, saying gradients were assumed. */
    assumeGradients?: boolean;
  };
}

/** What the review decided, as data; `render/review.ts` writes the review, the edit and the check. */
export interface ReviewDecision {
  /** Why nothing is said, for the log; null when something is. */
  silent: string | null;
  problems: Problem[];
  unresolved: Unresolved[];
  /** Write the check run (conclusion from the problems), updating `existingId` when there is one. */
  check: { existingId: number | null; conclusion: "success" | "neutral" | "failure" } | null;
  /** Post a new review of the problems at this head. */
  review: boolean;
  /** The earlier review's new state, when it changes. */
  previous: { id: number; state: "fixed" | "superseded" } | null;
  /** Regressions whose lines are in the diff: each gets a suggestion on its line. */
  suggestions: Array<Regression & { crates: NeedsGradients[] }>;
}

function parsed(text: string | null | undefined): Manifest | null {
  if (!text) return null;
  try {
    return parseManifest(text);
  } catch {
    return null;
  }
}

const baseTextOf = (s: Pick<PrSnapshot, "base">, f: ChangedManifest) =>
  f.status === "added" ? null : (s.base[f.previousPath ?? f.path] ?? null);

/** A changed root whose `[workspace.dependencies]` declares burn (at either side). */
function isBurnRoot(head: string | null, base: string | null): boolean {
  const m = parsed(head);
  return (
    m?.isWorkspaceRoot === true &&
    (manifestFacts(head!).workspaceBurn || (base !== null && manifestFacts(base).workspaceBurn))
  );
}

/**
 * The manifests to read after the changed ones: the ancestors of a changed member that inherits
 * burn (its root may be any of them), and the members of a changed root that declares burn.
 * In a stable order, so a cap cuts the same files every time.
 */
export function manifestReads(s: Pick<PrSnapshot, "changed" | "head" | "base" | "tree">): string[] {
  const tree = new Set(s.tree);
  const wanted = new Set<string>();
  for (const f of s.changed) {
    const head = s.head[f.path] ?? null;
    const base = baseTextOf(s, f);
    const inherits =
      (head !== null && manifestFacts(head).inheritsAny) || (base !== null && manifestFacts(base).inheritsAny);
    if (inherits) for (const a of ancestorManifests(f.path, tree)) wanted.add(a);
    if (isBurnRoot(head, base)) for (const m of membersOf(f.path, parsed(head)!, tree)) wanted.add(m);
  }
  for (const f of s.changed) wanted.delete(f.path);
  return [...wanted].sort();
}

function rootAt(
  side: Record<string, string | null>,
  path: string,
  self: Manifest,
  tree: ReadonlySet<string>,
): ManifestFile | null {
  const rootPath = governingRoot(path, self, ancestorManifests(path, tree), (p) => parsed(side[p]));
  // A root package inherits from its own `[workspace.dependencies]`: it is its own root.
  if (rootPath === null) return null;
  const text = side[rootPath];
  return text ? { path: rootPath, text } : null;
}

/** Every changed manifest judged on its own graph and its own workspace (no gradient evidence yet). */
export function assess(s: PrSnapshot): ManifestReview[] {
  const tree = new Set(s.tree);
  const out: ManifestReview[] = [];
  for (const f of s.changed) {
    const head = s.head[f.path];
    if (head === null || head === undefined) continue;
    const base = baseTextOf(s, f);
    const commentable = commentableLines(f.patch);
    const self = parsed(head);
    if (self && isBurnRoot(head, base)) {
      const members = membersOf(f.path, self, tree)
        .filter((p) => s.head[p] && inheritsBurnFrom(s.head[p]!, self))
        .map((p) => ({ path: p, head: s.head[p]!, base: s.base[p] ?? null }));
      out.push(...reviewWorkspaceRoot({ path: f.path, base, head, members, commentable }));
      // The root's own package, if it has one, is judged like any other.
      if (!self.dependencies.some(isBurnDependency)) continue;
    }
    const baseSelf = parsed(base);
    out.push(
      reviewManifest({
        path: f.path,
        base,
        head,
        headRoot: self ? rootAt(s.head, f.path, self, tree) : null,
        baseRoot: baseSelf ? rootAt(s.base, f.previousPath ?? f.path, baseSelf, tree) : null,
        commentable,
      }),
    );
  }
  return out;
}

const isRegression = (
  r: ManifestReview,
): r is Extract<ManifestReview, { kind: "regression" | "regression-unfixable" }> =>
  r.kind === "regression" || r.kind === "regression-unfixable";

/** The crates whose sources decide whether a regression matters, not yet looked at. */
export function evidenceNeeded(s: PrSnapshot): string[] {
  return [
    ...new Set(
      assess(s)
        .filter(isRegression)
        .map((r) => r.crateManifest),
    ),
  ]
    .filter((p) => !(p in s.evidence))
    .sort();
}

/** burn's own repository (or a fork): its manifests are burn's, reviewed by burn's maintainers. */
export function isBurnRepository(s: Pick<PrSnapshot, "tree" | "head">): boolean {
  return (
    s.tree.includes("crates/burn-dispatch/Cargo.toml") ||
    parsed(s.head["Cargo.toml"])?.members.some((m) => m.includes("burn-dispatch")) === true
  );
}

export function decidePullRequest(s: PrSnapshot): ReviewDecision {
  const none: ReviewDecision = {
    silent: null,
    problems: [],
    unresolved: [],
    check: null,
    review: false,
    previous: null,
    suggestions: [],
  };
  if (isBurnRepository(s) && !s.options.reviewBurnRepo)
    return { ...none, silent: "burn's own repository (pull_requests.review_burn_repo is off)" };
  const assessed = assess(s);
  const problems: Problem[] = [];
  const unresolved = assessed.filter((r): r is Unresolved => r.kind === "unresolved");
  let burn = assessed.some((r) => r.kind !== "fine" || r.burn);
  // Regressions of one root line are one problem, whichever member comes first.
  const byRoot = new Map<string, Problem & { kind: "regression" | "regression-unfixable" }>();
  for (const r of assessed) {
    if (r.kind === "invalid-toml") problems.push(r);
    if (!isRegression(r)) continue;
    const evidence = s.evidence[r.crateManifest];
    if (evidence === null || (evidence === undefined && !s.options.assumeGradients)) continue; // a crate that never asks for gradients
    const needs = { manifest: r.crateManifest, evidence: evidence ?? null };
    const key = `${r.path}\u0000${r.member ? "root" : r.crateManifest}`;
    const seen = byRoot.get(key);
    if (seen) seen.crates.push(needs);
    else {
      const p = { ...r, crates: [needs] } as Problem & { kind: "regression" | "regression-unfixable" };
      byRoot.set(key, p);
      problems.push(p);
    }
    burn = true;
  }
  const prev = s.previous.review;
  const d: ReviewDecision = { ...none, problems, unresolved };
  if (s.options.checkRun && (burn || problems.length > 0 || unresolved.length > 0)) {
    d.check = {
      existingId: s.previous.checkRunId,
      conclusion: problems.length > 0 ? s.options.conclusion : unresolved.length > 0 ? "neutral" : "success",
    };
  }
  if (problems.length === 0) {
    // Say the earlier problem is gone only when it is known to be gone.
    if (prev?.state === "open" && unresolved.length === 0) d.previous = { id: prev.id, state: "fixed" };
    return { ...d, silent: burn ? null : "no change to burn-dispatch/autodiff" };
  }
  if (prev?.sha === s.headSha) return { ...d, silent: "this head is already reviewed" };
  d.review = true;
  d.suggestions = problems.filter(
    (p): p is Regression & { crates: NeedsGradients[] } => p.kind === "regression" && p.inDiff,
  );
  if (prev?.state === "open") d.previous = { id: prev.id, state: "superseded" };
  return d;
}
