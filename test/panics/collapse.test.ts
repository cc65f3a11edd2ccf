// `collapse` leaves alone what it would not change (a newline without a quote marker, a single
// space), for speed: it must still give what collapsing every run gives.
import { expect, it } from "@jest/globals";
import fc from "fast-check";
import { collapse } from "../../src/panics/normalize.js";

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
