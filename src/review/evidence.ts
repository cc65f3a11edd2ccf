// Does a crate's code need a rule's feature, and where does it say so? Pure: Rust source text in,
// the first line that shows it out, so a review can point at it. What to look for is the rule's
// (data/review-rules.yml): its signs, and the `burn::…` items the gated-path data puts behind its
// feature at the head's burn release.

import type { Diagnosis } from "../cargo/judge/diagnosis.js";
import { conjunctsOf } from "../cargo/resolve/cfg.js";
import { targetName } from "../cargo/resolve/resolve.js";
import { pathsRequiring, refOfVersion } from "../compile/gated.js";
import { MAX_RUST_FILE, type RustItem, type RustModule, rustItems } from "../compile/rust-items.js";
import type { ReviewRule, Sign } from "./rules.js";

export interface FeatureUse {
  path: string;
  /** 1-based. */
  line: number;
  /** The construct found, as written in Rust (render/ puts it in code). */
  what: string;
  /**
   * The `#[cfg(...)]`s the line sits under (its items', its inline modules', the file's own
   * `#![cfg]`s), verbatim; absent when it compiles in every build of the crate.
   */
  cfgs?: string[];
}

/**
 * What one rule looks for at one release. `modules` come from the gated-path data: a file that
 * names `burn::<module>` uses the module itself when it is gated, or one of `names` (the last
 * segments of its gated items: `CompactRecorder` after `use burn::record::{…}`).
 */
export interface UseMatcher {
  signs: Sign[];
  modules: Map<string, { gated: RegExp | null; names: RegExp | null }>;
}

/** Uses of one file whose cfgs are read, looking for one that compiles in every build. */
const MAX_USES_JUDGED = 64;

/** Lines longer than this are generated code or minified data, not a training loop. */
const MAX_LINE = 2000;

/** The matcher for `rule` at burn `version`; a gap when the rule needs data the bundle lacks for that release. */
export function matcherFor(rule: ReviewRule, version: string | null): UseMatcher | { gap: true } {
  const modules: UseMatcher["modules"] = new Map();
  if (rule.evidence.gatedPaths) {
    const ref = version ? refOfVersion(version) : null;
    const paths = ref ? pathsRequiring(ref, targetName(rule.target)) : null;
    if (!paths) return { gap: true };
    const names = new Map<string, Set<string>>();
    for (const p of paths) {
      const [, module, ...rest] = p.split("::");
      if (!module || !/^\w+$/.test(module)) continue;
      if (!names.has(module)) names.set(module, new Set());
      const last = rest.at(-1);
      if (last === undefined) modules.set(module, { gated: new RegExp(`\\bburn::${module}\\b`), names: null });
      else if (/^[A-Z]\w{3,}$/.test(last)) names.get(module)!.add(last);
    }
    for (const [module, set] of names) {
      const gated = modules.get(module)?.gated ?? null;
      const re = set.size > 0 ? new RegExp(`\\b(?:${[...set].sort().join("|")})\\b`) : null;
      if (gated || re) modules.set(module, { gated, names: re });
    }
  }
  return { signs: rule.evidence.signs, modules };
}

const usable = (line: string) => line.length <= MAX_LINE && !/^\s*\/\//.test(line);

/** The cfgs over `line` in a module: its own, then those of the item that holds the line, inward. */
function cfgsAt(module: RustModule, line: number): string[] {
  const out = [...module.cfgs];
  let holder: RustItem | null = null;
  for (const item of module.items) if (Math.min(item.cfgLine ?? item.line, item.line) <= line) holder = item;
  if (!holder) return out;
  out.push(...holder.cfgs);
  if (holder.kind === "mod" && holder.body) out.push(...cfgsAt(holder.body, line).filter((c) => !out.includes(c)));
  return out;
}

/**
 * The first use in the file that compiles in every build, else the first one under a `#[cfg]`
 * (with its cfgs): code under `#[cfg(feature = "pretrained")]` needs the feature only in the
 * builds where that cfg holds (src/review/pull-request.ts judges it with the crate's features).
 */
export function findUse(m: UseMatcher, path: string, text: string): FeatureUse | null {
  let items: RustModule | null | undefined;
  let conditional: FeatureUse | null = null;
  let seen = 0;
  for (const use of uses(m, path, text)) {
    // Each use costs a walk of the items: a file of thousands of uses is judged on its first ones.
    if (++seen > MAX_USES_JUDGED) break;
    items ??= text.length <= MAX_RUST_FILE ? rustItems(text) : null;
    const cfgs = items ? cfgsAt(items, use.line) : [];
    if (cfgs.length === 0) return use;
    conditional ??= { ...use, cfgs };
  }
  return conditional;
}

function* uses(m: UseMatcher, path: string, text: string): Generator<FeatureUse> {
  const lines = text.split("\n");
  for (const { re, what } of m.signs) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!usable(line)) continue;
      const hit = re.exec(line);
      if (hit) yield { path, line: i + 1, what: what ?? hit[0] };
    }
  }
  if (m.modules.size === 0) return;
  // The modules the file names, then the first line that uses one (or one of its gated items).
  const named = new Set<string>();
  for (const line of lines) if (usable(line)) for (const hit of line.matchAll(/\bburn::(\w+)/g)) named.add(hit[1]!);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!usable(line)) continue;
    for (const module of named) {
      const spec = m.modules.get(module);
      if (!spec) continue;
      const hit = spec.gated?.test(line) ? [`burn::${module}`] : spec.names?.exec(line);
      if (hit) {
        yield { path, line: i + 1, what: hit[0] };
        break; // one use per line
      }
    }
  }
}

/** Training-looking files first: they decide fastest. */
function priority(path: string): number {
  if (/train|learn|optim/i.test(path)) return 0;
  if (/(?:^|\/)(?:main|lib)\.rs$/.test(path)) return 1;
  return 2;
}

/** The crate's own Rust sources worth reading, best first, at most `max`. Nested crates are theirs, not this one's. */
export function sourcesToRead(
  crateDir: string,
  tree: readonly string[],
  otherCrateDirs: ReadonlySet<string>,
  max: number,
): string[] {
  const prefix = crateDir ? `${crateDir}/` : "";
  const insideOther = (p: string) =>
    [...otherCrateDirs].some((d) => d !== crateDir && d.startsWith(prefix) && p.startsWith(`${d}/`));
  return tree
    .filter(
      (p) =>
        p.endsWith(".rs") &&
        p.startsWith(prefix) &&
        /^(?:src|examples|benches|tests)\//.test(p.slice(prefix.length)) &&
        !insideOther(p),
    )
    .sort((a, b) => priority(a) - priority(b) || a.localeCompare(b))
    .slice(0, max);
}

/**
 * A use under `#[cfg(feature = "x")]` (alone or in an `all(…)`) where the crate's own feature `x`
 * turns the rule's feature on at the head: it compiles only in builds that have what it needs.
 */
export function underOwnFeature(use: FeatureUse, after: Diagnosis): boolean {
  const bringing = new Set(after.gatedBehind);
  return (use.cfgs ?? []).some((cfg) =>
    conjunctsOf(cfg).some((c) => bringing.has(/^feature\s*=\s*"([^"]+)"$/.exec(c)?.[1] ?? "")),
  );
}
