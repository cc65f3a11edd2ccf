// The import graph's rules, checked by `npm run lint:imports` (part of `npm test`): no circle, and
// the functional core (decisions and data) imports neither the words (render/), nor the GitHub
// shell, nor the network. The shell (handlers/, github/, cli/, the entry points) may import all.
// cargo/index/live-index.ts and cargo/index/live-registries.ts are the shell's edge to crates.io
// (they fetch); the rest of cargo/ is pure. util/redact.ts and util/lazy-modules.ts serve the shell.
const CORE = "^src/(cargo/(?!index/live-)|panics/|compile/|evidence/|review/|scan/|answer/|config/)|^src/util/(memo|markdown|links|semver)\\.ts$|^src/data/data-(dir|cache)\\.ts$";

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "A circle makes every module in it load, and change, together.", from: {}, to: { circular: true } },
    { name: "core-says-nothing", severity: "error", comment: "Decisions return data; render/ words them.", from: { path: CORE }, to: { path: "^src/render/" } },
    { name: "core-is-offline", severity: "error", comment: "The core reads no network and no GitHub: the shell gathers, the core decides.", from: { path: CORE }, to: { path: "^src/(github|handlers|cli)/|^src/cargo/index/live-|node_modules/(probot|@octokit|ioredis)/|^(node:)?(http|https|net)$" } },
    { name: "shell-never-reaches-up", severity: "error", comment: "github/ and cli/ serve the handlers and the entry points; they never call a handler (scan and the handlers share the publisher instead).", from: { path: "^src/(github|cli|adapters)/" }, to: { path: "^src/handlers/" } },
    { name: "product-ships-alone", severity: "error", comment: "src/ never imports the test harness or the benchmark.", from: { path: "^src/" }, to: { path: "^(test|bench)/" } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    exclude: { path: "^(lib|build|dist)/" },
  },
};
