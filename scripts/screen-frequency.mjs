// Writes data/screen-frequency.json for the word screen (src/panics/screen.ts): how often each
// letter, and each piece of 4 to 6 letters of the words of burn's messages (data/catalog.yml),
// occurs in text that holds none of them: rustc's log over crates with features off
// (fixtures/bench/rustc-other-crates.txt, real cargo output) and the issues the bot must not
// answer (fixtures/issues/neg-*.md: prose, code and logs from burn's tracker). data:import runs it.
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
const mib = text.length / (1024 * 1024);
const kib = text.length / 1024;

/**
 * Keys are pieces of 4 to 6 letters of the messages' words: a text without the piece has not the
 * word, and V8 finds a pattern that short by a memchr scan for its first letter, comparing the rest
 * only where that letter occurs. A key costs the occurrences of its first letter (per KiB) and the
 * occurrences of the piece itself (per MiB: each sends the text on to its messages' other words).
 */
const pieces = new Set();
for (const w of words)
  for (let len = 4; len <= Math.min(6, w.length); len++)
    for (let i = 0; i + len <= w.length; i++) pieces.add(w.slice(i, i + len));
const count = (needle) => {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
  return n;
};
const perMiB = {};
for (const piece of [...pieces].sort()) {
  const n = count(piece);
  if (n > 0) perMiB[piece] = Math.round(n / mib);
}
const letterPerKiB = {};
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
  letterPerKiB[c] = Math.round((count(c) / kib) * 10) / 10;
writeFileSync(
  join(root, "data/screen-frequency.json"),
  `${JSON.stringify({ generated_by: "scripts/screen-frequency.mjs; do not edit", corpus, bytes: text.length, letterPerKiB, perMiB })}\n`,
);
console.log(
  `${Object.keys(perMiB).length} of ${pieces.size} pieces of the messages' words occur in ${text.length} bytes`,
);
