// The pure half of PR review for one manifest and one rule: given its base and head text (and the
// workspace root that governs it at each side), decide whether this change turned the rule's
// feature off, what in the change did it, and the verified edit that restores it. Whether the
// crate needs the feature is decided later, from the evidence the shell read.

import { type FixOptions, type FixPlan, type ManifestFile, planFix, planWorkspaceFix } from "../cargo/fix/fix.js";
import { ledBy } from "../cargo/fix/change.js";
import type { Diagnosis } from "../cargo/judge/diagnosis.js";
import { ACCEPTED, type Refusal } from "../cargo/judge/refusal.js";
import type { Assumption } from "../cargo/manifest/burn-version.js";
import { parseManifest } from "../cargo/manifest/manifest.js";
import { inDiff, oneRootEdit } from "./root-refusals.js";
import type { ReviewRule } from "./rules.js";
import { sourceAdditions } from "./source-needs.js";

export interface ManifestChange {
  path: string;
  base: string | null;
  head: string;
  baseRoot?: ManifestFile | null;
  headRoot?: ManifestFile | null;
  /** Set of head-side line numbers GitHub lets a review comment on (from the patch). */
  commentable: Set<number>;
  /** The same for every file of the PR, by path: where the other file of a two-file edit can be suggested on. */
  diffLines?: ReadonlyMap<string, Set<number>>;
  /** burn's version at each side when the shell read it (a path dependency's checkout). */
  pins?: { head: PinOptions | null; base: PinOptions | null };
  /** The `burn::…` paths the crate's sources import, when they were read. */
  imports?: string[];
}

type PinOptions = Pick<FixOptions, "burnVersion" | "burnVersionSource">;

/** What in this PR lost the feature, as data; rendering says it in words. */
export interface Loss {
  dependency: string;
  /** Features the PR removed from the dependency. */
  removed: string[];
  /** `default-features = false` was set; the default features that had brought the target. */
  defaultsOff: string[] | null;
  /** The burn version moved; `defaultsLost` when its default features no longer bring the target. */
  moved: { from: string; to: string; defaultsLost: boolean } | null;
}

interface Regressed {
  /** The rule whose feature this change turned off (its id). */
  rule: string;
  path: string;
  before: Diagnosis;
  after: Diagnosis;
  loss: Loss;
  /** The crate whose build lost the feature (a member, for a root change). */
  crateManifest: string;
  member?: string;
  /** The workspace root that governs the head manifest (for re-planning a shared fix). */
  headRoot?: ManifestFile | null;
  /** What the crate's imports need, tried first by the edit (and by a shared one re-planned). */
  additions?: string[][];
}

export type ManifestReview =
  | (Regressed & {
      kind: "regression";
      plan: FixPlan & { kind: "fixed" };
      inDiff: boolean;
      /** Another rule's suggestion restores this one's feature too (its id): one edit of the same lines. */
      sharedWith?: string;
    })
  | (Regressed & { kind: "regression-unfixable"; reason: string })
  | { kind: "invalid-toml"; path: string; line: number; column: number; message: string }
  /** cargo refuses the head manifest (a feature its release does not have), and did not refuse the base's. */
  | {
      kind: "refused";
      path: string;
      line: number;
      /** The manifest cargo refuses, and the workspace root it inherits from (where an inherited feature is written). */
      manifest: string;
      root: string | null;
      /** Why no edit past the refusal is shown (no plan). */
      noEdit?: string;
      diagnosis: Diagnosis;
      plan: (FixPlan & { kind: "fixed" }) | null;
      /** The edit's lines are all in the PR's diff: it can be a suggestion on them. */
      inDiff: boolean;
      /** A two-file edit: the other files whose lines are all in the PR's diff too (suggestions there as well). */
      othersInDiff?: string[];
      /** Other members whose refusals this one's edit gets past too (root-refusals.ts): each named on its own lines. */
      alsoRefused?: Array<{ manifest: string; refused: Refusal[] }>;
    }
  | { kind: "unresolved"; rule: string; path: string; member?: string; why: UnresolvedWhy }
  | { kind: "fine"; path: string; burn: boolean };

export type Regression = Extract<ManifestReview, { kind: "regression" }>;

function diagnosisOf(plan: FixPlan): Diagnosis | null {
  return plan.kind === "invalid-toml" ? null : plan.diagnosis;
}

/** Head-side line numbers present in a unified diff patch (added or context lines). */
export function commentableLines(patch: string | undefined): Set<number> {
  const lines = new Set<number>();
  if (!patch) return lines;
  let n = 0;
  for (const l of patch.replace(/\n$/, "").split("\n")) {
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) {
      n = Number(h[1]);
      continue;
    }
    if (l.startsWith("-") || l.startsWith("\\")) continue;
    lines.add(n++);
  }
  return lines;
}

/** The PR's commentable lines by file, the reviewed file's own among them. */
type DiffLines = ReadonlyMap<string, Set<number>>;

/** The PR's commentable lines by file; without the map (a single manifest), the file's own. */
const diffLinesOf = (c: { path: string; commentable: Set<number>; diffLines?: DiffLines }): DiffLines =>
  c.diffLines ?? new Map([[c.path, c.commentable]]);

/**
 * A two-file edit led by a file whose lines the PR's diff shows (a review suggests only there),
 * and which of its other files' lines the diff shows too.
 */
function placed(plan: FixPlan & { kind: "fixed" }, lines: DiffLines) {
  const all = [plan.change, ...(plan.change.others ?? [])];
  const lead = all.find((c) => inDiff({ change: c }, lines.get(c.path))) ?? plan.change;
  const fixed = { ...plan, change: ledBy(plan.change, lead.path) };
  const othersInDiff = (fixed.change.others ?? []).filter((o) => inDiff({ change: o }, lines.get(o.path)));
  return { fixed, othersInDiff: othersInDiff.map((o) => o.path) };
}

const JUDGED = new Set(["on", "off", "gated", "no-dispatch"]);

/** The target was judged on this side's graph (not a release before burn-dispatch, not a crate without burn). */
function judged(d: Diagnosis | null): boolean {
  return d !== null && JUDGED.has(d.verdict);
}

function unknownVersion(d: Diagnosis): Assumption | null {
  return d.assumed.version ?? d.assumed.graph ?? null;
}

/**
 * Why a change could not be judged, as data: the graph was too large, a version was assumed, or a
 * root's members were not among the files read (a command-line pair of roots away from its checkout),
 * or the crate that lost the feature has no source that could be read to say whether it needs it.
 */
export type UnresolvedWhy =
  | { kind: "too-large" }
  | { kind: "assumed"; assumption: Assumption }
  | { kind: "members-unseen" }
  /** The feature is off after the change, and no Rust source of the crate was found to read. */
  | { kind: "sources-unseen" };

type Judgement = { kind: "regression" } | { kind: "unresolved"; why: UnresolvedWhy } | { kind: "fine"; burn: boolean };

/**
 * A regression is the target on at the base and off at the head, both judged on graphs the data
 * has. A release before burn-dispatch on either side (for its features), or burn removed, is not
 * one; a version the data does not know makes the answer unknown, never a guess.
 */
export function judge(before: Diagnosis | null, after: Diagnosis): Judgement {
  const burn = judged(before) || judged(after);
  if (after.verdict === "too-large") return { kind: "unresolved", why: { kind: "too-large" } };
  // The head's burn is at a commit the data cannot read: whether the PR turns the feature off is unknown.
  if (after.verdict === "unknown-commit" && after.assumed.graph)
    return { kind: "unresolved", why: { kind: "assumed", assumption: after.assumed.graph } };
  if (before?.verdict !== "on" || !judged(after) || after.verdict === "on") return { kind: "fine", burn };
  const unknown = unknownVersion(before) ?? unknownVersion(after);
  if (unknown) return { kind: "unresolved", why: { kind: "assumed", assumption: unknown } };
  return { kind: "regression" };
}

export function lossOf(before: Diagnosis, after: Diagnosis): Loss {
  const b = before.primary!.effective;
  const a = after.primary!.effective;
  const from = before.graphVersion;
  const to = after.graphVersion;
  return {
    dependency: after.primary!.decl.key,
    removed: b.features.filter((f) => !a.features.includes(f)),
    defaultsOff: b.defaultFeatures !== false && a.defaultFeatures === false ? before.defaultEnablers : null,
    moved:
      from && to && from !== to
        ? { from, to, defaultsLost: a.defaultFeatures !== false && before.defaultsEnable && !after.defaultsEnable }
        : null,
  };
}

interface Judged {
  rule: string;
  path: string;
  crateManifest: string;
  before: Diagnosis;
  after: Diagnosis;
  commentable: Set<number>;
  member?: string;
  headRoot?: ManifestFile | null;
  additions?: string[][];
}

function regressed(j: Judged, plan: FixPlan): ManifestReview {
  const { rule, path, crateManifest, before, after, commentable, member, headRoot, additions } = j;
  const base = {
    rule,
    path,
    before,
    after,
    loss: lossOf(before, after),
    crateManifest,
    ...(member ? { member } : { headRoot: headRoot ?? null }),
    ...(additions && additions.length > 0 ? { additions } : {}),
  };
  if (plan.kind === "fixed") return { ...base, kind: "regression", plan, inDiff: inDiff(plan, commentable) };
  return { ...base, kind: "regression-unfixable", reason: plan.kind === "no-fix" ? plan.reason : "no fix" };
}

/**
 * The head's refusal when the PR brings it (the base resolved, or there was no base): a bump past
 * the release that removed a feature, a feature that never existed. One already at the base is
 * not this PR's to answer. `path`: where the first refused feature is written (the root's line when
 * it is inherited from there), or the file the edit past it changes (the one the PR's diff shows,
 * of a two-file edit). `lines`: the lines the PR's diff shows, by file, where the edit can be a
 * suggestion.
 */
function refusedByPr(
  path: string,
  before: Diagnosis | null,
  after: Diagnosis,
  root: ManifestFile | null,
  plan: FixPlan | null = null,
  lines: DiffLines = new Map(),
): ManifestReview | null {
  if (after.verdict !== "refused" || before?.verdict === "refused") return null;
  const first = after.refused![0]!;
  const files = { manifest: path, root: root?.path ?? null };
  if (plan?.kind === "fixed") {
    const { fixed, othersInDiff } = placed(plan, lines);
    const line = fixed.change.suggestions[0]!.startLine;
    const onLines = inDiff(fixed, lines.get(fixed.change.path));
    const also = fixed.change.others?.length ? { othersInDiff } : {};
    const at = { line, ...files, diagnosis: after, plan: fixed, inDiff: onLines, ...also };
    return { kind: "refused", path: fixed.change.path, ...at };
  }
  // Said where the first refused feature is written: its own line (the root's, when inherited).
  const inRoot = first.where.kind === "dependency" && first.where.inRoot && root !== null;
  const declared =
    first.where.kind === "dependency"
      ? inRoot
        ? rootDeclLine(root!, first.where.decl.key)
        : first.where.decl.line
      : null;
  const line = first.line ?? declared ?? 1;
  return {
    kind: "refused",
    path: inRoot ? root!.path : path,
    line,
    ...files,
    ...(plan?.kind === "no-fix" ? { noEdit: plan.reason } : {}),
    diagnosis: after,
    plan: null,
    inDiff: false,
  };
}

/**
 * The edit past a refusal the PR brings carries the rule's target only when the base had it on:
 * an inference-only crate bumped past `server`'s removal gets `server` renamed, not `autodiff`
 * added (nothing in the base had it). Otherwise cargo's acceptance is the whole target.
 */
function refusalPlan(plan: FixPlan, before: Diagnosis | null, file: ManifestFile, opts: FixOptions): FixPlan {
  if (plan.kind === "invalid-toml" || plan.diagnosis.verdict !== "refused" || before?.verdict === "on") return plan;
  return planFix(file, { ...opts, target: ACCEPTED, diagnosisOnly: false });
}

function rootDeclLine(root: ManifestFile, key: string): number | null {
  try {
    return parseManifest(root.text).workspaceDependencies.find((w) => w.key === key)?.line ?? null;
  } catch {
    return null; // a root that does not parse is reported as such where it is read
  }
}

const invalid = (path: string, e: { line: number; column: number; message: string }): ManifestReview => ({
  kind: "invalid-toml",
  path,
  line: e.line,
  column: e.column,
  message: e.message.replace(/^\d+:\d+: /, ""),
});

export interface RootChange {
  path: string;
  base: string | null;
  head: string;
  /**
   * Members that inherit burn from this root, at both refs (base null when the member is new), and
   * burn's version at each side when a path dependency's checkout names it.
   */
  members: Array<{ path: string; base: string | null; head: string; pins?: ManifestChange["pins"] }>;
  commentable: Set<number>;
  diffLines?: ReadonlyMap<string, Set<number>>;
}

/**
 * A changed workspace root reaches every member that inherits from it: each member whose target
 * was on at the base and is off at the head is a regression, fixed in the root's own line. Every
 * member is judged; none is skipped because another came first.
 */
export function reviewWorkspaceRoot(c: RootChange, rule: ReviewRule): ManifestReview[] {
  const out: ManifestReview[] = [];
  const target = rule.target;
  const headRoot = { path: c.path, text: c.head };
  const lines = diffLinesOf(c);
  for (const m of c.members) {
    // Every member is judged; an edit is planned only for one that regressed (planWorkspaceFix below).
    const afterPlan = planFix(
      { path: m.path, text: m.head },
      { root: headRoot, target, diagnosisOnly: true, ...m.pins?.head },
    );
    if (afterPlan.kind === "invalid-toml") return [invalid(afterPlan.path, afterPlan.error)];
    const basePlan =
      c.base === null
        ? null
        : planFix(
            { path: m.path, text: m.base ?? m.head },
            { root: { path: c.path, text: c.base }, target, diagnosisOnly: true, ...m.pins?.base },
          );
    const before = basePlan && diagnosisOf(basePlan);
    const member = { path: m.path, text: m.head };
    const past = refusalPlan(afterPlan, before, member, { root: headRoot, target, diagnosisOnly: true });
    const refused = refusedByPr(m.path, before, afterPlan.diagnosis, headRoot, past, lines);
    if (refused) {
      out.push(refused);
      continue;
    }
    const verdict = judge(before, afterPlan.diagnosis);
    if (verdict.kind === "unresolved")
      out.push({ kind: "unresolved", rule: rule.id, path: c.path, member: m.path, why: verdict.why });
    if (verdict.kind !== "regression") continue;
    const loss = lossOf(before!, afterPlan.diagnosis);
    const opts = { prefer: loss.removed, target, ...m.pins?.head };
    const plan = planWorkspaceFix(headRoot, { path: m.path, text: m.head }, opts);
    const j = { rule: rule.id, path: c.path, crateManifest: m.path, before: before!, after: afterPlan.diagnosis };
    out.push(regressed({ ...j, commentable: c.commentable, member: m.path }, plan));
  }
  return oneRootEdit(out, c.path, lines);
}

export function reviewManifest(c: ManifestChange, rule: ReviewRule): ManifestReview {
  const target = rule.target;
  const headOpts = { root: c.headRoot, target, ...c.pins?.head };
  const probe = planFix({ path: c.path, text: c.head }, headOpts);
  if (probe.kind === "invalid-toml") return invalid(probe.path, probe.error);
  const after = probe.diagnosis;
  const basePlan =
    c.base === null ? null : planFix({ path: c.path, text: c.base }, { root: c.baseRoot, target, ...c.pins?.base });
  const before = basePlan ? diagnosisOf(basePlan) : null;
  const lines = diffLinesOf(c);
  const past = refusalPlan(probe, before, { path: c.path, text: c.head }, headOpts);
  const refused = refusedByPr(c.path, before, after, c.headRoot ?? null, past, lines);
  if (refused) return refused;
  const verdict = judge(before, after);
  if (verdict.kind === "fine") return { kind: "fine", path: c.path, burn: verdict.burn };
  if (verdict.kind === "unresolved") return { kind: "unresolved", rule: rule.id, path: c.path, why: verdict.why };
  // Restore what the PR removed when that is as small as any other fix; first, what the crate's
  // imports need (`use burn::optim` needs `optim`, which brings autodiff too) when that restores it.
  const removed = lossOf(before!, after).removed;
  const additions = sourceAdditions(c.imports ?? [], after);
  const plan =
    removed.length > 0 || additions.length > 0
      ? planFix({ path: c.path, text: c.head }, { ...headOpts, prefer: removed, needed: additions })
      : probe;
  const j = { rule: rule.id, path: c.path, crateManifest: c.path, before: before!, after };
  return regressed({ ...j, commentable: c.commentable, headRoot: c.headRoot ?? null, additions }, plan);
}
