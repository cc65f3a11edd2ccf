// The compile-time twin of a feature panic: rustc cannot find a `burn::…` item because the cargo
// feature that gates it is off. Pure: text (and the repository's manifests, when the shell read
// them) in; the gated paths at the user's burn version, the gate as the target of the same
// resolver and verified editor the panics use, and a link to the gating `#[cfg]` out.
import semver from "semver";
import type { Platform } from "../cargo/cfg.js";
import type { FixOptions, ManifestFile } from "../cargo/fix.js";
import type { FeatureTarget } from "../cargo/resolve.js";
import { type ManifestVerdict, manifestFromRepo, manifestFromText } from "../find-manifest.js";
import { loadCatalog } from "../panics/catalog.js";
import { versionFromLock, versionFromProse } from "../panics/version.js";
import { burnPermalink } from "../render/links.js";
import { type CompileFinding, detectCompile } from "./detect.js";
import { type Gate, gateAt, gatedRefs, refOfVersion } from "./gated.js";

export interface CompileInput {
  text: string;
  repoManifests?: ManifestFile[];
  repoRoot?: ManifestFile | null;
  repoLock?: string | null;
  registries?: FixOptions["registries"];
  platform?: Platform;
}

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
  ref: string;
  version: string;
  versionSource: "Cargo.lock" | "manifest" | "prose" | "assumed";
  /** With an assumed version: the releases where every item has the same gate and answer. */
  agreeing: string[] | null;
  /** The burn the build names (a version or requirement) when the gated-path data lacks it. */
  beyond: string | null;
  target: FeatureTarget;
  manifest: ManifestVerdict | null;
  /** The data's ready answer: burn features to add, with and without default features. */
  suggest: { withDefaults: string[] | null; noDefaults: string[] | null };
}

/** From this release on, the Dispatch backend has a stub AutodiffBackend impl: no compile error. */
function stubSince(): string | null {
  const stub = loadCatalog().entries.find((e) => e.id === "dispatch-autodiff-stub");
  const versions = (stub?.sites ?? []).map((s) => s.version).filter((v): v is string => v !== null);
  return versions.sort(semver.compare)[0] ?? null;
}

function itemsAt(ref: string, version: string | null, findings: CompileFinding[]): GatedItem[] {
  const since = stubSince();
  const out: GatedItem[] = [];
  for (const f of findings) {
    if (f.code === "E0277" && version && since && semver.gte(version, since)) continue;
    const hit = gateAt(ref, f.path, f.exact);
    if (!hit) continue;
    const same = out.find((i) => i.path === hit.path);
    if (same) {
      same.findings.push(f);
      continue;
    }
    out.push({ finding: f, findings: [f], path: hit.path, gate: hit.gate, url: burnPermalink(ref, hit.gate.file, hit.gate.cfg_line, null) });
  }
  return out;
}

function union(lists: Array<string[] | null>): string[] | null {
  if (lists.some((l) => l === null)) return null;
  return [...new Set(lists.flatMap((l) => l!))];
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
      const at = gateAt(ref, i.finding.path, i.finding.exact);
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
  return findings.filter((f) => refs.some((r) => gateAt(r, f.path, f.exact) !== null));
}

export function analyzeCompile(input: CompileInput): CompileAnalysis | null {
  const findings = detectCompile(input.text);
  if (findings.length === 0) return null;
  const lock = versionFromLock(input.text) ?? (input.repoLock ? versionFromLock(input.repoLock) : null);
  const fx: FixOptions = { burnVersion: lock, burnVersionSource: "lock", platform: input.platform, registries: input.registries };
  const find = (target: FeatureTarget, additions: string[][]) => {
    const o = { ...fx, target, additions };
    return manifestFromText(input.text, o) ?? manifestFromRepo(input, o);
  };

  // The release: Cargo.lock, else the manifest's burn (judged once on the newest release's gate
  // to learn which release it selects), else a version named in prose, else assumed.
  const refs = gatedRefs();
  const newest = [...refs].reverse().find((r) => itemsAt(r, r.slice(1), findings).length > 0);
  if (!newest) return null;
  let version: string | null = lock && refOfVersion(lock) ? lock : null;
  let source: CompileAnalysis["versionSource"] = "Cargo.lock";
  let beyond: string | null = lock && !version ? lock : null;
  if (!version) {
    const probe = find(targetOf(itemsAt(newest, newest.slice(1), findings)), []);
    const d = probe && probe.plan.kind !== "invalid-toml" ? probe.plan.diagnosis : null;
    if (d?.graphVersion && !d.assumed.graph && !d.assumed.version && refOfVersion(d.graphVersion)) {
      version = d.graphVersion;
      source = "manifest";
    } else if (d?.graphVersion && !d.assumed.graph && !d.assumed.version) {
      beyond ??= d.graphVersion;
    } else if (d?.assumed.graph && d.primary?.effective.version) {
      beyond ??= d.primary.effective.version;
    }
  }
  if (!version) {
    const prose = versionFromProse(input.text);
    if (prose && refOfVersion(prose)) {
      version = prose;
      source = "prose";
    }
  }
  if (!version) {
    version = newest.slice(1);
    source = "assumed";
  }
  const ref = refOfVersion(version)!;
  const items = itemsAt(ref, version, findings);
  // Not gated at that release: the user's own module, a typo, something renamed or removed.
  if (items.length === 0) return null;

  const target = targetOf(items);
  const suggest = { withDefaults: union(items.map((i) => i.gate.suggest)), noDefaults: union(items.map((i) => i.gate.suggest_no_default)) };
  const additions = [suggest.withDefaults, suggest.noDefaults].filter((a): a is string[] => a !== null && a.length > 0);
  const manifest = find(target, additions);
  // The gate holds with this manifest: the item exists there, so the error has another cause.
  if (manifest?.plan.kind === "already-on") return null;
  return { findings, items, ref, version, versionSource: source, agreeing: source === "assumed" ? agreeingRefs(items) : null, beyond: source === "assumed" ? beyond : null, target, manifest, suggest };
}
