// The pure heart of the bot: text (and any manifests the shell fetched) in, a complete verdict
// out. The bot, the CLI and the demo all call this and then render it.

import type { FixOptions, FixPlan, ManifestFile } from "../cargo/fix/fix.js";
import type { Diagnosis } from "../cargo/judge/diagnosis.js";
import { extractSnippets, shownText } from "../cargo/manifest/extract.js";
import { burnCratesDeclared } from "../cargo/manifest/facts.js";
import { broughtBy, lockPackages } from "../cargo/manifest/lockfile.js";
import type { Platform } from "../cargo/resolve/cfg.js";
import { analyzeCompile, type CompileAnalysis } from "../compile/analyze.js";
import type { CargoTree } from "../evidence/cargo-tree.js";
import { type Evidence, type FragmentShown, gatherEvidence } from "../evidence/index.js";
import { namedFeatures } from "../evidence/named-features.js";
import type { VersionGuess } from "../evidence/version.js";
import { type Entry, isReleaseTag, loadCatalog } from "../panics/catalog.js";
import { detect, type Finding } from "../panics/detect.js";
import { fileToRead, firstCallOf, linkFor, type MethodClaim, refFor, type SourceLink } from "../panics/source-link.js";
import { type GateClaim, gateClaim } from "../panics/site-claims.js";
import { chooseTarget, type TargetChoice } from "../panics/target.js";
import { guessVersion, releaseWithMessage } from "../panics/version.js";
import * as semver from "../util/semver.js";
import type { AnalyzeInput } from "./analyze-input.js";
import { analyzeRefusal, type RefusalAnalysis } from "./analyze-refusal.js";
import { type BurnSources, MAX_BURN_SOURCE_READS, type SourceRead, sourceKey } from "./burn-files.js";
import { assumedManifest, type ManifestVerdict, manifestFromRepo, manifestFromText, planFor } from "./find-manifest.js";

export type { AnalyzeInput } from "./analyze-input.js";
export type { ManifestVerdict } from "./find-manifest.js";

/** A known burn panic (or feature-family message): what raised it, at which release, and the fix. */
export interface PanicAnalysis {
  kind: "panic";
  findings: Finding[];
  primary: Finding;
  entry: Entry;
  version: VersionGuess;
  link: SourceLink | null;
  manifest: ManifestVerdict | null;
  platform: Platform;
  /**
   * The version named is older than any release that has this message (`manifest`: the Cargo.toml
   * shown selects it, so it is not the one that built the panicking code, and is not edited).
   */
  tooOld: { named: string; firstWith: string; manifest?: boolean } | null;
  /** With the Cargo.toml set aside: who brings the crate that panicked, from a Cargo.lock (root first). */
  broughtBy: string[] | null;
  /**
   * The method that reached the stub, with its proof: the printed line at the release judged, or a
   * backtrace frame; `method: null` when a line was printed at a release whose lines are not known.
   */
  firstCall: MethodClaim | null;
  /** The `#[cfg]` the linked site sits under, quoted from the data or source at that ref. */
  siteGate: GateClaim | null;
  /** The cargo feature that fixes the finding, or the features to choose from. */
  target: TargetChoice;
  /** With several possible features: the verified edit for each that the manifest can take. */
  choices: Array<{ feature: string; plan: FixPlan & { kind: "fixed" } }>;
  /**
   * With several possible features: those the manifest already turns on (their diagnosis holds the
   * resolver's chain). The device that fell through is not one of theirs, so `target` leaves them out.
   */
  alreadyOn: Array<{ feature: string; diagnosis: Diagnosis }>;
  /** A pasted fragment without the burn line, when no manifest was read (what it does show). */
  fragment: FragmentShown | null;
  /** A pasted `cargo tree` rooted at the crate that panicked: the build's version and features, as cargo printed them. */
  tree: CargoTree | null;
}

/** rustc's errors for gated `burn::…` paths (the text has no known panic). */
export interface CompileResult {
  kind: "compile";
  compile: CompileAnalysis;
  platform: Platform;
}

/** cargo refused the manifest: a feature its burn release does not have (no panic, no rustc error). */
export interface RefusalResult {
  kind: "refusal";
  refusal: RefusalAnalysis;
  platform: Platform;
}

/** Nothing the bot answers. */
export interface NoFinding {
  kind: "none";
}

export type Analysis = PanicAnalysis | CompileResult | RefusalResult | NoFinding;

/** How far into a text a platform's name counts: the report's opening, not a log's tail. */
const PLATFORM_WINDOW = 4000;

function platformOf(finding: Finding | null, text: string): Platform {
  const path = finding?.location?.path ?? "";
  if (/^[A-Za-z]:\//.test(path) || /\bwindows\b/i.test(text.slice(0, PLATFORM_WINDOW))) return "windows";
  if (path.startsWith("/Users/") || /\bmacos\b/i.test(text.slice(0, PLATFORM_WINDOW))) return "macos";
  return "linux";
}

function manifestVersion(v: ManifestVerdict | null): string | null {
  if (!v || v.plan.kind === "invalid-toml") return null;
  const d = v.plan.diagnosis;
  return d.assumed.graph || d.assumed.version || d.verdict === "pre-dispatch" ? null : d.graphVersion;
}

/** The release a Cargo.toml shown in the issue selects, before burn-dispatch included (null: assumed, or none). */
function ownRelease(v: ManifestVerdict | null): string | null {
  if (!v || v.origin === "assumed" || v.plan.kind === "invalid-toml") return null;
  const d = v.plan.diagnosis;
  if (d.assumed.graph || d.assumed.version) return null;
  return d.graphVersion ?? (semver.valid(d.selected?.preDispatch ?? "") ? d.selected!.preDispatch : null);
}

function manifestCommit(v: ManifestVerdict | null): string | null {
  if (!v || v.plan.kind === "invalid-toml") return null;
  const rev = v.plan.diagnosis.primary?.effective.gitRef?.rev;
  return rev && /^[0-9a-f]{7,40}$/i.test(rev) ? rev.toLowerCase() : null;
}

/** The burn crates an index read starts from: `burn` and whatever the manifests at hand declare. */
export function indexRoots(text: string, repoManifests: ManifestFile[] = []): string[] {
  const snippets = extractSnippets(shownText(text))
    .filter((s) => s.kind === "manifest")
    .map((s) => s.text);
  return burnCratesDeclared([...snippets, ...repoManifests.map((m) => m.text)]);
}

/**
 * The analysis as a pipeline of named steps, each a function of the previous one's value:
 * detect (what the text shows), evidence (versions, snippets), pin (the release evidence names),
 * judge (which release and feature, which manifest, and its verified fix), then the answer.
 */
export function analyze(given: AnalyzeInput): Analysis {
  // Read as GitHub shows it: a template's example inside an HTML comment is not the report (the
  // handlers already pass the shown text; the CLI's file and a command's comment may not).
  const input = given.text.includes("<!--") ? { ...given, text: shownText(given.text) } : given;
  const findings = detect(input.text);
  const primary = findings.find((f) => f.cause === "feature-off") ?? findings[0] ?? null;
  const platform = platformOf(primary, input.text);
  if (!primary) {
    // Rustc errors first: the evidence step is paid only by a text that has one.
    const compile = analyzeCompile({ ...input, platform }, () => gatherEvidence(input.text, input.repoLock));
    if (compile) return { kind: "compile", compile, platform };
    const refusal = analyzeRefusal({ ...input, platform });
    return refusal ? { kind: "refusal", refusal, platform } : { kind: "none" };
  }
  const entry = loadCatalog().entries.find((e) => e.id === primary.id)!;
  const evidence: Evidence = gatherEvidence(input.text, input.repoLock);
  const fx = pinOf(primary, evidence, platform, input);
  const judged = judge(input, entry, primary, evidence, fx);
  const picked = pickChoices(judged.manifest, judged.target, fx);
  const { manifest } = picked;
  const link = linkFor(entry, primary, judged.version, input.sources);
  return {
    kind: "panic",
    findings,
    primary,
    entry,
    ...judged,
    ...picked,
    link,
    platform,
    firstCall: firstCallOf(entry, primary, input.text, link, judged.version.source === "line-number"),
    siteGate: gateClaim(link),
    fragment: !manifest || manifest.origin === "assumed" ? evidence.fragment : null,
    tree: evidence.tree?.crate === entry.crate ? evidence.tree : null,
    broughtBy: judged.tooOld?.manifest ? whoBrings(entry, judged.tooOld.firstWith, evidence, input.repoLock) : null,
  };
}

/** What a Cargo.lock (pasted, or the repository's) shows brings the crate that panicked (`cargo tree -i`). */
function whoBrings(entry: Entry, since: string, evidence: Evidence, repoLock?: string | null): string[] | null {
  const locks = [
    ...evidence.snippets.filter((s) => s.kind === "lock").map((s) => s.text),
    ...(repoLock ? [repoLock] : []),
  ];
  for (const text of locks) {
    const chain = broughtBy(lockPackages(text), entry.crate, since);
    if (chain) return chain;
  }
  return null;
}

/** Exact versions (a printed crate path, a Cargo.lock) pin the graph the manifest is resolved in. */
function pinOf(primary: Finding, evidence: Evidence, platform: Platform, input: AnalyzeInput): FixOptions {
  const seen = evidence.versions;
  const fromTrace = primary.location?.version ?? seen.path;
  return {
    burnVersion: fromTrace ?? seen.lock ?? seen.tree,
    burnVersionSource: primary.location?.version
      ? "backtrace"
      : seen.path
        ? "crate-path"
        : seen.lock
          ? "lock"
          : "cargo-tree",
    platform,
    registries: input.registries,
  };
}

/** Which release and feature the panic is judged at, and the manifest judged (with its fix). */
function judge(input: AnalyzeInput, entry: Entry, primary: Finding, evidence: Evidence, fx: FixOptions) {
  const find = (target: TargetChoice) => {
    if (target.kind === "none") return null;
    const t = { ...fx, target: planTarget(target) };
    return manifestFromText(evidence.snippets, t) ?? manifestFromRepo(input, t);
  };
  let target = chooseTarget(entry, fx.burnVersion ?? null, input.text);
  let manifest = find(target);
  const guessed = guessVersion(primary, entry, {
    text: evidence.versions,
    manifest: manifestVersion(manifest),
    manifestRequirement:
      manifest?.plan.kind === "invalid-toml" ? null : manifest?.plan.diagnosis.primary?.effective.version,
    manifestCommit: manifestCommit(manifest),
  });
  // A Cargo.toml whose own burn predates the message did not build the code that panicked: it is
  // said so, and not edited (another dependency brings the burn that panicked).
  const own = ownRelease(manifest);
  const ownTooOld = own ? olderThanMessage(entry, { version: own, commit: null, source: "requirement" }) : null;
  if (ownTooOld) manifest = null;
  const guessTooOld = olderThanMessage(entry, guessed);
  const tooOld: PanicAnalysis["tooOld"] = ownTooOld ? { ...ownTooOld, manifest: true } : guessTooOld;
  // The panic cannot come from that version: judge the release that has it instead.
  const version: VersionGuess = guessTooOld ? releaseWithMessage(primary, entry) : guessed;
  // The feature can differ between releases (burn 0.21.0-pre.3 added `wgpu` to the backends).
  const atVersion = chooseTarget(entry, version.version, input.text);
  if (JSON.stringify(atVersion) !== JSON.stringify(target)) {
    target = atVersion;
    manifest = ownTooOld ? null : find(target);
  }
  // Assuming a manifest is only honest when the feature is known: never for a choice of backends,
  // nor next to the one shown, set aside above.
  if (target.kind === "one" && !manifest && !ownTooOld)
    manifest = assumedManifest(version, latestTag(entry), namedFeatures(input.text), {
      platform: fx.platform,
      registries: input.registries,
      target: planTarget(target),
    });
  return { version, tooOld, target, manifest };
}

/** The feature a manifest is judged against; for a choice, the first one (the verdict says why the crate has none). */
function planTarget(t: TargetChoice & { kind: "one" | "choose" }) {
  return t.kind === "one" ? t.target : { crate: t.crate, feature: t.features[0]! };
}

/**
 * With a choice of backends and a manifest shown: the verified edit for each it can take, and the
 * ones it already turns on, which leave the choice (their arm is compiled in, so the device that
 * fell through is not theirs). Every backend the data lists is checked, so one on in this build is
 * said even where the text narrowed the choice to others (the GPU ones).
 */
function pickChoices(manifest: ManifestVerdict | null, target: TargetChoice, fx: FixOptions) {
  const none = { manifest, target, choices: [] as PanicAnalysis["choices"], alreadyOn: [] };
  if (target.kind !== "choose" || !manifest) return none;
  if (manifest.origin === "assumed" || manifest.plan.kind === "invalid-toml") return none;
  const plans = new Map<string, FixPlan>();
  const alreadyOn: PanicAnalysis["alreadyOn"] = [];
  for (const feature of target.gpu?.listed ?? target.features) {
    const plan = planFor(manifest, { ...fx, target: { crate: target.crate, feature } });
    if (plan.kind === "already-on") alreadyOn.push({ feature, diagnosis: plan.diagnosis });
    else plans.set(feature, plan);
  }
  const features = target.features.filter((f) => plans.has(f));
  const choices = features.flatMap((feature) => {
    const plan = plans.get(feature)!;
    return plan.kind === "fixed" ? [{ feature, plan }] : [];
  });
  // The manifest is judged against the first feature of the choice: one still to choose.
  const first = features[0];
  const judged = first && first !== target.features[0] ? { ...manifest, plan: plans.get(first)! } : manifest;
  return { manifest: judged, target: { ...target, features }, choices, alreadyOn };
}

/**
 * The source files to read before answering: only for a release the data lacks (a panic's file
 * when the catalog has no site of it there; a compile error's modules on the way to its path),
 * and only at a tag (a commit or branch is not a release).
 */
export function sourceReads(a: Analysis): SourceRead[] {
  if (a.kind === "compile") return a.compile.reads;
  if (a.kind !== "panic") return [];
  const ref = refFor(a.version);
  if (!ref || a.link?.verified || !isReleaseTag(ref)) return [];
  const path = fileToRead(a.entry, a.primary, ref);
  return path ? [{ ref, path }] : [];
}

/**
 * Analyzes, then reads what the analysis asks for and analyzes again, until it asks for nothing
 * new: at most MAX_BURN_SOURCE_READS files in all. A file `read` could not get (an API error) is
 * not asked for again; the answer then stands on the data, as without the read.
 */
export async function analyzeWithSources(
  input: AnalyzeInput,
  read: (reads: SourceRead[]) => Promise<BurnSources>,
): Promise<Analysis> {
  let analysis = analyze(input);
  const sources: BurnSources = { ...input.sources };
  const tried = new Set<string>();
  for (;;) {
    const reads = sourceReads(analysis)
      .filter((r) => !tried.has(sourceKey(r.ref, r.path)))
      .slice(0, MAX_BURN_SOURCE_READS - tried.size);
    if (reads.length === 0) return analysis;
    for (const r of reads) tried.add(sourceKey(r.ref, r.path));
    const got = await read(reads);
    if (Object.keys(got).length === 0) return analysis;
    Object.assign(sources, got);
    analysis = analyze({ ...input, sources });
  }
}

function olderThanMessage(entry: Entry, v: VersionGuess): { named: string; firstWith: string } | null {
  const versions = entry.sites.map((s) => s.version).filter((x): x is string => x !== null);
  const first = versions.sort(semver.compare)[0];
  if (!v.version || !first || !semver.valid(v.version) || !semver.lt(v.version, first)) return null;
  return { named: v.version, firstWith: first };
}

function latestTag(entry: Entry): string | null {
  return (
    entry.sites.filter((s) => s.version && s.ref.startsWith("v")).at(-1)?.version ??
    loadCatalog().refs.at(-2)?.version ??
    null
  );
}
