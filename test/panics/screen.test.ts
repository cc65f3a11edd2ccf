import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { loadCatalog, screenCosts } from "../../src/panics/catalog.js";
import { lookup } from "../../src/panics/normalize.js";
import { keyCost, messageScreens, pieceSets, screenKeys } from "../../src/panics/screen.js";
import { fixture } from "../helpers/fixtures.js";

/** The screen, asked of one raw text. */
const wordScreen = (...args: Parameters<typeof messageScreens>) => {
  const screen = messageScreens(...args);
  return (raw: string) => screen.any(lookup([raw]));
};

/** The rule the screen must keep, written the slow, obvious way: every word of some message occurs. */
const reference = (messages: string[]) => (raw: string) =>
  messages.some((m) => (m.match(/[A-Za-z]{4,}/g) ?? []).every((w) => raw.includes(w)));

const catalog = loadCatalog().entries.map((e) => e.message);

describe("the word screen", () => {
  it("passes a text holding every word of one message, in any order and behind colour codes", () => {
    const screen = wordScreen(["Requires `autodiff` feature", "No backend feature enabled."]);
    expect(screen("feature\x1b[1mRequires\x1b[0m … autodiff")).toBe(true);
    expect(screen("backend wgpu: feature not enabled")).toBe(true);
  });

  it("rejects a text that lacks one word of each message, though it holds every cover key", () => {
    const screen = wordScreen(["Requires `autodiff` feature", "No backend feature enabled."]);
    // `feature` covers both messages; each lacks another word here.
    expect(screen("Requires the feature; autodif; backend enable")).toBe(false);
    expect(screen("How do I pick a backend at runtime?")).toBe(false);
  });

  it("finds a message whose only covering key is not the most shared word", () => {
    const screen = wordScreen(["Requires `autodiff` feature", "Current thread is not available"]);
    expect(screen("error: Current thread is not available")).toBe(true);
  });

  it("lets everything through when a message has no word to screen by", () => {
    expect(wordScreen(["Requires `autodiff` feature", "a b c"])("anything")).toBe(true);
  });

  it("agrees with the reference rule on burn's catalog, for texts made of its words and noise", () => {
    const vocabulary = [...new Set(catalog.flatMap((m) => m.match(/[A-Za-z]{4,}/g) ?? []))];
    const screen = wordScreen(catalog, screenCosts());
    const ref = reference(catalog);
    const piece = fc.oneof(
      fc.constantFrom(...vocabulary),
      fc.constantFrom(" ", "\n", "\x1b[31m", "`", "ab"),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const raw = parts.join("");
        expect(screen(raw)).toBe(ref(raw));
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with the reference rule on every message of the catalog itself, and on each with one word cut", () => {
    const screen = wordScreen(catalog, screenCosts());
    const ref = reference(catalog);
    for (const m of catalog) {
      expect(screen(m)).toBe(true);
      for (const w of new Set(m.match(/[A-Za-z]{4,}/g) ?? [])) {
        const cut = m.replaceAll(w, w.slice(0, 3));
        expect(screen(cut)).toBe(ref(cut));
      }
    }
  });

  it("keeps, per message, every message whose words a text holds, and only those", () => {
    const { each } = messageScreens(catalog, screenCosts());
    const words = catalog.map((m) => m.match(/[A-Za-z]{4,}/g) ?? []);
    const vocabulary = [...new Set(words.flat())];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary, " ", "\n"), { maxLength: 30 }), (parts) => {
        const raw = parts.join(" ");
        const may = each(lookup([raw]));
        words.forEach((w, i) => {
          if (w.every((x) => raw.includes(x))) expect([catalog[i], may[i]]).toEqual([catalog[i], true]);
        });
      }),
      { numRuns: 500 },
    );
    for (const [i, m] of catalog.entries()) expect(each(lookup([m]))[i]).toBe(true);
    // A burn issue about its backends holds every word of one message, and the key `bled`
    // (enabled) of three more: only that one is left to search for.
    const may = each(lookup(["The wgpu backend: which feature is enabled by default?"]));
    expect(catalog.filter((_, i) => may[i])).toEqual(["No backend feature enabled."]);
  });

  it("keys on rare, cheap pieces of words: a rustc log about other crates' features holds none of them", () => {
    // `feature` covers most messages, and every configured-out note of rustc holds it.
    const words = catalog.map((m) => [...new Set(m.match(/[A-Za-z]{4,}/g) ?? [])]);
    const keys = screenKeys(pieceSets(words), keyCost(screenCosts()));
    const log = fixture("bench/rustc-other-crates.txt");
    expect(keys.filter((k) => log.includes(k))).toEqual([]);
    // Every message still holds a key, in one of its words.
    for (const w of words) expect(w.some((x) => keys.some((k) => x.includes(k)))).toBe(true);
    // Keys V8 finds by a memchr scan for their first letter: under 7 characters.
    expect(keys.every((k) => k.length >= 4 && k.length <= 6)).toBe(true);
    // Without the costs, the plain cover keys on `feature`, which the log is full of.
    const plain = screenKeys(words, () => 1);
    expect(plain[0]).toBe("feature");
    expect(log).toContain("feature");
  });
});
