// Stands in for src/util/lazy-modules.ts in the page's bundle (scripts/build-web.mjs): there is no
// `require` in a browser, and the page renders Markdown anyway, so both libraries are bundled.
import * as yaml from "js-yaml";
import MarkdownIt from "markdown-it";

export const jsYaml = () => yaml;
export const markdownIt = () => MarkdownIt;
