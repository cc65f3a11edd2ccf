// Builds the command line, dist/cli/: one CommonJS bundle per command (explain, why|fix, review,
// scan) beside a small entry (src/cli.ts with the dispatcher) that requires only the one a call
// runs, so `--help` loads no analysis code at all. CommonJS rather than ES modules: Node 24 ran
// `why` from the CommonJS bundle in 124 ms against 139 ms from the same code as an ES module (one
// machine, medians of 21), and a package.json in the folder says which it is. `npm run build` writes it; it is not committed (the
// Action's bundle is).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, resolve } from "node:path";
import { build } from "esbuild";

const outdir = "dist/cli";
/** The commands, each in its own bundle (usage.ts is copied into each: see isUsageError). */
const separate = ["explain", "manifest", "review", "scan"].map((m) => `src/cli/${m}.ts`);

/**
 * Libraries src/util/lazy-modules.ts requires on first use, each in a bundle of its own: inside a
 * command's bundle V8 would still parse them on every call (markdown-it and js-yaml were 330 KiB
 * of explain's 730), though most calls never run them.
 */
const vendored = ["markdown-it", "js-yaml"];

/** An import of another bundle's module stays a require of that bundle's file. */
const sibling = (self) => ({
  name: "sibling-bundles",
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(?:${vendored.join("|")})$`) }, (a) =>
      a.kind === "require-call" ? { path: `./vendor/${a.path}.js`, external: true } : undefined,
    );
    b.onResolve({ filter: /^\.\.?\// }, (a) => {
      const path = resolve(a.resolveDir, a.path).replace(/\.js$/, ".ts");
      const i = separate.findIndex((s) => resolve(s) === path);
      if (i < 0 || resolve(self) === path) return undefined;
      return { path: `./${basename(separate[i], ".ts")}.js`, external: true };
    });
  },
});

/**
 * lru-cache picks its clock when it loads: reading the global `performance` makes Node load
 * perf_hooks, 1.2 ms of every call. The clock serves only TTLs, which no cache here sets, so in
 * the commands' bundles that choice is `Date`, what lru-cache itself falls back to.
 */
const lruClock = {
  name: "lru-cache-clock",
  setup(b) {
    b.onLoad({ filter: /[\\/]lru-cache[\\/]dist[\\/].*\.js$/ }, (a) => ({
      contents: readFileSync(a.path, "utf8").replace(
        /\(?\s*typeof performance\s*={2,3}\s*["']object["']\s*&&\s*performance\s*&&\s*typeof performance\.now\s*={2,3}\s*["']function["']\s*\)?\s*\?\s*performance\s*:\s*Date/g,
        "Date",
      ),
      loader: "js",
    }));
  },
};

const shared = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  // import() of a sibling bundle becomes a require: through the ES module loader Node would
  // first scan the whole CommonJS file for its export names.
  supported: { "dynamic-import": false },
  // src/data/data-dir.ts finds data/ from its own URL.
  define: { "import.meta.url": "__burnTriageUrl" },
  banner: { js: 'const __burnTriageUrl = require("node:url").pathToFileURL(__filename).href;' },
  legalComments: "eof",
  logLevel: "warning",
  // Less text for V8 to read on every call (explain's bundle from 384 to 275 KiB: 6% of a call);
  // names are kept for stack traces, and the source map says where (`node --enable-source-maps`).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
};

export const entries = ["src/cli.ts", ...separate];

if (import.meta.url === `file://${process.argv[1]}`) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  writeFileSync(`${outdir}/package.json`, `${JSON.stringify({ type: "commonjs" })}\n`);
  // One array: the vendored bundles were once a second argument, which Promise.all ignores.
  await Promise.all([
    ...entries.map((entry) =>
      build({
        ...shared,
        entryPoints: [entry],
        outfile: `${outdir}/${basename(entry, ".ts")}.js`,
        plugins: [sibling(entry), lruClock],
      }),
    ),
    ...vendored.map((name) =>
      // The package's CommonJS build (what `require` resolves to), so the bundle's exports are its own.
      build({
        ...shared,
        entryPoints: [createRequire(import.meta.url).resolve(name)],
        outfile: `${outdir}/vendor/${name}.js`,
      }),
    ),
  ]);
  // A new lru-cache that reads its clock another way would bring the 1.2 ms back unseen.
  for (const entry of entries) {
    const file = `${outdir}/${basename(entry, ".ts")}.js`;
    if (readFileSync(file, "utf8").includes("typeof performance"))
      throw new Error(`${file} reads the global performance at load: see lruClock in scripts/build-cli.mjs`);
  }
  // Each command bundle's content hash, which keys its cached code (src/cli/code-cache.ts).
  const hashes = Object.fromEntries(
    separate.map((entry) => {
      const file = `${basename(entry, ".ts")}.js`;
      return [
        file,
        createHash("sha256")
          .update(readFileSync(`${outdir}/${file}`))
          .digest("hex"),
      ];
    }),
  );
  writeFileSync(`${outdir}/bundles.json`, `${JSON.stringify(hashes, null, 2)}\n`);
}
