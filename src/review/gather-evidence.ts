// Each rule's evidence in the sources of the crates that lost its feature, for the App (files read
// through the contents API) and the CLI (files on disk) alike: the reader is the caller's, the
// choice of files, the caps and the answers are here.
import { dirOf, isManifest } from "../cargo/manifest/workspace.js";
import { type FeatureUse, findUse, sourcesToRead, type UseMatcher } from "./evidence.js";
import { declaredIn, modChainCfgs } from "./mod-chain.js";
import { evidenceNeeded, type PrSnapshot } from "./pull-request.js";
import { type ReviewRule, reviewRules, ruleById } from "./rules.js";
import { burnImports } from "./source-needs.js";

/** Crates whose sources are read for a rule's evidence, and Rust files read per crate. */
export const MAX_EVIDENCE_CRATES = 6;
export const MAX_CRATE_SOURCE_FILES = 6;

/**
 * A use with the cfgs of the `mod` declarations that reach its file added (src/review/mod-chain.ts):
 * `#[cfg(feature = "pretrained")] mod downloader;` in lib.rs gates every line of downloader.rs. A
 * chain this reader cannot follow leaves the use as its own file shows it.
 */
function chainReader(crateDir: string, tree: readonly string[], read: (path: string) => Promise<string | null>) {
  const prefix = crateDir ? `${crateDir}/` : "";
  const files = new Set(tree);
  const cache = new Map<string, Promise<string | null>>();
  const readRel = (rel: string) => {
    if (!cache.has(rel)) cache.set(rel, read(prefix + rel));
    return cache.get(rel)!;
  };
  return async (use: FeatureUse): Promise<FeatureUse> => {
    const chain = await modChainCfgs(use.path.slice(prefix.length), (rel) => files.has(prefix + rel), readRel);
    if (!chain || chain.length === 0) return use;
    const cfgs = [...chain, ...(use.cfgs ?? []).filter((c) => !chain.includes(c))];
    return { ...use, cfgs };
  };
}

/**
 * Every file `gatherEvidence` may read for this snapshot, so that a reader that pays per request,
 * not per file, can read them all at once beforehand.
 */
export function evidenceSources(snapshot: PrSnapshot, rules: readonly ReviewRule[] = reviewRules()): string[] {
  const crateDirs = new Set(snapshot.tree.filter(isManifest).map(dirOf));
  const tree = new Set(snapshot.tree);
  const paths = evidenceNeeded(snapshot, rules)
    .slice(0, MAX_EVIDENCE_CRATES)
    .flatMap(({ manifest }) => {
      const prefix = dirOf(manifest) ? `${dirOf(manifest)}/` : "";
      const own = sourcesToRead(dirOf(manifest), snapshot.tree, crateDirs, MAX_CRATE_SOURCE_FILES);
      // The files that declare them (their `mod` lines' cfgs gate them): one level, in the same batch.
      const parents = own.flatMap((p) => declaredIn(p.slice(prefix.length))?.parents.map((r) => prefix + r) ?? []);
      return [...own, ...parents.filter((p) => tree.has(p))];
    });
  return [...new Set(paths)];
}

/**
 * Fills `snapshot.evidence` (and its notices): one pass over at most MAX_CRATE_SOURCE_FILES files
 * per crate answers every rule that crate needs, and stops when all have an answer. A rule whose
 * data lacks the head's release gets no answer (and a note), not "none".
 */
export async function gatherEvidence(
  snapshot: PrSnapshot,
  read: (path: string) => Promise<string | null>,
  rules: readonly ReviewRule[] = reviewRules(),
): Promise<void> {
  const crates = evidenceNeeded(snapshot, rules);
  const wordsOf = (id: string) => ruleById(id, rules)!.words;
  if (crates.length > MAX_EVIDENCE_CRATES)
    snapshot.notices.push(
      `${crates.length} crates lost a feature their code may need; I read the sources of the first ${MAX_EVIDENCE_CRATES}`,
    );
  const crateDirs = new Set(snapshot.tree.filter(isManifest).map(dirOf));
  for (const { manifest, lookFor } of crates.slice(0, MAX_EVIDENCE_CRATES)) {
    const open = new Map<string, UseMatcher>();
    for (const { rule, matcher } of lookFor) {
      if ("gap" in matcher)
        snapshot.notices.push(
          `I could not look for ${wordsOf(rule).looked_for} in ${manifest}'s crate: the bundled gated-path data lacks its burn release`,
        );
      else open.set(rule, matcher);
    }
    for (const rule of open.keys()) {
      snapshot.evidence[rule] ??= {};
      snapshot.evidence[rule][manifest] = null;
    }
    const chain = chainReader(dirOf(manifest), snapshot.tree, read);
    let readAny = false;
    const texts: string[] = [];
    for (const path of sourcesToRead(dirOf(manifest), snapshot.tree, crateDirs, MAX_CRATE_SOURCE_FILES)) {
      if (open.size === 0) break;
      const text = await read(path);
      if (text === null) continue;
      readAny = true;
      texts.push(text);
      for (const [rule, matcher] of open) {
        const inFile = findUse(matcher, path, text);
        if (!inFile) continue;
        const found = await chain(inFile);
        // A use under a #[cfg] is kept until one that compiles in every build turns up.
        if (!found.cfgs) open.delete(rule);
        if (!found.cfgs || snapshot.evidence[rule]![manifest] === null) snapshot.evidence[rule]![manifest] = found;
      }
    }
    if (texts.length > 0) snapshot.imports = { ...snapshot.imports, [manifest]: burnImports(texts) };
    // No file read is no evidence either way: "its sources show no use" would be said of nothing.
    if (!readAny && open.size > 0) {
      for (const rule of open.keys()) delete snapshot.evidence[rule]![manifest];
      snapshot.noSources = [...(snapshot.noSources ?? []), manifest];
    }
  }
}
