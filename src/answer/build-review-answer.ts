// From a PR snapshot to its answer object: every rule's result on every changed manifest, named,
// one entry per problem (a manifest cargo stops at is one entry, whichever rules met it; a root
// change reaching several members is one entry listing them), each regression the decision did not
// report said as not needed and why. Pure; the sentences that explain a diagnosis come from the
// caller (`render/why.ts`), so the object carries the same detail the text shows.
import { type Change, ownDiff } from "../cargo/fix/change.js";
import type { Diagnosis } from "../cargo/judge/diagnosis.js";
import { underOwnFeature } from "../review/evidence.js";
import type { Loss, ManifestReview, UnresolvedWhy } from "../review/manifest.js";
import {
  assessByRule,
  decidePullRequest,
  isBroken,
  type Problem,
  type PrSnapshot,
  type ReviewDecision,
  sameUnresolved,
  sourcesUnseen,
  type Unresolved,
} from "../review/pull-request.js";
import { type ReviewRule, reviewRules } from "../review/rules.js";
import type { ReviewAnswer, ReviewEdit, ReviewResult, Verdict } from "./review-answer.js";

/** The sentences the answer carries, from the words layer. */
export interface ReviewWords {
  /** `change`: what the PR did to the dependency, the cause a regression's sentence names. */
  why(d: Diagnosis, change?: Pick<Loss, "removed" | "defaultsOff">, at?: { manifest: string }): string;
  unresolved(w: UnresolvedWhy): string;
}

type Regressed = Extract<ManifestReview, { kind: "regression" | "regression-unfixable" }>;
type Broken = Extract<ManifestReview, { kind: "refused" | "invalid-toml" }>;

export function editOf(change: Change, verifiedOn: string | null, othersInDiff: string[] = []): ReviewEdit {
  const others = (change.others ?? []).map((o) => ({
    path: o.path,
    suggestions: o.suggestions,
    diff: ownDiff(o),
    onLines: othersInDiff.includes(o.path),
  }));
  return {
    path: change.path,
    dependency: change.dependency,
    added: change.added,
    declares: change.declares,
    renamed: change.resolves?.renamed ?? [],
    dropped: change.resolves?.dropped ?? [],
    suggestion: change.suggestion,
    suggestions: change.suggestions,
    diff: change.diff,
    verifiedOn,
    ...(others.length > 0 ? { others } : {}),
  };
}

type Judged = NonNullable<Diagnosis["refused"]>[number];

/**
 * The refused items of each manifest, each with its own file and line (an inherited one in the
 * root's), in order: a place several members share (the root's entry) is one item.
 */
function refusedItems(each: Array<{ manifest: string; refused: Judged[] }>, root: string | null) {
  const items = each.flatMap(({ manifest, refused }) =>
    refused.map((r) => ({
      crate: r.crate,
      version: r.version,
      feature: r.feature,
      path: r.where.kind === "dependency" && r.where.inRoot && root ? root : manifest,
      line: r.line ?? (r.where.kind === "dependency" && !r.where.inRoot ? r.where.decl.line : null),
      entry: r.where.kind === "features" ? r.where.entry : null,
      dependency: r.where.kind === "dependency" ? r.where.decl.key : null,
      inherited: r.where.kind === "dependency" && r.where.inRoot,
    })),
  );
  const key = (x: (typeof items)[number]) => JSON.stringify([x.path, x.line, x.entry, x.crate, x.version, x.feature]);
  const seen = new Set<string>();
  return items.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function brokenResult(p: Broken, reported: boolean, words: ReviewWords): ReviewResult {
  if (p.kind === "invalid-toml")
    return { rule: "cargo", path: p.path, kind: p.kind, reported, line: p.line, column: p.column, message: p.message };
  const d = p.diagnosis;
  const refused = refusedItems([{ manifest: p.manifest, refused: d.refused ?? [] }, ...(p.alsoRefused ?? [])], p.root);
  const edit = p.plan ? editOf(p.plan.change, d.graphVersion, p.othersInDiff) : null;
  const noEdit = !edit && p.noEdit ? { noEdit: p.noEdit } : {};
  const at = {
    line: p.line,
    release: d.graphVersion,
    // Said on another file than the manifest judged (the workspace root's line): the words name it.
    because: words.why(d, undefined, p.path !== p.manifest ? { manifest: p.manifest } : undefined),
    refused,
    edit,
    onLines: p.inDiff,
    ...noEdit,
  };
  return { rule: "cargo", path: p.path, kind: "refused", reported, ...at };
}

/** A reported regression (one rule, one manifest, the crates it reaches). */
function problemResult(p: Extract<Problem, { crates: unknown }>, words: ReviewWords): ReviewResult {
  const base = {
    rule: p.rule,
    path: p.path,
    reported: true,
    release: p.after.graphVersion,
    loss: p.loss,
    crates: p.crates.map((c) => ({
      manifest: c.manifest,
      evidence: c.evidence ? { path: c.evidence.path, line: c.evidence.line, what: c.evidence.what } : null,
    })),
    ...(p.member ? { member: p.member } : {}),
  };
  if (p.kind === "regression-unfixable")
    return { ...base, kind: p.kind, because: words.why(p.after, p.loss), edit: null, noEdit: p.reason };
  if (p.sharedWith)
    return { ...base, kind: p.kind, because: words.why(p.plan.diagnosis, p.loss), sharedWith: p.sharedWith };
  const edit = editOf(p.plan.change, p.plan.diagnosis.graphVersion);
  return { ...base, kind: p.kind, because: words.why(p.plan.diagnosis, p.loss), edit, onLines: p.inDiff };
}

/**
 * A regression the decision did not report: its crate's code was not found to need the feature
 * (sources read, no use), was not read (a rule that speaks only when it finds a use), or needs it
 * only under its own feature that brings it. Otherwise (burn's own repository) it stays a
 * regression, unreported.
 */
function unreported(r: Regressed, s: PrSnapshot): ReviewResult {
  const evidence = s.evidence[r.rule]?.[r.crateManifest];
  const why =
    evidence === null
      ? ("no-use-found" as const)
      : evidence === undefined
        ? ("sources-not-read" as const)
        : underOwnFeature(evidence, r.after)
          ? ("under-own-feature" as const)
          : null;
  const base = {
    rule: r.rule,
    path: r.path,
    reported: false,
    release: r.after.graphVersion,
    loss: r.loss,
    ...(r.member ? { member: r.member } : {}),
  };
  return why ? { ...base, kind: "not-needed", notNeeded: why } : { ...base, kind: r.kind };
}

/** The reported problem an assessed regression belongs to (a root change groups its members). */
function problemOf(r: Regressed, d: ReviewDecision) {
  return d.problems.find(
    (p): p is Extract<Problem, { crates: unknown }> =>
      !isBroken(p) && p.rule === r.rule && p.path === r.path && p.crates.some((c) => c.manifest === r.crateManifest),
  );
}

function unresolvedResult(r: Unresolved, d: ReviewDecision, words: ReviewWords): ReviewResult {
  const reported = d.unresolved.some((u) => sameUnresolved(u, r));
  const member = r.member ? { member: r.member } : {};
  return { rule: r.rule, path: r.path, kind: r.kind, reported, because: words.unresolved(r.why), ...member };
}

function resultsOf(s: PrSnapshot, d: ReviewDecision, rules: readonly ReviewRule[], words: ReviewWords) {
  const out: ReviewResult[] = [];
  const said = new Set<string>();
  const once = (key: string, make: () => ReviewResult) => {
    if (said.has(key)) return;
    said.add(key);
    out.push(make());
  };
  const byRule = assessByRule(s, rules);
  for (const [i, rule] of rules.entries())
    for (const r of byRule[i]!) {
      if (isBroken(r)) {
        const p = d.problems.find((q): q is Broken => q.kind === r.kind && q.path === r.path);
        once(`${r.kind}\u0000${r.path}`, () => brokenResult(p ?? r, p !== undefined, words));
      } else if (r.kind === "regression" || r.kind === "regression-unfixable") {
        const p = problemOf(r, d);
        const unseen = sourcesUnseen(r, s);
        if (p) once(String(d.problems.indexOf(p)), () => problemResult(p, words));
        else if (unseen) out.push(unresolvedResult(unseen, d, words));
        else out.push(unreported(r, s));
      } else if (r.kind === "unresolved") out.push(unresolvedResult(r, d, words));
      else once(`${rule.id}\u0000${r.path}`, () => ({ rule: rule.id, path: r.path, kind: "fine", reported: false }));
    }
  return withEveryRule(s, out, rules);
}

/** Every rule has a result on every changed manifest: a root change that reached no member is fine. */
function withEveryRule(s: PrSnapshot, all: ReviewResult[], rules: readonly ReviewRule[]): ReviewResult[] {
  // A root is fine as a burn manifest and may also reach members: its rule's real result speaks.
  const out = all.filter(
    (r) => r.kind !== "fine" || !all.some((x) => x.kind !== "fine" && x.rule === r.rule && x.path === r.path),
  );
  const broken = new Set(out.filter((r) => r.rule === "cargo").map((r) => r.path));
  for (const f of s.changed) {
    if (s.head[f.path] === null || s.head[f.path] === undefined || broken.has(f.path)) continue;
    for (const rule of rules)
      if (!out.some((r) => r.rule === rule.id && r.path === f.path))
        out.push({ rule: rule.id, path: f.path, kind: "fine", reported: false });
  }
  return out;
}

const ORDER: Verdict[] = ["invalid-toml", "refused", "regression", "unresolved"];

function verdictOf(results: ReviewResult[]): Verdict {
  const reported = results.filter((r) => r.reported);
  for (const v of ORDER)
    if (reported.some((r) => r.kind === v || (v === "regression" && r.kind === "regression-unfixable"))) return v;
  return "fine";
}

export function buildReviewAnswer(
  s: PrSnapshot,
  words: ReviewWords,
  rules: readonly ReviewRule[] = reviewRules(),
): ReviewAnswer {
  const d = decidePullRequest(s, rules);
  const results = resultsOf(s, d, rules, words);
  return {
    schemaVersion: 1,
    kind: "review",
    verdict: verdictOf(results),
    repo: s.repo,
    headSha: s.headSha,
    release: results.find((r) => r.reported && r.release)?.release ?? null,
    silent: d.silent,
    review: d.review,
    results,
    checks: d.checks.map((c) => ({ rule: c.rule, conclusion: c.conclusion, existingId: c.existingId })),
    notices: s.notices,
    previous: d.previous,
  };
}
