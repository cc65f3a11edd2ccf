#!/usr/bin/env node
// Rebuilds the app's bundled data from a burn-data folder (the ground truth extracted from burn's
// release tags). Nothing here is edited by hand afterwards:
//   data/index/tags/…   crates.io sparse-index files for every burn crate, one line per tag
//   data/index/main/…   the same for burn's main branch at the data's HEAD
//   data/catalog.yml    data/catalog-source.yml joined with the per-ref panic sites and the
//                       feature-gate family's sites (message, location, gate, fix feature per ref)
//   fixtures/burn-data/ the resolver's cross-check table (test oracle)
// Usage: node scripts/import-burn-data.mjs <burn-data dir>
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { dump, load } from "js-yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = process.argv[2];
if (!src || !existsSync(join(src, "panics", "summary.json"))) {
  console.error("usage: node scripts/import-burn-data.mjs <burn-data dir> (the folder holding panics/ and index/)");
  process.exit(2);
}

function copyIndex(from, to) {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  let n = 0;
  for (const prefix of ["bu/rn"]) {
    const dir = join(from, prefix);
    for (const name of readdirSync(dir)) {
      mkdirSync(join(to, prefix), { recursive: true });
      cpSync(join(dir, name), join(to, prefix, name));
      n++;
    }
  }
  return n;
}
const tags = copyIndex(join(src, "index"), join(root, "data/index/tags"));
const main = copyIndex(join(src, "index-main"), join(root, "data/index/main"));

const refsJson = JSON.parse(readFileSync(join(src, "refs.json"), "utf8"));
const panicRefs = readdirSync(join(src, "panics"))
  .filter((f) => f.endsWith(".json") && f !== "summary.json")
  .map((f) => JSON.parse(readFileSync(join(src, "panics", f), "utf8")));
const order = JSON.parse(readFileSync(join(src, "panics/summary.json"), "utf8")).refs_order;
panicRefs.sort((a, b) => order.indexOf(a.ref) - order.indexOf(b.ref));

const source = load(readFileSync(join(root, "data/catalog-source.yml"), "utf8"));
const matches = (entry, message) =>
  entry.match === "prefix" ? message.startsWith(entry.message) : message === entry.message;

/** Placeholders as one shape, `{lhs:?}`, `{:?}` and `{}` alike: to find what the entry meant. */
const shape = (m) => m.replace(/\{[^{}]*\}/g, "{}");

/** Why an entry found no site, with the spelling burn-data uses when only placeholders differ. */
function noSite(entry) {
  const near = panicRefs
    .flatMap((pr) => pr.sites)
    .find((s) => s.crate === entry.crate && shape(s.message) === shape(entry.message));
  const hint = near
    ? `: burn-data spells its placeholders as burn's source does; write the message as ${JSON.stringify(near.message)}`
    : ` (crate ${entry.crate}, message ${JSON.stringify(entry.message)})`;
  return `catalog entry ${entry.id}: no site in burn-data${hint}`;
}

function panicEntry(entry) {
  const sites = [];
  for (const pr of panicRefs) {
    for (const s of pr.sites) {
      if (s.crate !== entry.crate || !matches(entry, s.message)) continue;
      sites.push({
        ref: pr.ref,
        commit: pr.commit,
        version: pr.workspace_version,
        file: s.file,
        line: s.line,
        macro: s.macro,
        printed: s.printed,
        cfg: s.cfg,
        item: s.item,
        in_macro_rules: s.in_macro_rules,
        ...familyFix(pr.ref, s),
      });
    }
  }
  for (const seed of entry.seeds ?? []) {
    sites.push({
      ref: seed.commit,
      commit: seed.commit,
      version: null,
      file: seed.file,
      line: seed.line,
      macro: seed.macro,
      printed: seed.macro === "panic!" ? entry.message : `${seed.macro} ${entry.message}`,
      cfg: seed.cfg,
      item: seed.item,
      in_macro_rules: seed.in_macro_rules,
      seed_date: seed.date,
      fix: seed.fix ?? null,
    });
  }
  if (sites.length === 0 && !entry.match) throw new Error(noSite(entry));
  const { seeds: _seeds, ...rest } = entry;
  return { ...rest, site_kind: siteKind(entry, null), sites };
}

/** How a comment names the entry's code, unless the source entry says (see catalog-source.yml). */
function siteKind(entry, when) {
  if (entry.site_kind) return entry.site_kind;
  if (when === "compile-time") return "compile-error";
  if (entry.family) return "fallback";
  return entry.cause === "feature-off" ? "stub" : "check";
}

// The feature-gate family, per ref: every site with its gate and the feature that removes it.
const familyDir = join(src, "feature-family");
const familyRefs = readdirSync(familyDir)
  .filter((f) => f.endsWith(".json") && f !== "summary.json")
  .map((f) => JSON.parse(readFileSync(join(familyDir, f), "utf8")));
const familyOrder = JSON.parse(readFileSync(join(familyDir, "summary.json"), "utf8")).refs_order;
familyRefs.sort((a, b) => familyOrder.indexOf(a.ref) - familyOrder.indexOf(b.ref));

function fixOf(s) {
  const f = s.fix_features;
  if (!f) return null;
  return { crate: f.crate, features: f.features, ...(f.per_variant ? { per_variant: f.per_variant } : {}) };
}

/** The family's fix for a panics/ site, when the family holds the same site. */
function familyFix(ref, site) {
  const fr = familyRefs.find((r) => r.ref === ref);
  const same = fr?.sites.find((s) => s.file === site.file && s.line === site.line && s.crate === site.crate);
  return same ? { fix: fixOf(same) } : {};
}

function familyEntries(entry) {
  const groups = new Map();
  for (const fr of familyRefs) {
    for (const s of fr.sites) {
      if (s.id !== entry.family) continue;
      const key = s.backend ?? "";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push({ fr, s });
    }
  }
  if (groups.size === 0) throw new Error(`no site in burn-data feature-family for catalog entry ${entry.id}`);
  return [...groups].map(([backend, hits]) => {
    const fill = (t) => t.replaceAll("{backend}", backend);
    const last = hits.at(-1).s;
    return {
      id: backend ? `${entry.id}-${backend}` : entry.id,
      message: last.message.replace(/\n+$/, ""),
      crate: last.crate,
      cause: entry.cause,
      family: entry.family,
      ...(backend ? { backend } : {}),
      when: last.when,
      site_kind: siteKind(entry, last.when),
      ...(entry.prefer_item ? { prefer_item: entry.prefer_item } : {}),
      ...(entry.first_call ? { first_call: entry.first_call } : {}),
      ...(entry.gpu_backends ? { gpu_backends: entry.gpu_backends } : {}),
      title: fill(entry.title),
      explanation: fill(entry.explanation),
      fixes: entry.fixes.map(fill),
      sites: hits.map(({ fr, s }) => ({
        ref: fr.ref,
        commit: fr.commit,
        version: fr.workspace_version,
        file: s.file,
        line: s.line,
        macro: s.macro,
        printed: s.printed.replace(/\n+$/, ""),
        cfg: s.cfg,
        gate: s.effective_condition,
        item: s.item ?? (s.macro === "compile_error!" ? "compile_error!" : "(top level)"),
        in_macro_rules: s.in_macro_rules,
        fix: fixOf(s),
      })),
    };
  });
}

const entries = source.entries.flatMap((entry) => (entry.family ? familyEntries(entry) : [panicEntry(entry)]));
const ids = entries.map((e) => e.id);
const dup = ids.find((id, i) => ids.indexOf(id) !== i);
if (dup) throw new Error(`catalog id ${dup} appears twice`);

// Feature-gated public paths (gated/): per ref, which `burn::…` paths exist only behind a gate,
// compacted (paths and gates interned once across refs) for the compile-error answers. Methods
// and associated items (E0599) are kept apart, under their shortest path and every other path of
// their type (`burn::tensor::Device::autodiff` too), since rustc prints whichever is visible; of
// the impls, only Dispatch's AutodiffBackend impl (0.21's "trait bound … is not satisfied").
const gatedDir = join(src, "gated");
const gated = {
  generated_by: "scripts/import-burn-data.mjs from burn-data gated/; do not edit",
  paths: [],
  gates: [],
  refs: {},
};
const pathIndex = new Map();
const gateIndex = new Map();
const intern = (map, list, key, value) => {
  if (!map.has(key)) {
    map.set(key, list.length);
    list.push(value);
  }
  return map.get(key);
};
// extra/ holds the releases before 0.16 (v0.9.0 … v0.15.0), read the same way.
const gatedFiles = [
  ...readdirSync(gatedDir)
    .filter((f) => f.endsWith(".json") && !["summary.json", "validation.json"].includes(f))
    .map((f) => join(gatedDir, f)),
  ...readdirSync(join(gatedDir, "extra"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => join(gatedDir, "extra", f)),
];
for (const file of gatedFiles) {
  const g = JSON.parse(readFileSync(file, "utf8"));
  const rows = [];
  const methods = [];
  for (const e of g.entries) {
    if (!e.gate) continue;
    if (
      e.kind === "impl" &&
      !(
        /^<burn::(?:backend::)?Dispatch as burn::(?:\w+::)*AutodiffBackend>$/.test(e.path) &&
        !e.gate.includes('not(feature = "burn-dispatch/autodiff")')
      )
    )
      continue;
    const bf = e.burn_features ?? {};
    const gate = {
      gate: e.gate,
      // The gating line's own predicate as burn's source writes it (its crate's feature names),
      // what a comment quotes; `gate` above is the whole condition, crate-qualified.
      cfg: e.cfg ?? null,
      crate: e.crate,
      file: e.file,
      cfg_line: e.cfg_line ?? e.line,
      suggest: bf.suggest ?? null,
      suggest_no_default: bf.suggest_no_default ?? null,
      by_default: bf.by_default ?? null,
    };
    const gi = intern(gateIndex, gated.gates, JSON.stringify(gate), gate);
    if (e.kind !== "method") {
      rows.push([intern(pathIndex, gated.paths, e.path, e.path), gi]);
      continue;
    }
    const spellings = [e.path, ...(e.type_aliases ?? []).map((t) => `${t}::${e.name}`)];
    for (const p of new Set(spellings)) methods.push([intern(pathIndex, gated.paths, p, p), gi]);
  }
  // Tags before the workspace had one version name it only in the tag.
  const version = g.workspace_version ?? g.ref.replace(/^v/, "");
  gated.refs[g.ref] = { version, commit: g.commit, entries: rows, methods };
}
writeFileSync(join(root, "data/gated.json"), `${JSON.stringify(gated)}\n`);

const refs = refsJson.refs.map((r) => ({
  ref: r.ref,
  commit: r.commit,
  version: r.workspace_version,
  date: r.commit_date,
}));
const catalog = {
  generated_by: "scripts/import-burn-data.mjs from burn-data and data/catalog-source.yml; do not edit",
  repository: "tracel-ai/burn",
  refs,
  entries,
};
writeFileSync(join(root, "data/catalog.yml"), dump(catalog, { lineWidth: 120, noRefs: true }));

mkdirSync(join(root, "fixtures/burn-data"), { recursive: true });
cpSync(join(src, "features/autodiff-enablers.json"), join(root, "fixtures/burn-data/autodiff-enablers.json"));
// The family's `burn` feature table, checked with `cargo tree` by burn-data: the oracle for the
// resolver on targets other than burn-dispatch/autodiff.
const familyOracle = {};
for (const fr of familyRefs) {
  const targets = {};
  for (const site of fr.sites)
    for (const [inner, facts] of Object.entries(site.burn_features ?? {}))
      targets[inner] = {
        alone: facts.alone,
        by_default: facts.by_default,
        only_together_with: facts.only_together_with,
      };
  familyOracle[fr.ref] = { version: fr.workspace_version, targets };
}
writeFileSync(join(root, "fixtures/burn-data/family-enablers.json"), `${JSON.stringify(familyOracle, null, 1)}\n`);
console.log(
  `index: ${tags} tag files, ${main} main files; catalog: ${entries.length} entries, ${entries.reduce((n, e) => n + e.sites.length, 0)} sites; ${refs.length} refs`,
);
// Features releases removed (feature-history/): each with the release, what replaces it, or the
// advice when nothing does. The bot says a removal's replacement only from here.
const history = JSON.parse(readFileSync(join(src, "feature-history/removed-features.json"), "utf8"));
const removed = {
  generated_by: "scripts/import-burn-data.mjs from burn-data feature-history/; do not edit",
  removed: history.removed.map(({ crate, feature, at, replacement, advice }) => ({
    crate,
    feature,
    at,
    replacement: replacement ?? null,
    ...(advice ? { advice } : {}),
  })),
};
writeFileSync(join(root, "data/removed-features.json"), `${JSON.stringify(removed, null, 1)}\n`);

// The word screen's frequencies follow the catalog's words.
await import("./screen-frequency.mjs");
