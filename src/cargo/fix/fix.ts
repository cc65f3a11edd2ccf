// Plans the Cargo.toml change that turns a burn feature on (burn-dispatch/autodiff unless told
// otherwise), and proves it before anyone sees it: the edit must parse with an independent TOML parser, the resolver must now say
// autodiff is on, no other dependency may change meaning, and no byte outside the span may move.

// Structural equality of parsed TOML values: fast-deep-equal (already installed, with ajv), not
// node:util's isDeepStrictEqual, so that the fix's proof also runs in the web page.
import deepEqual from "fast-deep-equal";
import { diagnose } from "../judge/diagnose.js";
import { removedAfter } from "../judge/refusal.js";
import { admits } from "../resolve/requirements.js";
import type { DiagnoseOptions, Diagnosis } from "../judge/diagnosis.js";
import { DEP_TABLES, type DepDecl, type Manifest, parseManifest } from "../manifest/manifest.js";
import { TomlError } from "../manifest/toml.js";
import { AUTODIFF_TARGET, BudgetExceeded, DISPATCH, type FeatureTarget, targetName } from "../resolve/resolve.js";
import { type Change, changeOf } from "./change.js";
import { type Declaration, declarationEdit, declarationFor } from "./declare.js";
import { applyEdits, EditError, featureEdits } from "./edit.js";
import type { FixOptions, FixPlan, ManifestFile } from "./fix-plan.js";
import { pastRefusal } from "./fix-refusal.js";

function parseOrError(file: ManifestFile): Manifest | TomlError {
  try {
    return parseManifest(file.text);
  } catch (e) {
    if (e instanceof TomlError) return e;
    throw e;
  }
}

export function planFix(file: ManifestFile, given: FixOptions = {}): FixPlan {
  // A root that is a package is its own root: its edits are of one text, never of "two files".
  const self = given.root && given.root.path === file.path && given.root.text === file.text;
  const opts = self ? { ...given, root: null } : given;
  const manifest = parseOrError(file);
  if (manifest instanceof TomlError) return { kind: "invalid-toml", path: file.path, error: manifest };
  let root: Manifest | null = null;
  if (opts.root) {
    const r = parseOrError(opts.root);
    if (r instanceof TomlError) return { kind: "invalid-toml", path: opts.root.path, error: r };
    root = r;
  }
  const target = opts.target ?? AUTODIFF_TARGET;
  const dopts = {
    root,
    burnVersion: opts.burnVersion,
    burnVersionSource: opts.burnVersionSource,
    platform: opts.platform,
    includeDev: opts.includeDev,
    registries: opts.registries,
    prefer: opts.prefer,
    target,
    additions: opts.additions,
    needed: opts.needed,
    budget: opts.budget,
  };
  const diagnosis = diagnose(manifest, dopts);
  if (diagnosis.verdict === "on") return { kind: "already-on", diagnosis };
  if (opts.diagnosisOnly && diagnosis.verdict !== "refused")
    return { kind: "no-fix", diagnosis, reason: "only the diagnosis was asked for" };
  if (diagnosis.verdict === "no-burn")
    return { kind: "no-fix", diagnosis, reason: "the manifest declares no burn crate" };
  if (diagnosis.verdict === "unknown-crate")
    return { kind: "no-fix", diagnosis, reason: `the data has no release of ${diagnosis.unknownCrates.join(", ")}` };
  if (diagnosis.verdict === "unknown-commit")
    return { kind: "no-fix", diagnosis, reason: "burn's features at that commit could not be read" };
  if (diagnosis.verdict === "refused") return pastRefusal(file, manifest, diagnosis, opts, REPLAN, root);
  if (diagnosis.verdict === "pre-dispatch")
    return {
      kind: "no-fix",
      diagnosis,
      reason: `this burn release has no \`${DISPATCH}\`, so there is no \`${target.feature}\` feature of it to turn on`,
    };
  if (diagnosis.verdict === "too-large" || diagnosis.searchCut)
    return { kind: "no-fix", diagnosis, reason: new BudgetExceeded().message };
  if (!diagnosis.fix) return declareCrate(file, manifest, diagnosis, dopts);

  const { decl, add } = diagnosis.fix;
  const breaks = breaksLater(diagnosis);
  if (breaks) return { kind: "no-fix", diagnosis, reason: breaks };
  let edited: ReturnType<typeof applyEdits>;
  try {
    edited = applyEdits(file.text, featureEdits(file.text, decl, add));
  } catch (e) {
    if (e instanceof EditError) return { kind: "no-fix", diagnosis, reason: e.message };
    throw e;
  }
  const check = afterEdit((m) => diagnose(m, dopts));
  const problem = verify(file.text, edited, decl, add, check.resolvesOn, target);
  if (problem) return { kind: "no-fix", diagnosis, reason: `the edit failed verification: ${problem}` };
  return {
    kind: "fixed",
    diagnosis,
    change: withTurnsOn(toChange(file, edited, decl, add), diagnosis, check.seen.after),
  };
}

const REPLAN = { member: planFix, inRoot: planWorkspaceFix };

/**
 * With a requirement that floats past the assumed release (`*`), an addition burn later removed
 * would make cargo refuse the manifest on the release it really picks: such an edit is not offered.
 */
function breaksLater(d: Diagnosis): string | null {
  const a = d.assumed.version;
  if (a?.kind !== "floating" || !d.fix) return null;
  const crate = d.fix.decl.name;
  for (const f of d.fix.add) {
    const at = removedAfter(crate, f, a.assumed);
    if (at && admits(a.requirement, at))
      return `at the assumed burn ${a.assumed} it needs \`${f}\`, which burn removed at ${at}, a release \`${a.requirement}\` also admits; pin the version (\`version = "${a.assumed}"\`) to keep that edit, or name the release you build`;
  }
  return null;
}

/** No burn feature reaches the target: declaring its crate may (src/cargo/fix/declare.ts), proven as any edit is. */
function declareCrate(file: ManifestFile, manifest: Manifest, diagnosis: Diagnosis, dopts: DiagnoseOptions): FixPlan {
  const target = diagnosis.target;
  const none: FixPlan = {
    kind: "no-fix",
    diagnosis,
    reason: `no feature of this burn version reaches \`${targetName(target)}\``,
  };
  const decl = declarationFor(manifest, diagnosis);
  const edited = decl && declarationEdit(manifest, diagnosis, decl);
  if (!decl || !edited) return none;
  const check = afterEdit((m) => diagnose(m, dopts));
  const problem = verifyDeclaration(file.text, edited, decl, diagnosis.primary!.decl, check.resolvesOn, target);
  // A declaration the resolver does not confirm is not offered; the plain answer stands.
  if (problem) return none;
  return {
    kind: "fixed",
    diagnosis,
    change: withTurnsOn(
      changeOf(file.path, file.text, edited, decl.key, decl.features, { declares: true }),
      diagnosis,
      check.seen.after,
    ),
  };
}

/** The resolver's verdict on the edited manifest, keeping its diagnosis for what the edit turns on. */
function afterEdit(diag: (m: Manifest) => Diagnosis) {
  const seen: { after: Diagnosis | null } = { after: null };
  const resolvesOn = (m: Manifest) => {
    seen.after = diag(m);
    return seen.after.verdict === "on";
  };
  return { resolvesOn, seen };
}

/**
 * What the edit turns on, by the resolver: the crates of the verified build the build before it
 * lacked. "Nothing else changes" is true of the manifest's text, not of the build: `cuda` brings
 * burn-cuda and cubecl's runtime, and the comment says so.
 */
function withTurnsOn(change: Change, before: Diagnosis, after: Diagnosis | null): Change {
  const was = before.state.crates;
  const now = after?.state.crates;
  if (!was || !now) return change;
  return { ...change, turnsOn: now.filter((c) => !was.includes(c)) };
}

const DEP_KEYS = Object.keys(DEP_TABLES);

function withoutDeps(doc: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...doc };
  for (const k of DEP_KEYS) delete copy[k];
  if (copy.workspace && typeof copy.workspace === "object") {
    const { dependencies: _d, ...ws } = copy.workspace as Record<string, unknown>;
    copy.workspace = ws;
  }
  if (copy.target && typeof copy.target === "object") {
    copy.target = Object.fromEntries(
      Object.entries(copy.target as Record<string, Record<string, unknown>>).map(([t, v]) => [t, withoutDeps(v)]),
    );
  }
  return copy;
}

function declKey(d: DepDecl): string {
  return JSON.stringify([d.inWorkspaceTable, d.kind, d.target, d.key]);
}

function meaning(d: DepDecl) {
  const { nodes: _n, line: _l, form: _f, ...rest } = d;
  return rest;
}

/** The checks every edit passes: only its span moved, the result parses, nothing outside the dependency tables changed. */
function outsideUnchanged(
  before: string,
  edited: { text: string; start: number; end: number },
): { problem: string } | { m0: Manifest; m1: Manifest } {
  const after = edited.text;
  const tail = before.length - edited.end;
  if (
    after.slice(0, edited.start) !== before.slice(0, edited.start) ||
    after.slice(after.length - tail) !== before.slice(edited.end)
  )
    return { problem: "bytes outside the edited span changed" };
  let m0: Manifest;
  let m1: Manifest;
  try {
    // Both parsers read each text, once: the span parser, then the independent one (parseManifest).
    m0 = parseManifest(before);
    m1 = parseManifest(after);
  } catch (e) {
    return { problem: `the result is not valid TOML (${(e as Error).message})` };
  }
  if (!deepEqual(withoutDeps(m0.plain), withoutDeps(m1.plain)))
    return { problem: "a value outside the dependency tables changed" };
  return { m0, m1 };
}

const declarations = (m: Manifest) => [...m.dependencies, ...m.workspaceDependencies];

/** Why the dependencies of `m1` are not those of `m0` with `expected` applied, or null. */
function depsAsExpected(m0: Manifest, m1: Manifest, expected: (d0: DepDecl) => ReturnType<typeof meaning>, extra = 0) {
  const all1 = new Map(declarations(m1).map((d) => [declKey(d), d]));
  if (declarations(m0).length + extra !== all1.size) return "the set of dependencies changed";
  for (const d0 of declarations(m0)) {
    const d1 = all1.get(declKey(d0));
    if (!d1) return `\`${d0.key}\` disappeared`;
    if (!deepEqual(meaning(d1), expected(d0))) return `\`${d0.key}\` changed meaning`;
  }
  return null;
}

/**
 * Returns why the edit is wrong, or null when it is proven right. `resolvesOn` is the resolver's
 * verdict on the edited manifest (for a workspace root: on the member that inherits from it).
 */
export function verify(
  before: string,
  edited: { text: string; start: number; end: number },
  decl: DepDecl,
  add: string[],
  resolvesOn: (after: Manifest) => boolean,
  target: FeatureTarget = AUTODIFF_TARGET,
): string | null {
  const read = outsideUnchanged(before, edited);
  if ("problem" in read) return read.problem;
  const problem = depsAsExpected(read.m0, read.m1, (d0) =>
    declKey(d0) === declKey(decl) ? { ...meaning(d0), features: [...d0.features, ...add] } : meaning(d0),
  );
  if (problem) return problem;
  if (!resolvesOn(read.m1)) return `the resolver still finds \`${targetName(target)}\` off`;
  return null;
}

/** verify for an edit that declares a new dependency (src/cargo/fix/declare.ts) and changes nothing else. */
export function verifyDeclaration(
  before: string,
  edited: { text: string; start: number; end: number },
  decl: Declaration,
  table: { target: string | null },
  resolvesOn: (after: Manifest) => boolean,
  target: FeatureTarget,
): string | null {
  const read = outsideUnchanged(before, edited);
  if ("problem" in read) return read.problem;
  const problem = depsAsExpected(read.m0, read.m1, meaning, 1);
  if (problem) return problem;
  const added = declarations(read.m1).find((d) => d.key === decl.key);
  const want = {
    key: decl.key,
    name: decl.key,
    kind: "normal",
    target: table.target,
    inWorkspaceTable: false,
    version: decl.version,
    features: decl.features,
    defaultFeatures: false,
    optional: false,
    inherits: false,
    git: null,
    gitRef: null,
    path: null,
  };
  if (!added || !deepEqual(meaning(added), want)) return `\`${decl.key}\` is not declared as intended`;
  if (!resolvesOn(read.m1)) return `the resolver still finds \`${targetName(target)}\` off`;
  return null;
}

/**
 * The fix for a member that inherits `burn` from the workspace, made in the root's
 * `[workspace.dependencies]` (for a PR that changed the root: the line it changed).
 */
export function planWorkspaceFix(root: ManifestFile, member: ManifestFile, opts: FixOptions = {}): FixPlan {
  const plan = planFix(member, { ...opts, root });
  if (plan.kind !== "fixed" && plan.kind !== "no-fix") return plan;
  const fix = plan.diagnosis.fix;
  if (!fix?.decl.inherits) return plan;
  const rootManifest = parseManifest(root.text);
  const memberManifest = parseManifest(member.text);
  const wsDecl = rootManifest.workspaceDependencies.find((d) => d.key === fix.decl.key);
  if (!wsDecl)
    return {
      kind: "no-fix",
      diagnosis: plan.diagnosis,
      reason: `the workspace root does not declare \`${fix.decl.key}\``,
    };
  let edited: ReturnType<typeof applyEdits>;
  try {
    edited = applyEdits(root.text, featureEdits(root.text, wsDecl, fix.add));
  } catch (e) {
    if (e instanceof EditError) return { kind: "no-fix", diagnosis: plan.diagnosis, reason: e.message };
    throw e;
  }
  const target = opts.target ?? AUTODIFF_TARGET;
  const dopts = {
    burnVersion: opts.burnVersion,
    burnVersionSource: opts.burnVersionSource,
    platform: opts.platform,
    includeDev: opts.includeDev,
    registries: opts.registries,
    target,
  };
  const check = afterEdit((newRoot) => diagnose(memberManifest, { ...dopts, root: newRoot }));
  const problem = verify(root.text, edited, wsDecl, fix.add, check.resolvesOn, target);
  if (problem) return { kind: "no-fix", diagnosis: plan.diagnosis, reason: `the edit failed verification: ${problem}` };
  const change = toChange(root, edited, wsDecl, fix.add);
  return { kind: "fixed", diagnosis: plan.diagnosis, change: withTurnsOn(change, plan.diagnosis, check.seen.after) };
}

function toChange(
  file: ManifestFile,
  edited: { text: string; start: number; end: number },
  decl: DepDecl,
  add: string[],
): Change {
  return changeOf(file.path, file.text, edited, decl.key, add);
}

export type { Change, Suggestion } from "./change.js";
export { changeBetween } from "./change.js";
export type { FixOptions, FixPlan, ManifestFile } from "./fix-plan.js";
