// `collapse` leaves alone what it would not change (a newline without a quote marker, a single
// space), for speed: it must still give what collapsing every run gives.
import { expect, it } from "@jest/globals";
import fc from "fast-check";
import { collapse, collapsedFinder, collapsedPattern } from "../../src/panics/normalize.js";

/** The rule, the slow, obvious way: every newline's quote markers dropped, every whitespace run one space. */
const reference = (text: string) => text.replace(/\n[> ]*/g, "\n").replace(/\s+/g, " ");

it("turns each run of whitespace, with the quote markers after a newline, into one space", () => {
  const piece = fc.constantFrom(" ", "  ", "\n", "\t", "\r", ">", "> ", "\u00a0", "\u2028", "a", "word", "`x`");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
      const text = parts.join("");
      expect(collapse(text)).toBe(reference(text));
    }),
    { numRuns: 5000 },
  );
  expect(collapse("No backend\n> feature  \n\tenabled.")).toBe("No backend feature enabled.");
});

it("finds a piece in a cleaned text exactly where the collapsed text holds it", () => {
  const junk = fc.constantFrom(" ", "  ", "\n", "\t", "\n> ", "\n>", " >", ">", "\n\n > \t", "\u00a0");
  const word = fc.constantFrom("No", "NoNo", "backend", "feature", "enabled.", "4", "(x)", "a.b", "`f`");
  const text = fc.array(fc.oneof(word, junk), { maxLength: 24 }).map((p) => p.join(""));
  const piece = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));
  fc.assert(
    fc.property(text, piece, (t, p) => {
      const holds = collapse(t).includes(p);
      expect([t, p, collapsedPattern(p).test(t)]).toEqual([t, p, holds]);
      expect([t, p, collapsedFinder(p)(t)]).toEqual([t, p, holds]);
    }),
    { numRuns: 20000 },
  );
  expect(collapsedPattern("No backend feature enabled.").test("No\n> backend \t feature\n\nenabled.")).toBe(true);
  // The first word overlaps itself: the match starts inside an earlier occurrence.
  expect(collapsedFinder("NoNo backend")("NoNoNo\n> backend")).toBe(true);
  // Ten words: the tenth run's back-reference is not read as an octal escape before a digit.
  const ten = "a b c d e f g h i 4";
  expect(collapsedPattern(ten).test(ten.replace(/ /g, "\n> "))).toBe(true);
});

it("reads a long run of whitespace once, whatever follows it", () => {
  // A run that a pattern could split two ways backtracks without end when the next word is not
  // there: with `(?:\s|\n[> ]*)+` as the separator, this call does not return.
  const text = `No${" \n".repeat(20_000)}x`;
  expect(collapsedPattern("No backend").test(text)).toBe(false);
  expect(collapsedFinder("No backend")(text)).toBe(false);
  // Its first word at every position: each is tried once, and fails at the next character.
  expect(collapsedFinder("aa backend")(`${"a".repeat(40_000)} \n> backen`)).toBe(false);
});
