// Libraries that only some calls need, loaded on the first call that does. In the bundles
// (dist/cli/, dist/action.js) esbuild turns each literal `require` into a bundled module that
// runs when first required; an `import` would run at load instead: markdown-it and js-yaml were a
// quarter of a CLI call (11 and 10 ms of loading explain's bundle, which most calls, the ones
// with a cache built and a panic with a location, never use). From the ES modules tsc writes
// (lib/, jest), where there is no `require`, they come through `createRequire`.
import { createRequire } from "node:module";
import type MarkdownItClass from "markdown-it";

type Yaml = typeof import("js-yaml");

const esmRequire = () => createRequire(import.meta.url);

let yamlModule: Yaml | undefined;
let markdownItModule: typeof MarkdownItClass | undefined;

export function jsYaml(): Yaml {
  yamlModule ??= typeof require === "function" ? (require("js-yaml") as Yaml) : (esmRequire()("js-yaml") as Yaml);
  return yamlModule;
}

export function markdownIt(): typeof MarkdownItClass {
  markdownItModule ??=
    typeof require === "function"
      ? (require("markdown-it") as typeof MarkdownItClass)
      : (esmRequire()("markdown-it") as typeof MarkdownItClass);
  return markdownItModule;
}
