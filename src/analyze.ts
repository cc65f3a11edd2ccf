// The pure heart of the bot: text (and any manifests the shell fetched) in, a complete verdict
// out. The bot, the CLI and the demo all call this and then render it.
import { boundedMemo } from "./memo.js";
import * as semver from "./semver.js";
import { isPinSource } from "./cargo/burn-version.js";
import type { Platform } from "./cargo/cfg.js";
import { extractSnippets } from "./cargo/extract.js";
import type { Registries } from "./cargo/registry.js";
import { burnCratesDeclared } from "./cargo/facts.js";
import { type FixOptions, type FixPlan, type ManifestFile, planFix } from "./cargo/fix.js";
import { type CompileAnalysis, analyzeCompile } from "./compile/analyze.js";
import { type ManifestVerdict, manifestFromRepo, manifestFromText, planFor } from "./find-manifest.js";
import { type Evidence, type FragmentShown, gatherEvidence } from "./evidence/index.js";
import { catalogFiles, type Entry, isReleaseTag, loadCatalog, messageLiteral, type Site } from "./panics/catalog.js";
import { detect, type Finding } from "./panics/detect.js";
import { burnPermalink } from "./links.js";
import { scanSource } from "./panics/source-scan.js";
import { chooseTarget, type TargetChoice } from "./panics/target.js";
import type { VersionGuess } from "./evidence/version.js";
import { guessVersion } from "./panics/version.js";
import { type BurnSources, MAX_BURN_SOURCE_READS, type SourceRead, sourceKey } from "./burn-files.js";

export type { ManifestVerdict } from "./find-manifest.js";

export interface AnalyzeInput {
  text: string;
  /** Manifests read from the repository, member manifests first; used when the text has none. */
  repoManifests?: ManifestFile[];
  repoRoot?: ManifestFile | null;
  repoLock?: string | null;
  /** Index data to resolve with; the bundled snapshot when absent. */
  registries?: Registries;
  /** burn source files the shell read for a release the data lacks, by `sourceKey(ref, path)`. */
  sources?: BurnSources;
}

export interface SourceLink {
  crate: string;
  /** Path inside the crate (`src/backend.rs`) and in the repository. */
  file: string;
  repoPath: string;
  line: number;
  /** Set when no location was printed: the link spans every stub method of the block. */
  lineEnd: number | null;
  /** The stub methods in that span (`backward`, `grad`, …), when no location was printed. */
  methods: string[];
  ref: string;
  /** null when the printed path or ref is not of a shape a permalink may have. */
  url: string | null;
  cfg: string | null;
  item: string | null;
  /** The data holds this exact site at this ref, or the source read at that ref has it there. */
  verified: boolean;
  /** Where the site's facts come from: the bundled catalog, or burn's source read at that tag. */
  from: "catalog" | "source";
  /** When the site is live, as a cfg predicate (feature-family sites). */
  gate: string | null;
}

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
  /** The version named is older than any release that has this message. */
  tooOld: { named: string; firstWith: string } | null;
  /** The method that reached the stub, as the printed location or the backtrace shows it. */
  firstCall: string | null;
  /** The cargo feature that fixes the finding, or the features to choose from. */
  target: TargetChoice;
  /** With several possible features: the verified edit for each that the manifest can take. */
  choices: Array<{ feature: string; plan: FixPlan & { kind: "fixed" } }>;
  /** A pasted fragment without the burn line, when no manifest was read (what it does show). */
  fragment: FragmentShown | null;
}

/** rustc's errors for gated `burn::…` paths (the text has no known panic). */
export interface CompileResult {
  kind: "compile";
  compile: CompileAnalysis;
  platform: Platform;
}

/** Nothing the bot answers. */
export interface NoFinding {
  kind: "none";
}

export type Analysis = PanicAnalysis | CompileResult | NoFinding;

function platformOf(finding: Finding | null, text: string): Platform {
  const path = finding?.location?.path ?? "";
  if (/^[A-Za-z]:\//.test(path) || /\bwindows\b/i.test(text.slice(0, 4000))) return "windows";
  if (path.startsWith("/Users/") || /\bmacos\b/i.test(text.slice(0, 4000))) return "macos";
  return "linux";
}

function refFor(version: VersionGuess): string | null {
  if (version.commit) return version.commit;
  const refs = loadCatalog().refs;
  return (
    refs.find((r) => r.version === version.version && r.ref.startsWith("v"))?.ref ??
    (version.version ? `v${version.version}` : null)
  );
}

function preferredSite(entry: Entry, sites: Site[]): Site | undefined {
  const prefer = entry.prefer_item;
  return (prefer ? sites.find((s) => s.item.includes(prefer)) : undefined) ?? sites[0];
}

/** The file to read at `ref` when the catalog has no site of this entry there. */
function fileToRead(entry: Entry, finding: Finding, ref: string): string | null {
  if (entry.sites.some((s) => s.ref === ref)) return null;
  // The printed location names the file only when the catalog knows it; anything else (a path
  // with `..`, a file elsewhere in burn's repository) reads the message's latest known file.
  const printed = finding.location?.repoPath;
  const path =
    printed && catalogFiles().has(printed)
      ? printed
      : (entry.sites.filter((s) => s.ref.startsWith("v")).at(-1)?.file ?? null);
  return path && catalogFiles().has(path) ? path : null;
}

/** Sites of this entry found in source the shell read at `ref` (the release is newer than the data). */
function scannedSites(entry: Entry, ref: string, path: string, sources: BurnSources | undefined): Site[] {
  const text = sources?.[sourceKey(ref, path)];
  if (text === undefined || text === null) return [];
  const version = ref.startsWith("v") ? ref.slice(1) : null;
  return scanSource(text, messageLiteral(entry)).map((x) => ({
    ref,
    commit: ref,
    version,
    file: path,
    line: x.line,
    macro: x.macro ?? "literal",
    printed: entry.message,
    cfg: x.cfg,
    item: x.item,
    in_macro_rules: false,
    from: "source" as const,
  }));
}

function linkFor(entry: Entry, finding: Finding, version: VersionGuess, sources?: BurnSources): SourceLink | null {
  const ref = refFor(version);
  if (!ref) return null;
  const toRead = fileToRead(entry, finding, ref);
  const read = toRead ? scannedSites(entry, ref, toRead, sources) : [];
  const atRef =
    read.length > 0
      ? read
      : entry.sites.filter((s) => s.ref === ref || (version.commit !== null && s.commit.startsWith(version.commit)));
  const loc = finding.location;
  if (loc?.repoPath) {
    // The printed location is the truth for the user's build, even where the data lacks that ref.
    const exact = atRef.find((s) => s.file === loc.repoPath && s.line === loc.line);
    const near = exact ?? atRef.find((s) => s.file === loc.repoPath) ?? preferredSite(entry, entry.sites);
    return make(entry, loc.repoPath, loc.line, ref, near, exact !== undefined);
  }
  // No location printed: any stub method of the block may have raised it. Link the block, not
  // one line presented as the place.
  const site = preferredSite(entry, atRef);
  if (!site) return null;
  const block = atRef.filter(
    (s) => s.file === site.file && s.cfg === site.cfg && s.item.split(" > ")[0] === site.item.split(" > ")[0],
  );
  const lines = block.map((s) => s.line);
  const methods = [...new Set(block.map((s) => methodOf(s.item)).filter((m): m is string => m !== null))];
  return make(
    entry,
    site.file,
    Math.min(...lines),
    ref,
    site,
    true,
    lines.length > 1 ? Math.max(...lines) : null,
    methods.length > 1 ? methods : [],
  );
}

function methodOf(item: string): string | null {
  return /\bfn (\w+)/.exec(item.split(" > ").at(-1) ?? "")?.[1] ?? null;
}

const frames = boundedMemo<RegExp>(256);

/** The method that reached the site, for an entry whose data says how to find it (`first_call`). */
function firstCallOf(entry: Entry, finding: Finding, text: string): string | null {
  if (!entry.first_call) return null;
  const loc = finding.location;
  if (loc?.repoPath) {
    const site = entry.sites.find((s) => s.file === loc.repoPath && s.line === loc.line);
    if (site) return methodOf(site.item);
  }
  let frame = frames.get(entry.first_call);
  if (!frame) {
    frame = new RegExp(entry.first_call);
    frames.set(entry.first_call, frame);
  }
  return frame.exec(text.slice(0, 65536))?.[1] ?? null;
}

function make(
  entry: Entry,
  repoPath: string,
  line: number,
  ref: string,
  site: (Site & { from?: "source" }) | undefined,
  verified: boolean,
  lineEnd: number | null = null,
  methods: string[] = [],
): SourceLink {
  return {
    crate: entry.crate,
    file: repoPath.replace(/^crates\/[^/]+\//, ""),
    repoPath,
    line,
    lineEnd,
    methods,
    ref,
    url: burnPermalink(ref, repoPath, line, lineEnd),
    cfg: site?.cfg ?? null,
    item: site?.item ?? null,
    verified,
    from: verified && site?.from === "source" ? "source" : "catalog",
    gate: site?.gate ?? null,
  };
}

/** The manifest most reports have: burn with default features off and one backend. */
function assumedManifest(version: VersionGuess, fallback: string | null, fx: FixOptions): ManifestVerdict | null {
  const source = version.commit
    ? `git = "https://github.com/tracel-ai/burn"`
    : `version = "${version.version ?? fallback}"`;
  if (!version.commit && !(version.version ?? fallback)) return null;
  const file = {
    path: "Cargo.toml",
    text: `[dependencies]\nburn = { ${source}, default-features = false, features = ["std"] }\n`,
  };
  const plan = planFix(file, {
    ...fx,
    burnVersion: version.version ?? fallback,
    burnVersionSource: isPinSource(version.source) ? version.source : "prose",
  });
  return plan.kind === "fixed" ? { origin: "assumed", plan, wrapped: true, file, root: null, whole: false } : null;
}

function manifestVersion(v: ManifestVerdict | null): string | null {
  if (!v || v.plan.kind === "invalid-toml") return null;
  const d = v.plan.diagnosis;
  return d.assumed.graph || d.assumed.version || d.verdict === "pre-dispatch" ? null : d.graphVersion;
}

function manifestCommit(v: ManifestVerdict | null): string | null {
  if (!v || v.plan.kind === "invalid-toml") return null;
  const rev = v.plan.diagnosis.primary?.effective.gitRef?.rev;
  return rev && /^[0-9a-f]{7,40}$/i.test(rev) ? rev.toLowerCase() : null;
}

/** The burn crates an index read starts from: `burn` and whatever the manifests at hand declare. */
export function indexRoots(text: string, repoManifests: ManifestFile[] = []): string[] {
  const snippets = extractSnippets(text)
    .filter((s) => s.kind === "manifest")
    .map((s) => s.text);
  return burnCratesDeclared([...snippets, ...repoManifests.map((m) => m.text)]);
}

export function analyze(input: AnalyzeInput): Analysis {
  const findings = detect(input.text);
  const primary = findings.find((f) => f.cause === "feature-off") ?? findings[0] ?? null;
  const platform = platformOf(primary, input.text);
  if (!primary) {
    // Rustc errors first: the evidence step is paid only by a text that has one.
    const compile = analyzeCompile({ ...input, platform }, () => gatherEvidence(input.text, input.repoLock));
    return compile ? { kind: "compile", compile, platform } : { kind: "none" };
  }
  const entry = loadCatalog().entries.find((e) => e.id === primary.id)!;
  const evidence: Evidence = gatherEvidence(input.text, input.repoLock);

  const seen = evidence.versions;
  // Exact versions (a printed crate path, a Cargo.lock) pin the graph the manifest is resolved in.
  const fromTrace = primary.location?.version ?? seen.path;
  const fx: FixOptions = {
    burnVersion: fromTrace ?? seen.lock,
    burnVersionSource: primary.location?.version ? "backtrace" : seen.path ? "crate-path" : "lock",
    platform,
    registries: input.registries,
  };
  const find = (target: TargetChoice) => {
    if (target.kind === "none") return null;
    const t = { ...fx, target: planTarget(target) };
    return manifestFromText(evidence.snippets, t) ?? manifestFromRepo(input, t);
  };
  let target = chooseTarget(entry, fx.burnVersion ?? null, input.text);
  let manifest = find(target);
  const guessed = guessVersion(primary, entry, {
    text: seen,
    manifest: manifestVersion(manifest),
    manifestCommit: manifestCommit(manifest),
  });
  const tooOld = olderThanMessage(entry, guessed);
  // The panic cannot come from that version: link the newest release that has it instead.
  const version: VersionGuess = tooOld ? { version: latestTag(entry), commit: null, source: "assumed" } : guessed;
  // The feature can differ between releases (burn 0.21.0-pre.3 added `wgpu` to the backends).
  const atVersion = chooseTarget(entry, version.version, input.text);
  if (JSON.stringify(atVersion) !== JSON.stringify(target)) {
    target = atVersion;
    manifest = find(target);
  }
  // Assuming a manifest is only honest when the feature is known: never for a choice of backends.
  if (target.kind === "one" && !manifest)
    manifest = assumedManifest(version, latestTag(entry), {
      platform,
      registries: input.registries,
      target: planTarget(target),
    });
  const link = linkFor(entry, primary, version, input.sources);
  const choices = target.kind === "choose" && manifest ? choicesFor(manifest, target, fx) : [];
  const fragment = !manifest || manifest.origin === "assumed" ? evidence.fragment : null;
  return {
    kind: "panic",
    findings,
    primary,
    entry,
    version,
    link,
    manifest,
    platform,
    tooOld,
    firstCall: firstCallOf(entry, primary, input.text),
    target,
    choices,
    fragment,
  };
}

/** The feature a manifest is judged against; for a choice, the first one (the verdict says why the crate has none). */
function planTarget(t: TargetChoice & { kind: "one" | "choose" }) {
  return t.kind === "one" ? t.target : { crate: t.crate, feature: t.features[0]! };
}

function choicesFor(
  m: ManifestVerdict,
  t: TargetChoice & { kind: "choose" },
  fx: FixOptions,
): PanicAnalysis["choices"] {
  if (m.origin === "assumed" || m.plan.kind === "invalid-toml") return [];
  const out: PanicAnalysis["choices"] = [];
  for (const feature of t.features) {
    const plan = planFor(m, { ...fx, target: { crate: t.crate, feature } });
    if (plan.kind === "fixed") out.push({ feature, plan });
  }
  return out;
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
