// The modules the web page may bundle, which dependency-cruiser keeps free of Node
// (.dependency-cruiser.cjs, rules "page-is-browser-clean" and "page-needs-no-node-package");
// scripts/build-web.mjs fails when the page bundles a module of ours not matched here, so the
// rule follows the bundle. Left out: the shell's edge to crates.io (cargo/index/live-*), cargo's
// path rules on node:path's posix functions (cargo/manifest/workspace.ts, path-version.ts: only
// the command line and the app read a workspace from disk), and the two Node modules the page's
// build swaps for its own (src/data/node-data-files.ts, src/util/lazy-modules.ts).
const PAGE_MODULES = [
  "^web/src/",
  "^src/(answer|panics|compile|evidence|render|config)/",
  "^src/cargo/(?!index/live-|manifest/(workspace|path-version)\\.ts$)",
  "^src/cli/explain-answer\\.ts$",
  "^src/util/(memo|markdown|links|semver)\\.ts$",
  "^src/data/data-(access|files)\\.ts$",
].join("|");

module.exports = { PAGE_MODULES };
