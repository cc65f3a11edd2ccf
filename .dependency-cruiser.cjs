// The import graph's rules, checked by `npm run lint:imports` (part of `npm test`): no circle, and
// the functional core (decisions and data) imports neither the words (render/), nor the GitHub
// shell, nor the network. The shell (handlers/, github/, cli/, the entry points) may import all.
// cargo/index/live-index.ts and cargo/index/live-registries.ts are the shell's edge to crates.io
// (they fetch); the rest of cargo/ is pure. util/redact.ts and util/lazy-modules.ts serve the shell.
// What the web page bundles must run in a browser: no Node built-in and no Node-only package.
const { PAGE_MODULES } = require("./web/page-modules.cjs");
const NODE_ONLY = "node_modules/(probot|@probot|@octokit|ioredis|pino|pino-http|smee-client|cli-progress|cli-table3|bottleneck|lru-cache)/";
const CORE = "^src/(cargo/(?!index/live-)|panics/|compile/|evidence/|review/|scan/|answer/|config/)|^src/util/(memo|markdown|links|semver)\\.ts$|^src/data/data-(dir|cache)\\.ts$";

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "A circle makes every module in it load, and change, together.", from: {}, to: { circular: true } },
    { name: "core-says-nothing", severity: "error", comment: "Decisions return data; render/ words them.", from: { path: CORE }, to: { path: "^src/render/" } },
    { name: "core-is-offline", severity: "error", comment: "The core reads no network and no GitHub: the shell gathers, the core decides.", from: { path: CORE }, to: { path: "^src/(github|handlers|cli)/|^src/cargo/index/live-|node_modules/(probot|@octokit|ioredis)/|^(node:)?(http|https|net)$" } },
    { name: "shell-never-reaches-up", severity: "error", comment: "github/ and cli/ serve the handlers and the entry points; they never call a handler (scan and the handlers share the publisher instead).", from: { path: "^src/(github|cli|adapters)/" }, to: { path: "^src/handlers/" } },
    { name: "page-is-browser-clean", severity: "error", comment: "The web page bundles this module (web/page-modules.cjs): Node's built-ins and Node-only packages do not exist in a browser.", from: { path: PAGE_MODULES }, to: { dependencyTypes: ["core"] } },
    { name: "page-needs-no-node-package", severity: "error", comment: "The web page bundles this module (web/page-modules.cjs): a Node-only package does not run in a browser.", from: { path: PAGE_MODULES }, to: { path: NODE_ONLY } },
    { name: "render-takes-the-answer", severity: "error", comment: "Every renderer takes only the answer object (what --json prints): none reads the analysis it was built from.", from: { path: "^src/render/" }, to: { path: "^src/answer/analyze(-refusal|-input)?\\.ts$" } },
    { name: "product-ships-alone", severity: "error", comment: "src/ never imports the test harness or the benchmark.", from: { path: "^src/" }, to: { path: "^(test|bench)/" } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    exclude: { path: "^(lib|build|dist)/" },
  },
};
