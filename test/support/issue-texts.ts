// Every issue-side fixture as the text an issue would hold: the issue bodies, cargo's refusals,
// rustc's logs (with their manifests), the feature family's and the evidence cases, and the inputs
// that must stay silent. The surfaces test and the comment-length benchmark read the same list.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { projectRoot } from "./root.js";

const root = projectRoot(import.meta.url);
const read = (path: string) => readFileSync(join(root, "fixtures", path), "utf8");
const files = (dir: string, ext: string) =>
  readdirSync(join(root, "fixtures", dir))
    .filter((f) => f.endsWith(ext))
    .sort();

interface YamlCase {
  name: string;
  text?: string;
  log?: string;
  manifest?: string;
}

/** A rustc log and the reporter's manifest, pasted as an issue form would (as the e0599 tests do). */
function logIssue(c: YamlCase): string {
  const log = read(`compile/rustc-1.95/${c.log}.txt`);
  return `\`\`\`\n${log}\`\`\`\n${c.manifest ? `\n\`\`\`toml\n${c.manifest}\`\`\`\n` : ""}`;
}

function yamlTexts(path: string): Array<[string, string]> {
  const data = load(read(path)) as Record<string, YamlCase[] | undefined>;
  const out: Array<[string, string]> = [];
  for (const list of ["cases", "silent", "quoted"])
    for (const c of data[list] ?? []) {
      const text = c.text ?? (c.log ? logIssue(c) : null);
      if (text) out.push([`${path}: ${c.name}`, text]);
    }
  return out;
}

/**
 * cargo's refusals with the manifest that caused them (the fixtures hold cargo's output alone):
 * the answers that carry an edit past the refusal, as test/cargo/refusal-issue.test.ts builds them.
 */
function refusalsWithManifest(): Array<[string, string]> {
  const dep = (features: string) =>
    `[package]\nname = "myapp"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = [${features}] }\n`;
  const withManifest = (log: string, manifest: string): [string, string] => [
    `cargo/${log} + manifest`,
    `After bumping burn:\n\n\`\`\`\n${read(`cargo/${log}`)}\`\`\`\n\n\`\`\`toml\n${manifest}\`\`\`\n`,
  ];
  return [
    withManifest("refusal-server-0.22-build.txt", dep('"std", "wgpu", "server"')),
    withManifest("refusal-several-0.22-build.txt", dep('"std", "dispatch", "server"')),
    withManifest("refusal-typo-wgpuu-0.22-build.txt", dep('"std", "wgpuu"')),
    withManifest("refusal-typo-rocn-0.22-build.txt", dep('"std", "rocn"')),
  ];
}

/** [name, text] for every issue-side fixture, in a stable order. */
export function issueTexts(): Array<[string, string]> {
  return [
    ...files("issues", ".md").map((f): [string, string] => [`issues/${f}`, read(`issues/${f}`)]),
    ...files("cargo", ".txt").map((f): [string, string] => [`cargo/${f}`, read(`cargo/${f}`)]),
    ...refusalsWithManifest(),
    ...files("compile/rustc-1.95", ".txt").map((f): [string, string] => [
      `compile/rustc-1.95/${f}`,
      `\`\`\`\n${read(`compile/rustc-1.95/${f}`)}\`\`\`\n`,
    ]),
    ...files("evidence", ".txt").map((f): [string, string] => [
      `evidence/${f}`,
      `\`\`\`\n${read(`evidence/${f}`)}\`\`\`\n`,
    ]),
    ...yamlTexts("compile/cases.yml"),
    ...yamlTexts("compile/e0599.yml"),
    ...yamlTexts("family/cases.yml"),
    ...yamlTexts("evidence/cases.yml"),
  ];
}

/** Every manifest fixture (`why`/`fix`): [name, path]. */
export function manifestPaths(): Array<[string, string]> {
  return [
    ...files("manifests", ".toml").map((f): [string, string] => [
      `manifests/${f}`,
      join(root, "fixtures/manifests", f),
    ]),
    ["workspace/crates/trainer/Cargo.toml", join(root, "fixtures/workspace/crates/trainer/Cargo.toml")],
  ];
}

/**
 * The words a reader sees without opening anything: outside the hidden marker and a `<details>`
 * block's body (its `<summary>` line is visible and counted). A word is a whitespace-separated
 * token with a letter or digit in it; the diff's lines count too.
 */
export function visibleWords(comment: string): number {
  return comment
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<details><summary>([\s\S]*?)<\/summary>[\s\S]*?<\/details>/g, "$1")
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Median (the mean of the two middle values of an even count) and largest of a list of numbers. */
export function medianAndMax(values: number[]): { median: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length / 2;
  const median = s.length === 0 ? 0 : s.length % 2 ? s[Math.floor(mid)]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, max: s.at(-1) ?? 0 };
}
