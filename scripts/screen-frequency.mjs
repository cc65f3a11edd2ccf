// Writes data/screen-frequency.json: how often each word of burn's messages (data/catalog.yml)
// occurs in text that holds none of them, per MiB: rustc's log over crates with features off
// (fixtures/bench/rustc-other-crates.txt, real cargo output), and the issues the bot must not
// answer (fixtures/issues/neg-*.md: prose, code and logs from burn's tracker). The word screen
// (src/panics/screen.ts) keys on the rarest words, so a text pays for a message only where one
// of its rare words occurs. Run after data:import: node scripts/screen-frequency.mjs
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "js-yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const catalog = load(readFileSync(join(root, "data/catalog.yml"), "utf8"));
const words = new Set(catalog.entries.flatMap((e) => e.message.match(/[A-Za-z]{4,}/g) ?? []));
const corpus = [
  "fixtures/bench/rustc-other-crates.txt",
  ...readdirSync(join(root, "fixtures/issues"))
    .filter((f) => f.startsWith("neg-") && f.endsWith(".md"))
    .sort()
    .map((f) => `fixtures/issues/${f}`),
];
const text = corpus.map((f) => readFileSync(join(root, f), "utf8")).join("\n");
const counts = {};
for (const w of text.match(/[A-Za-z]{4,}/g) ?? []) if (words.has(w)) counts[w] = (counts[w] ?? 0) + 1;
const mib = text.length / (1024 * 1024);
const perMiB = Object.fromEntries(
  Object.entries(counts)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([w, n]) => [w, Math.round(n / mib)]),
);
writeFileSync(
  join(root, "data/screen-frequency.json"),
  `${JSON.stringify({ generated_by: "scripts/screen-frequency.mjs; do not edit", corpus, bytes: text.length, perMiB }, null, 1)}\n`,
);
console.log(`${Object.keys(perMiB).length} of ${words.size} message words occur in ${text.length} bytes`);
