#!/usr/bin/env node
// Rebuilds the app's bundled data from a burn-data folder (the ground truth extracted from burn's
// release tags). Nothing here is edited by hand afterwards:
//   data/index/tags/…   crates.io sparse-index files for every burn crate, one line per tag
//   data/index/main/…   the same for burn's main branch at the data's HEAD
//   data/catalog.yml    data/catalog-source.yml joined with the per-ref panic sites
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

const entries = source.entries.map((entry) => {
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
    });
  }
  if (sites.length === 0 && !entry.match) throw new Error(`no site in burn-data for catalog entry ${entry.id}`);
  const { seeds: _seeds, ...rest } = entry;
  return { ...rest, sites };
});

const refs = refsJson.refs.map((r) => ({ ref: r.ref, commit: r.commit, version: r.workspace_version, date: r.commit_date }));
const catalog = {
  generated_by: "scripts/import-burn-data.mjs from burn-data and data/catalog-source.yml; do not edit",
  repository: "tracel-ai/burn",
  refs,
  entries,
};
writeFileSync(join(root, "data/catalog.yml"), dump(catalog, { lineWidth: 120, noRefs: true }));

mkdirSync(join(root, "fixtures/burn-data"), { recursive: true });
cpSync(join(src, "features/autodiff-enablers.json"), join(root, "fixtures/burn-data/autodiff-enablers.json"));
console.log(`index: ${tags} tag files, ${main} main files; catalog: ${entries.length} entries, ${entries.reduce((n, e) => n + e.sites.length, 0)} sites; ${refs.length} refs`);
