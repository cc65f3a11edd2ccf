// The page's answer: the command line's explain (src/cli/explain-answer.ts) on the page's data,
// the `why` of a pasted Cargo.toml, and Markdown to HTML as one function the end-to-end test
// also runs, so that page and command are compared on the same rendering.
import MarkdownIt from "markdown-it";
import { knownOn } from "../../src/answer/answer-edit.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { AUTODIFF_TARGET, targetName } from "../../src/cargo/resolve/resolve.js";
import { type ExplainAnswer, explainOffline } from "../../src/cli/explain-answer.js";
import { useDataFiles } from "../../src/data/data-files.js";
import { fence } from "../../src/render/escape.js";
import { reasonText, verdictWords, why } from "../../src/render/why.js";
import * as semver from "../../src/util/semver.js";
import { fetchJson, NotFetched, type PageData, type ReleaseData } from "./page-data.js";

// GitHub shows the bot's own <details>, <summary> and <sub> as markup and hides its HTML comments
// (the marker). The page does that and nothing more: every HTML token markdown-it finds is written
// back as those bare tags only (no attribute), a comment is dropped, and all else, pasted text
// included, is escaped, so it shows as text, never as markup.
const markdown = new MarkdownIt("default", { html: true, linkify: false });
const SHOWN_TAG = /^<\/?(details|summary|sub)>$/;
const HTML_PART = /(<!--[\s\S]*?-->|<[^<>]*>)/;
const escapeHtml = markdown.utils.escapeHtml;

const shownPart = (part: string, i: number): string => {
  if (i % 2 === 0 || part.startsWith("<!--")) return i % 2 === 0 ? escapeHtml(part) : "";
  return SHOWN_TAG.test(part) ? part : escapeHtml(part);
};
const allowListed = (html: string): string => html.split(HTML_PART).map(shownPart).join("");
markdown.renderer.rules.html_block = (tokens, idx) => allowListed(tokens[idx]?.content ?? "");
markdown.renderer.rules.html_inline = (tokens, idx) => allowListed(tokens[idx]?.content ?? "");

/** The comment's HTML as the page shows it. */
export const commentHtml = (comment: string): string => markdown.render(comment);

/** The text explain answers: the pasted output, and a pasted Cargo.toml as an issue would show it. */
export function issueText(output: string, manifest: string): string {
  if (!manifest.trim()) return output;
  return `${output.trimEnd()}\n\nCargo.toml:\n\n${fence(manifest.trimEnd(), "toml")}\n`;
}

export interface PageAnswer {
  explain: ExplainAnswer;
  /** The manifest's `why` as Markdown; null without a manifest. */
  why: string | null;
  /** The burn releases whose index lines this answer fetched. */
  fetched: string[];
}

export function whyMarkdown(manifest: string): string | null {
  if (!manifest.trim()) return null;
  try {
    const d = diagnose(parseManifest(manifest), { target: AUTODIFF_TARGET });
    const chain = d.state.chain.map((c) => `- ${reasonText(c)}`).join("\n");
    const on = knownOn(d);
    const extra = verdictWords(d.verdict);
    const state = `**${targetName(AUTODIFF_TARGET)}: ${on === null ? "unknown" : on ? "on" : "off"}**${extra ? ` (${extra})` : ""}`;
    return `${state}\n\n${why(d)}\n${chain ? `\n${chain}\n` : ""}`;
  } catch (e) {
    return `This Cargo.toml could not be read: ${fence(String((e as Error).message ?? e))}`;
  }
}

/** Runs `compute`, fetching the releases it asked for until it asks for none it lacks. */
async function withReleases<T>(data: PageData, compute: () => T, fetched: string[]): Promise<T> {
  for (;;) {
    data.missing.clear();
    let result: T | undefined;
    let error: unknown;
    try {
      result = compute();
    } catch (e) {
      error = e;
    }
    const wanted = [...data.missing].filter((r) => !data.hasRelease(r));
    if (wanted.length === 0) {
      if (error !== undefined && !(error instanceof NotFetched)) throw error;
      return result as T;
    }
    await Promise.all(
      wanted.map(async (r) => {
        data.addRelease(r, await fetchJson<ReleaseData>(`data/release-${r}.json`));
        fetched.push(r);
      }),
    );
  }
}

export async function pageAnswer(data: PageData, output: string, manifest: string): Promise<PageAnswer> {
  useDataFiles(() => data);
  const fetched: string[] = [];
  const explain = await withReleases(data, () => explainOffline(issueText(output, manifest)), fetched);
  const whyText = await withReleases(data, () => whyMarkdown(manifest), fetched);
  return { explain, why: whyText, fetched };
}

/** A text of each kind the page answers, the panic with a manifest at `release` so that it resolves and fixes. */
const samples = (release: string) => [
  [
    "not implemented: Requires `autodiff` feature",
    fence(`[dependencies]\nburn = { version = "=${release}", default-features = false, features = ["std"] }`, "toml"),
  ].join("\n\n"),
  "error[E0433]: failed to resolve: could not find `train` in `burn`\n --> src/main.rs:1:10",
];

/**
 * Answers the samples right after the page is ready, so that a reader's first answer finds the
 * browser's compiled code and the data read and parsed once (the gated map, the newest release's
 * lines): on a loaded 2-core machine a first answer took 70–190 ms without it (BENCHMARKS.md).
 */
export async function warmUp(data: PageData): Promise<void> {
  const newest = Object.keys(data.base.releases).sort(semver.compare).at(-1);
  for (const text of samples(newest ?? "0")) await pageAnswer(data, text, "");
}
