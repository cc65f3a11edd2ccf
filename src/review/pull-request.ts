// The pure core of PR review: a snapshot of everything the shell read (changed manifests at base
// and head, the roots that govern them, the members a root change reaches, each rule's evidence,
// the bot's previous review) in; what to say, as data, out (render/review.ts words it). The
// handler and the CLI both call it. Every rule of data/review-rules.yml is judged the same way.

import type { ManifestFile } from "../cargo/fix/fix.js";
import { isBurnDependency } from "../cargo/manifest/burn-version.js";
import { inheritsBurnFrom, manifestFacts } from "../cargo/manifest/facts.js";
import { GlobBudget } from "../cargo/manifest/glob.js";
import { type Manifest, parseManifest } from "../cargo/manifest/manifest.js";
import { burnPathManifest, crateVersionReads } from "../cargo/manifest/path-version.js";
import { ancestorManifests, governingRoot, membersOf } from "../cargo/manifest/workspace.js";
import { type FeatureUse, matcherFor, type UseMatcher, underOwnFeature } from "./evidence.js";
import {
  commentableLines,
  type ManifestReview,
  type Regression,
  reviewManifest,
  reviewWorkspaceRoot,
} from "./manifest.js";
import { memberPins, pathPin } from "./pins.js";
import { type ReviewRule, reviewRules, ruleById } from "./rules.js";
import { shareFixes } from "./shared-fix.js";

export interface ChangedManifest {
  path: string;
  status: string;
  previousPath?: string;
  patch?: string;
}

/** What the bot's last review says now: a problem still open, fixed, or replaced by a newer review. */
export type ReviewState = "open" | "fixed" | "superseded";

/** A crate whose build lost a rule's feature, and where its code needs it (null: assumed, not read). */
export interface NeedingCrate {
  manifest: string;
  evidence: FeatureUse | null;
}

type Regressed = Extract<ManifestReview, { kind: "regression" | "regression-unfixable" }>;
/** A manifest cargo stops at (it does not parse, or it names a feature its release lacks): every rule's problem. */
export type Broken = Extract<ManifestReview, { kind: "invalid-toml" | "refused" }>;
export const isBroken = (p: { kind: string }): p is Broken => p.kind === "invalid-toml" || p.kind === "refused";
export type Problem = Broken | (Regressed & { crates: NeedingCrate[] });
export type Unresolved = Extract<ManifestReview, { kind: "unresolved" }>;

export interface PreviousReview {
  id: number;
  sha: string | null;
  state: ReviewState;
  /** The rules it spoke for (a marker from before rules were data spoke for autodiff). */
  rules: string[];
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
  /** Evidence by rule id, then crate manifest path; null when its sources were read and show none. */
  evidence: Record<string, Record<string, FeatureUse | null>>;
  /** The bot's last review, and its check run at this head per rule id (null: none yet). */
  previous: { review: PreviousReview | null; checkRuns: Record<string, number | null> };
  /** Caps that were hit while gathering, said in the review and the check. */
  notices: string[];
  /** The `burn::…` paths the sources read import, by crate manifest (an edit restores what they need). */
  imports?: Record<string, string[]>;
  /** Crates whose sources were looked for and none could be read: whether their code needs a feature is unknown. */
  noSources?: string[];
  /** Files this change reaches that a bound left unread (said in the notices): nothing is "fine" then. */
  unread?: string[];
  options: {
    checkRun: boolean;
    conclusion: "neutral" | "failure";
    reviewBurnRepo: boolean;
    /**
     * No sources were read (a CLI run on two manifests): a regression of a rule that always speaks
     * is reported, saying the need was assumed; a rule that speaks when it finds a use stays quiet.
     */
    assumeEvidence?: boolean;
    /** The tree holds only the files read (a CLI pair): a burn root with no member in it is not judged. */
    partialTree?: boolean;
  };
}

/** What the review decided, as data; `render/review.ts` writes the review, the edit and the check. */
export interface ReviewDecision {
  /** Why nothing is said, for the log; null when something is. */
  silent: string | null;
  problems: Problem[];
  unresolved: Unresolved[];
  /** The check runs to write, one per rule that has one (conclusion from its problems), updating `existingId`. */
  checks: CheckDecision[];
  /** Post a new review of the problems at this head. */
  review: boolean;
  /** The earlier review's new state, when it changes, with the rules it spoke for. */
  previous: { id: number; state: "fixed" | "superseded"; rules: string[] } | null;
  /** Regressions whose lines are in the diff: each gets a suggestion on its line. */
  suggestions: Array<Regression & { crates: NeedingCrate[] }>;
  /** Edits past cargo's refusal whose lines are in the diff: suggestions on those lines. */
  refusalSuggestions: Array<Extract<Problem, { kind: "refused" }>>;
}

export interface CheckDecision {
  rule: string;
  existingId: number | null;
  conclusion: "success" | "neutral" | "failure";
  problems: Problem[];
  unresolved: Unresolved[];
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
/** One budget for all glob matching over one pull request's tree (keyed by the tree it reads). */
const budgets = new WeakMap<readonly string[], GlobBudget>();
function globBudget(tree: readonly string[]): GlobBudget {
  const b = budgets.get(tree) ?? new GlobBudget();
  budgets.set(tree, b);
  return b;
}

export function manifestReads(s: Pick<PrSnapshot, "changed" | "head" | "base" | "tree">): string[] {
  const tree = new Set(s.tree);
  const wanted = new Set<string>();
  for (const f of s.changed) {
    const head = s.head[f.path] ?? null;
    const base = baseTextOf(s, f);
    const inherits =
      (head !== null && manifestFacts(head).inheritsAny) || (base !== null && manifestFacts(base).inheritsAny);
    if (inherits) for (const a of ancestorManifests(f.path, tree)) wanted.add(a);
    if (isBurnRoot(head, base))
      for (const m of membersOf(f.path, parsed(head)!, tree, globBudget(s.tree))) wanted.add(m);
  }
  for (const f of s.changed) wanted.delete(f.path);
  return [...wanted].sort();
}

/**
 * The manifests that name the version of a burn checkout a changed manifest's path dependency
 * points to (the crate's Cargo.toml and those above it in the tree), read after the roots, since
 * an inherited path is written in the root.
 */
export function pathCrateReads(s: Pick<PrSnapshot, "changed" | "head" | "base" | "tree">): string[] {
  const tree = new Set(s.tree);
  const wanted = new Set<string>();
  for (const f of s.changed)
    for (const [side, path, text] of [
      [s.head, f.path, s.head[f.path]],
      [s.base, f.previousPath ?? f.path, baseTextOf(s, f)],
    ] as const) {
      const self = parsed(text);
      if (!self) continue;
      const root = rootAt(side, path, self, tree, globBudget(s.tree));
      const rootManifest = root && parsed(root.text);
      const target = burnPathManifest(path, self, rootManifest ? { path: root!.path, manifest: rootManifest } : null);
      if (target && tree.has(target))
        for (const p of crateVersionReads(target, tree)) if (!(p in s.head)) wanted.add(p);
    }
  return [...wanted].sort();
}

function rootAt(
  side: Record<string, string | null>,
  path: string,
  self: Manifest,
  tree: ReadonlySet<string>,
  budget: GlobBudget,
): ManifestFile | null {
  const rootPath = governingRoot(path, self, ancestorManifests(path, tree), (p) => parsed(side[p]), budget);
  // A root package inherits from its own `[workspace.dependencies]`: it is its own root.
  if (rootPath === null) return null;
  const text = side[rootPath];
  return text ? { path: rootPath, text } : null;
}

/**
 * Every changed manifest judged for every rule on its own graph and its own workspace (no evidence
 * yet). Kept per snapshot and rule (gathering, the decision and the answer all ask; a 1,000-member
 * workspace costs seconds a pass); the shell only adds manifests, so their counts say what changed.
 */
const assessed = new WeakMap<PrSnapshot, { key: string; byRule: Map<ReviewRule, ManifestReview[]> }>();

export function assess(s: PrSnapshot, rules: readonly ReviewRule[] = reviewRules()): ManifestReview[] {
  return assessByRule(s, rules).flat();
}

/** The same assessment, one list per rule in the rules' order (the answer names each result's rule). */
export function assessByRule(s: PrSnapshot, rules: readonly ReviewRule[] = reviewRules()): ManifestReview[][] {
  const sizes = [s.changed, s.tree, Object.keys(s.head), Object.keys(s.base), Object.keys(s.imports ?? {})];
  const key = sizes.map((x) => x.length).join(":");
  const known = assessed.get(s);
  const memo = known?.key === key ? known.byRule : new Map<ReviewRule, ManifestReview[]>();
  assessed.set(s, { key, byRule: memo });
  return rules.map((rule) => {
    const out = memo.get(rule) ?? assessRule(s, rule);
    memo.set(rule, out);
    return out;
  });
}

function assessRule(s: PrSnapshot, rule: ReviewRule): ManifestReview[] {
  const tree = new Set(s.tree);
  const out: ManifestReview[] = [];
  const diffLines = new Map(s.changed.map((f) => [f.path, commentableLines(f.patch)]));
  for (const f of s.changed) {
    const head = s.head[f.path];
    if (head === null || head === undefined) continue;
    const base = baseTextOf(s, f);
    const commentable = diffLines.get(f.path)!;
    const self = parsed(head);
    if (self && isBurnRoot(head, base)) {
      const members = membersOf(f.path, self, tree, globBudget(s.tree))
        .filter((p) => s.head[p] && inheritsBurnFrom(s.head[p]!, self))
        .map((p) => ({ path: p, head: s.head[p]!, base: s.base[p] ?? null }))
        .map((m) => ({ ...m, pins: memberPins(s, f.path, m, { head, base }) }));
      // The root declares burn: it is a burn manifest whatever its members' judgements say, so
      // a change that moves none of them (a version bump of the workspace) still gets its check.
      out.push({ kind: "fine", path: f.path, burn: true });
      if (members.length === 0 && s.options.partialTree)
        out.push({ kind: "unresolved", rule: rule.id, path: f.path, why: { kind: "members-unseen" } });
      out.push(...reviewWorkspaceRoot({ path: f.path, base, head, members, commentable, diffLines }, rule));
      // The root's own package, if it has one, is judged like any other.
      if (!self.dependencies.some(isBurnDependency)) continue;
    }
    const baseSelf = parsed(base);
    const headRoot = self ? rootAt(s.head, f.path, self, tree, globBudget(s.tree)) : null;
    const basePath = f.previousPath ?? f.path;
    const baseRoot = baseSelf ? rootAt(s.base, basePath, baseSelf, tree, globBudget(s.tree)) : null;
    const pins = { head: pathPin(s.head, f.path, head, headRoot), base: pathPin(s.base, basePath, base, baseRoot) };
    const imports = s.imports?.[f.path];
    out.push(
      reviewManifest({ path: f.path, base, head, headRoot, baseRoot, commentable, diffLines, pins, imports }, rule),
    );
  }
  return out;
}

const isRegression = (
  r: ManifestReview,
): r is Extract<ManifestReview, { kind: "regression" | "regression-unfixable" }> =>
  r.kind === "regression" || r.kind === "regression-unfixable";

/** What to look for in one crate's sources: per rule, its matcher at the head's burn release, or a gap. */
export interface EvidenceWanted {
  manifest: string;
  lookFor: Array<{ rule: string; matcher: UseMatcher | { gap: true } }>;
}

/** The crates whose sources decide whether a regression matters, not yet looked at, in a stable order. */
export function evidenceNeeded(s: PrSnapshot, rules: readonly ReviewRule[] = reviewRules()): EvidenceWanted[] {
  const byCrate = new Map<string, EvidenceWanted>();
  for (const r of assess(s, rules).filter(isRegression)) {
    if (r.crateManifest in (s.evidence[r.rule] ?? {}) || s.noSources?.includes(r.crateManifest)) continue;
    const rule = rules.find((x) => x.id === r.rule)!;
    const wanted = byCrate.get(r.crateManifest) ?? { manifest: r.crateManifest, lookFor: [] };
    byCrate.set(r.crateManifest, wanted);
    if (!wanted.lookFor.some((l) => l.rule === rule.id))
      wanted.lookFor.push({ rule: rule.id, matcher: matcherFor(rule, r.after.graphVersion) });
  }
  return [...byCrate.values()].sort((a, b) => a.manifest.localeCompare(b.manifest));
}

/** A regression in a crate with no source read is unknown, never "no use" (unless the need is assumed). */
export function sourcesUnseen(r: Regressed, s: PrSnapshot): Unresolved | null {
  if (s.options.assumeEvidence || s.evidence[r.rule]?.[r.crateManifest] !== undefined) return null;
  if (!s.noSources?.includes(r.crateManifest)) return null;
  const member = r.member ? { member: r.member } : {};
  return { kind: "unresolved", rule: r.rule, path: r.path, ...member, why: { kind: "sources-unseen" } };
}

/** burn's own repository (or a fork): its manifests are burn's, reviewed by burn's maintainers. */
export function isBurnRepository(s: Pick<PrSnapshot, "tree" | "head">): boolean {
  return (
    s.tree.includes("crates/burn-dispatch/Cargo.toml") ||
    parsed(s.head["Cargo.toml"])?.members.some((m) => m.includes("burn-dispatch")) === true
  );
}

export function decidePullRequest(s: PrSnapshot, rules: readonly ReviewRule[] = reviewRules()): ReviewDecision {
  const none: ReviewDecision = {
    silent: null,
    problems: [],
    unresolved: [],
    checks: [],
    review: false,
    previous: null,
    suggestions: [],
    refusalSuggestions: [],
  };
  if (isBurnRepository(s) && !s.options.reviewBurnRepo)
    return { ...none, silent: "burn's own repository (pull_requests.review_burn_repo is off)" };
  const assessed = assess(s, rules);
  const problems: Problem[] = [];
  const prev = s.previous.review;
  // What a rule cannot judge is said by rules that always speak, and by one the open review spoke for.
  const speaks = (id: string) => ruleById(id, rules)?.check === "always" || prev?.rules.includes(id) === true;
  const unresolved = assessed.filter((r): r is Unresolved => r.kind === "unresolved" && speaks(r.rule));
  let burn = assessed.some((r) => (r.kind === "fine" ? r.burn : r.kind !== "unresolved" || speaks(r.rule)));
  // Regressions of one root line are one problem, whichever member comes first.
  const byRoot = new Map<string, Problem & { kind: "regression" | "regression-unfixable" }>();
  for (const r of assessed) {
    // One manifest cargo stops at is one problem, whichever rule met it first.
    if (isBroken(r) && !problems.some((p) => p.kind === r.kind && p.path === r.path)) problems.push(r);
    if (!isRegression(r)) continue;
    const unseen = sourcesUnseen(r, s);
    if (unseen && speaks(r.rule) && !unresolved.some((u) => sameUnresolved(u, unseen))) unresolved.push(unseen);
    const evidence = s.evidence[r.rule]?.[r.crateManifest];
    const assumed = evidence === undefined && s.options.assumeEvidence === true && speaks(r.rule);
    if (evidence === null || (evidence === undefined && !assumed)) continue; // its code does not need it
    if (evidence && underOwnFeature(evidence, r.after)) continue; // where that code builds, the feature is on
    const needs = { manifest: r.crateManifest, evidence: evidence ?? null };
    const key = `${r.rule}\u0000${r.path}\u0000${r.member ? "root" : r.crateManifest}`;
    const seen = byRoot.get(key);
    if (seen) seen.crates.push(needs);
    else {
      const p = { ...r, crates: [needs] } as Problem & { kind: "regression" | "regression-unfixable" };
      byRoot.set(key, p);
      problems.push(p);
    }
    burn = true;
  }
  const d: ReviewDecision = { ...none, problems: shareFixes(problems, rules), unresolved };
  // What was not read is said even where nothing read has a problem (a check run of a rule that always speaks).
  const unread = (s.unread?.length ?? 0) > 0;
  if (s.options.checkRun && (burn || unread || problems.length > 0 || unresolved.length > 0))
    d.checks = rules.flatMap((rule) => checkFor(rule, d.problems, unresolved, s));
  if (problems.length === 0) {
    // Say the earlier problem is gone only when it is known to be gone.
    if (prev?.state === "open" && unresolved.length === 0)
      d.previous = { id: prev.id, state: "fixed", rules: prev.rules };
    return { ...d, silent: burn ? null : "no change to a feature the review rules watch" };
  }
  if (prev?.sha === s.headSha) return { ...d, silent: "this head is already reviewed" };
  d.review = true;
  d.suggestions = d.problems.filter(
    (p): p is Regression & { crates: NeedingCrate[] } => p.kind === "regression" && p.inDiff,
  );
  d.refusalSuggestions = d.problems.filter(
    (p): p is Extract<Problem, { kind: "refused" }> => p.kind === "refused" && p.inDiff,
  );
  if (prev?.state === "open") d.previous = { id: prev.id, state: "superseded", rules: prev.rules };
  return d;
}

export const sameUnresolved = (a: Unresolved, b: Unresolved) =>
  a.rule === b.rule && a.path === b.path && a.member === b.member;

/** A manifest cargo stops at stops every rule: it is in every check. */
const concerns = (rule: ReviewRule, p: Problem | Unresolved) => isBroken(p) || p.rule === rule.id;

/**
 * The rule's check run: on every burn PR for an `always` rule; for a `when-found` rule only when
 * it found something of its own (a parse error alone is the `always` rules' to report) or already
 * has a run at this head to update.
 */
function checkFor(rule: ReviewRule, problems: Problem[], unresolved: Unresolved[], s: PrSnapshot): CheckDecision[] {
  const mine = problems.filter((p) => concerns(rule, p));
  const open = unresolved.filter((u) => concerns(rule, u));
  const existingId = s.previous.checkRuns[rule.id] ?? null;
  const found = open.length > 0 || mine.some((p) => !isBroken(p));
  if (rule.check === "when-found" && !found && existingId === null) return [];
  // A manifest cargo refuses breaks the build whatever the config says of judgements: a failure.
  const conclusion = mine.some((p) => p.kind === "refused")
    ? "failure"
    : mine.length > 0
      ? s.options.conclusion
      : open.length > 0 || (s.unread?.length ?? 0) > 0
        ? "neutral"
        : "success";
  return [{ rule: rule.id, existingId, conclusion, problems: mine, unresolved: open }];
}
