// The compile-time twin of a feature panic: rustc cannot find a `burn::…` item because the cargo
// feature that gates it is off. Pure: text (and the repository's manifests, when the shell read
// them) in; the gated paths at the user's burn version, the gate as the target of the same
// resolver and verified editor the panics use, and a link to the gating `#[cfg]` out.
import type { AnalyzeInput } from "../answer/analyze-input.js";
import type { BurnSources, SourceRead } from "../answer/burn-files.js";
import { type ManifestVerdict, manifestFromRepo, manifestFromText } from "../answer/find-manifest.js";
import type { FixOptions } from "../cargo/fix/fix.js";
import { parseManifest } from "../cargo/manifest/manifest.js";
import { gateHolds } from "../cargo/resolve/cfg.js";
import type { FeatureTarget } from "../cargo/resolve/resolve.js";
import { type Evidence, type FragmentShown, gatherEvidence } from "../evidence/index.js";
import { pickVersion, type VersionGuess } from "../evidence/version.js";
import { isReleaseTag, loadCatalog } from "../panics/catalog.js";
import { burnPermalink } from "../util/links.js";
import * as semver from "../util/semver.js";
import { type CompileFinding, detectCompile, failingCrate } from "./detect.js";
import { fromSource, ownFeatures } from "./from-source.js";
import { type Gate, gateAt, gatedRefs, refOfVersion } from "./gated.js";

export interface GatedItem {
  /** The first error that names it, and every error that does. */
  finding: CompileFinding;
  findings: CompileFinding[];
  /** The gated path (the finding's, or its nearest gated ancestor). */
  path: string;
  gate: Gate;
  /** Permalink to the gating `#[cfg]` at the user's release (null: not an allowed shape). */
  url: string | null;
}

export interface CompileAnalysis {
  findings: CompileFinding[];
  items: GatedItem[];
  /** Paths the release does not have at all (read from its source): no feature brings them back. */
  absent: string[];
  /** burn files to read at the user's release before the answer is exact (none: it is). */
  reads: SourceRead[];
  ref: string;
  /**
   * The release judged and where it came from, the one provenance every sentence takes (the panic
   * analysis carries the same type): assumed when nothing named one.
   */
  release: VersionGuess & { version: string };
  /** With an assumed version: the releases where every item has the same gate and answer. */
  agreeing: string[] | null;
  /** The burn the text names (a version or requirement) when the gated-path data lacks it. */
  beyond: string | null;
  /** null when no item is gated (every path is absent at the release). */
  target: FeatureTarget | null;
  manifest: ManifestVerdict | null;
  /** The error is in this dependency, not in the reporter's crate: the edit helps only if it builds against the same burn. */
  failingCrate: string | null;
  /** A pasted fragment without the burn line, when no manifest was read. */
  fragment: FragmentShown | null;
  /** The data's ready answer: burn features to add, with and without default features. */
  suggest: { withDefaults: string[] | null; noDefaults: string[] | null };
}

/** From this release on, the Dispatch backend has a stub AutodiffBackend impl: no compile error. */
function stubSince(): string | null {
  const stub = loadCatalog().entries.find((e) => e.id === "dispatch-autodiff-stub");
  const versions = (stub?.sites ?? []).map((s) => s.version).filter((v): v is string => v !== null);
  return versions.sort(semver.compare)[0] ?? null;
}

/** Every assignment of the features both gates name that opens `a` opens `b` too (at most 2^8 tried). */
function implies(a: string, b: string): boolean {
  if (a === b) return true;
  const names = [...new Set([...`${a} ${b}`.matchAll(/feature = "([^"]+)"/g)].map((m) => m[1]!))];
  if (names.length > 8) return false;
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const on = (f: string) => names.includes(f) && (mask & (1 << names.indexOf(f))) !== 0;
    if (gateHolds(a, on) && !gateHolds(b, on)) return false;
  }
  return true;
}

/**
 * A module rustc could not find and what a `use` imports through it: the import is named when it
 * needs more than the module (`burn::backend::Wgpu` needs `wgpu` too), the module alone when its
 * gate already brings every import (`burn::train::Learner` needs `train`, as `burn::train` does).
 */
function namedItems(items: GatedItem[]): GatedItem[] {
  const under = (i: GatedItem, a: GatedItem) => i.path.startsWith(`${a.path}::`);
  return items.filter(
    (i) =>
      !items.some((a) => under(i, a) && implies(a.gate.gate, i.gate.gate)) &&
      !items.some((d) => under(d, i) && implies(d.gate.gate, i.gate.gate) && !implies(i.gate.gate, d.gate.gate)),
  );
}

function itemsAt(ref: string, version: string | null, findings: CompileFinding[]): GatedItem[] {
  const since = stubSince();
  const out: GatedItem[] = [];
  for (const f of findings) {
    if (f.code === "E0277" && version && since && semver.gte(version, since)) continue;
    const hit = gateAt(ref, f);
    if (!hit) continue;
    const same = out.find((i) => i.path === hit.path);
    if (same) {
      same.findings.push(f);
      continue;
    }
    out.push({
      finding: f,
      findings: [f],
      path: hit.path,
      gate: hit.gate,
      url: burnPermalink(ref, hit.gate.file, hit.gate.cfg_line, null),
    });
  }
  return namedItems(out);
}

/** Items from rustc's configured-out notes, when every error has one (else null: the data decides). */
function itemsFromNotes(findings: CompileFinding[]): GatedItem[] | null {
  const out: GatedItem[] = [];
  for (const f of findings) {
    const n = f.note;
    if (!n) return null;
    const feature = `${n.crate}/${n.feature}`;
    // burn's own features are its answer; an inner crate's is reached through the resolver.
    const suggest = ownFeatures(`feature = "${feature}"`);
    const gate: Gate = {
      gate: `feature = "${feature}"`,
      // What the user's own rustc printed: quoted as it is, never rewritten.
      cfg: n.cfg,
      crate: n.crate,
      file: n.file,
      cfg_line: n.cfgLine,
      suggest,
      suggest_no_default: suggest,
      by_default: null,
      from: "rustc",
    };
    const same = out.find((i) => i.path === f.path);
    if (same) same.findings.push(f);
    else
      out.push({
        finding: f,
        findings: [f],
        path: f.path,
        gate,
        url: n.version ? burnPermalink(`v${n.version}`, n.file, n.cfgLine, null) : null,
      });
  }
  return out.length > 0 ? out : null;
}

function union(lists: Array<string[] | null>): string[] | null {
  if (lists.some((l) => l === null)) return null;
  return [...new Set(lists.flatMap((l) => l!))];
}

function suggestOf(items: GatedItem[]): CompileAnalysis["suggest"] {
  return {
    withDefaults: union(items.map((i) => i.gate.suggest)),
    noDefaults: union(items.map((i) => i.gate.suggest_no_default)),
  };
}

function targetOf(items: GatedItem[]): FeatureTarget {
  const gates = [...new Set(items.map((i) => i.gate.gate))];
  const gate = gates.length === 1 ? gates[0]! : `all(${gates.join(", ")})`;
  const label = items.map((i) => i.path).join(" and ");
  return { crate: "burn", feature: items[0]!.path, gate, label };
}

/** Releases (oldest first) at which every item is gated the same way with the same answer. */
function agreeingRefs(items: GatedItem[]): string[] {
  const sig = (g: Gate) => JSON.stringify([g.gate, g.suggest, g.suggest_no_default]);
  return gatedRefs().filter((ref) =>
    items.every((i) => {
      const at = gateAt(ref, i.finding);
      return at !== null && at.path === i.path && sig(at.gate) === sig(i.gate);
    }),
  );
}

/**
 * The rustc errors of a text that name a path gated in some release the data has: what decides,
 * before any API call, whether the issue is one to answer.
 */
export function gatedFindings(text: string): CompileFinding[] {
  const findings = detectCompile(text);
  if (findings.length === 0) return [];
  const refs = gatedRefs();
  // A log repeats its errors (64 KiB held twenty paths 200 times): each lookup once.
  const known = new Map<string, boolean>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.path, f.exact, f.member ?? false]);
    let gated = known.get(key);
    if (gated === undefined) {
      gated = refs.some((r) => gateAt(r, f) !== null);
      known.set(key, gated);
    }
    return gated;
  });
}

/** The release a manifest selects (its graph is known), else the requirement it names (a graph the data lacks). */
function manifestRelease(probe: ManifestVerdict | null): {
  manifestVersion: string | null;
  requirement: string | null;
  /** The requirement as written that resolved to `manifestVersion`. */
  written?: string | null;
} {
  const d = probe && probe.plan.kind !== "invalid-toml" ? probe.plan.diagnosis : null;
  if (d?.graphVersion && !d.assumed.graph && !d.assumed.version)
    return { manifestVersion: d.graphVersion, requirement: null, written: d.primary?.effective.version ?? null };
  return { manifestVersion: null, requirement: d?.assumed.graph ? (d.primary?.effective.version ?? null) : null };
}

/** A release the build printed (a crate path) or locked pins the graph the manifest is judged on. */
function pinnedOptions(input: AnalyzeInput, seen: Evidence["versions"]): FixOptions {
  return {
    burnVersion: seen.path ?? seen.lock ?? seen.tree,
    burnVersionSource: seen.path ? "crate-path" : seen.lock ? "lock" : "cargo-tree",
    platform: input.platform,
    registries: input.registries,
  };
}

/** `gather`: the text's evidence, asked for only when the text has a rustc error to answer. */
export function analyzeCompile(
  input: AnalyzeInput,
  gather: () => Evidence = () => gatherEvidence(input.text, input.repoLock),
): CompileAnalysis | null {
  const findings = detectCompile(input.text);
  if (findings.length === 0) return null;
  const evidence = gather();
  const seen = evidence.versions;
  const exact = seen.path ?? seen.lock ?? seen.tree;
  const fx = pinnedOptions(input, seen);
  const find = (target: FeatureTarget, additions: string[][]) => {
    const o = { ...fx, target, additions };
    return manifestFromText(evidence.snippets, o) ?? manifestFromRepo(input, o);
  };

  // The release, in the order panics use (src/evidence/version.ts). The manifest's burn is
  // judged once on the newest release's gate to learn which release it selects.
  const refs = gatedRefs();
  const newest = [...refs].reverse().find((r) => itemsAt(r, r.slice(1), findings).length > 0);
  if (!newest) return null;
  const { manifestVersion, requirement, written } = exact
    ? { manifestVersion: null, requirement: null, written: null }
    : manifestRelease(find(targetOf(itemsAt(newest, newest.slice(1), findings)), []));
  const guess = pickVersion(
    { text: seen, manifest: manifestVersion, manifestRequirement: written },
    { version: null, commit: null, source: "assumed" },
  );
  const known = guess.version !== null && refOfVersion(guess.version) !== null;
  const tag = !known && guess.version !== null && isReleaseTag(`v${guess.version}`) ? `v${guess.version}` : null;
  const live = tag ? atTag(tag, findings, input.sources) : null;
  const settled = live && "items" in live ? live : null;
  const version = known || settled ? guess.version! : newest.slice(1);
  const ref = settled ? tag! : refOfVersion(version)!;
  const items = settled?.items ?? itemsAt(ref, version, findings);
  const absent = settled?.absent ?? [];
  const reads = live && "reads" in live ? live.reads : [];
  const pending: CompileAnalysis = {
    findings,
    items: [],
    absent: [],
    reads,
    ref,
    release: known || settled ? { ...guess, version } : { version, commit: null, source: "assumed" },
    agreeing: null,
    beyond: known || settled ? null : (guess.version ?? requirement),
    target: null,
    manifest: null,
    failingCrate: null,
    fragment: evidence.fragment,
    suggest: { withDefaults: null, noDefaults: null },
  };
  // Not gated at that release: the user's own module, a typo, something renamed or removed.
  if (items.length === 0) return absent.length > 0 ? { ...pending, absent } : reads.length > 0 ? pending : null;

  const [target, suggest] = [targetOf(items), suggestOf(items)];
  const additions = [suggest.withDefaults, suggest.noDefaults].filter((a): a is string[] => a !== null && a.length > 0);
  const manifest = find(target, additions);
  // The gate holds with this manifest: the item exists there, so the error has another cause
  // (unless the release's own source, still to read, says otherwise).
  if (manifest?.plan.kind === "already-on") return reads.length > 0 ? pending : null;
  return {
    ...pending,
    items,
    absent,
    agreeing: pending.release.source === "assumed" ? agreeingRefs(items) : null,
    target,
    manifest,
    failingCrate: failingCrate(input.text, ownPackage(manifest), declaredNames(manifest)),
    fragment: manifest ? null : evidence.fragment,
    suggest,
  };
}

/**
 * The answer at a release the data lacks: rustc's configured-out notes when every error has one,
 * else burn's source read at that tag (`reads`: files to read first). null: neither decides.
 */
function atTag(
  tag: string,
  findings: CompileFinding[],
  sources: BurnSources | undefined,
): { items: GatedItem[]; absent: string[] } | { reads: SourceRead[] } | null {
  const noted = itemsFromNotes(findings);
  if (noted) return { items: noted, absent: [] };
  // A method is looked for in the file where the newest data release has it (it is never called
  // absent: it may have moved).
  const paths = findings.filter((f) => f.member || f.path.startsWith("burn::"));
  if (paths.length === 0) return null;
  const newest = gatedRefs().at(-1);
  const hint = (f: CompileFinding) => {
    const at = newest ? gateAt(newest, f) : null;
    return at ? { path: at.path, file: at.gate.file } : null;
  };
  const r = fromSource(tag, paths, sources, hint);
  if (r.kind === "unknown") return null;
  if (r.kind === "need") return { reads: r.files.map((path) => ({ ref: tag, path })) };
  const items: GatedItem[] = [];
  for (const g of r.gated) {
    const same = items.find((i) => i.path === g.path);
    if (same) same.findings.push(g.finding);
    else items.push({ finding: g.finding, findings: [g.finding], path: g.path, gate: g.gate, url: g.url });
  }
  return { items: namedItems(items), absent: [...new Set(r.absent.map((f) => f.path))] };
}

/** The reporter's package name, from the manifest judged (null: not shown). */
/** The crates the manifest read declares: one the log names is a dependency by the user's own words. */
function declaredNames(m: ManifestVerdict | null): string[] {
  if (!m || m.plan.kind === "invalid-toml") return [];
  try {
    return parseManifest(m.file.text).dependencies.map((d) => d.key);
  } catch {
    return []; // an unreadable manifest declares nothing we can cite
  }
}

function ownPackage(m: ManifestVerdict | null): string | null {
  if (!m || m.plan.kind === "invalid-toml") return null;
  return /^\s*\[package\][^[]*?\bname\s*=\s*"([^"]+)"/m.exec(m.file.text)?.[1] ?? null;
}
