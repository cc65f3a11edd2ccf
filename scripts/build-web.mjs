// Builds the web page, dist/web/: web/index.html and web/style.css, the page's code with the same
// answer function as the command line's explain (app.js, one ES module bundle for browsers), and
// the bundled data split for lazy loading: data/base.json (what every answer reads) and one
// data/release-<version>.json per burn release of the tags snapshot (its index lines), fetched
// the first time an answer reads one. Run after `npm run build` (it reads lib/ and data/.cache/).
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";
import { indexPath } from "../lib/cargo/index/index-file.js";
import { snapshot, snapshotCrates } from "../lib/cargo/index/registry.js";
import { readCache } from "../lib/data/data-cache.js";
import { dataDir } from "../lib/data/data-dir.js";

const require = createRequire(import.meta.url);
const { PAGE_MODULES } = require("../web/page-modules.cjs");
const outdir = "dist/web";

/** Modules the core imports that only work on Node, and what the page bundles instead. */
const swaps = {
  [resolve("src/data/node-data-files.ts")]: resolve("web/src/node-free.ts"),
  [resolve("src/util/lazy-modules.ts")]: resolve("web/src/lazy-modules.ts"),
};

const swap = {
  name: "page-swaps",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (a) => {
      const path = resolve(a.resolveDir, a.path).replace(/\.js$/, ".ts");
      return swaps[path] ? { path: swaps[path] } : undefined;
    });
  },
};

async function bundle() {
  const result = await build({
    entryPoints: ["web/src/main.ts"],
    outfile: `${outdir}/app.js`,
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    sourcemap: true,
    legalComments: "eof",
    metafile: true,
    logLevel: "warning",
    // @iarna/toml reads `global`, which only Node defines.
    define: { global: "globalThis" },
    plugins: [swap],
  });
  // Every module of ours the page bundles is one the lint rule keeps free of Node (web/page-modules.cjs).
  const ours = Object.keys(result.metafile.inputs).filter((p) => !p.includes("node_modules/"));
  const unchecked = ours.filter((p) => !new RegExp(PAGE_MODULES).test(p));
  if (unchecked.length) throw new Error(`the page bundles modules web/page-modules.cjs does not cover: ${unchecked}`);
  return result;
}

/** The build's derived entries, only while fresh: the page trusts them without checking. */
function cached() {
  const wanted = {
    "catalog.json": ["catalog.yml"],
    "screen-plan.json": ["catalog.yml", "screen-frequency.json"],
    "tags-snapshot.json": ["index/tags"],
    "main-snapshot.json": ["index/main"],
  };
  return Object.fromEntries(
    Object.entries(wanted).map(([name, sources]) => {
      const value = readCache(name, sources);
      if (value === undefined) throw new Error(`data/.cache/${name} is missing or stale: run npm run build first`);
      return [name, value];
    }),
  );
}

const optional = (rel) => {
  try {
    return [[rel, readFileSync(join(dataDir, rel), "utf8")]];
  } catch {
    return [];
  }
};

/** The tags snapshot's lines, by release, and where each sits (by file and first byte). */
function releases(tables) {
  const spans = {};
  const byRelease = {};
  for (const [file, { lines }] of Object.entries(tables.crates)) {
    const rel = `index/tags/${indexPath(file)}`;
    const bytes = readFileSync(join(dataDir, rel));
    spans[rel] = {};
    for (const [vers, , start, length] of lines) {
      spans[rel][start] = vers;
      byRelease[vers] ??= {};
      byRelease[vers][rel] ??= {};
      byRelease[vers][rel][start] = bytes.toString("utf8", start, start + length);
    }
  }
  return { spans, byRelease };
}

function data() {
  const cache = cached();
  const mainFiles = snapshotCrates("main").map((name) => `index/main/${indexPath(name)}`);
  const files = Object.fromEntries([
    ...["screen-frequency.json", "gated.json", "removed-features.json", ".cache/catalog-sites.jsonl"].map((rel) => [
      rel,
      readFileSync(join(dataDir, rel), "utf8"),
    ]),
    ...["gated-refreshed.json", "removed-features-refreshed.json", "catalog-refreshed.yml"].flatMap(optional),
    ...mainFiles.map((rel) => [rel, readFileSync(join(dataDir, rel), "utf8")]),
  ]);
  const { spans, byRelease } = releases(cache["tags-snapshot.json"]);
  mkdirSync(`${outdir}/data`, { recursive: true });
  const sizes = {};
  for (const [vers, lines] of Object.entries(byRelease)) {
    const json = JSON.stringify(lines);
    writeFileSync(`${outdir}/data/release-${vers}.json`, json);
    sizes[vers] = Buffer.byteLength(json);
  }
  const names = { "index/tags": snapshotCrates("tags"), "index/main": snapshotCrates("main") };
  const base = { label: snapshot("tags").label, files, cached: cache, names, spans, releases: sizes };
  writeFileSync(`${outdir}/data/base.json`, JSON.stringify(base));
}

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const result = await bundle();
for (const f of ["index.html", "style.css"]) copyFileSync(`web/${f}`, `${outdir}/${f}`);
data();
writeFileSync("dist/web-meta.json", JSON.stringify(result.metafile));
console.log(`built ${relative(".", outdir)}/`);
