// The lookups the screens share: one text's, among the detectors of one call only; and a text's
// parts', which answer for the parts joined by line breaks.
import { expect, it } from "@jest/globals";
import fc from "fast-check";
import { detectCargoRefusal } from "../../src/cargo/judge/cargo-error.js";
import { detectCompile } from "../../src/compile/detect.js";
import { holds, lookup, sharingLookups, textLookup } from "../../src/panics/normalize.js";
import { fixture } from "../helpers/fixtures.js";

const pieces = fc.array(fc.constantFrom("burn", "bunr", "turn", "b", "urn", "\n", " "), { maxLength: 12 });

it("answers each text by its own content, whatever the text before it", () => {
  fc.assert(
    fc.property(pieces, (parts) => {
      const text = parts.join("");
      // A copy of the same length that differs: the kept answer must not leak into it.
      const twin = text.replace(/burn/g, "bunr");
      expect(textLookup(text)("burn")).toBe(text.includes("burn"));
      expect(textLookup(twin)("burn")).toBe(twin.includes("burn"));
      expect(textLookup(text)("burn")).toBe(text.includes("burn"));
    }),
  );
});

it("answers for the parts joined by line breaks, for every literal without one", () => {
  fc.assert(
    fc.property(pieces, pieces, fc.constantFrom("burn", "urn b", "n b", "b", "burn bunr"), (a, b, literal) => {
      const [title, body] = [a.join(""), b.join("")];
      expect(lookup([title, body])(literal)).toBe(`${title}\n\n${body}`.includes(literal));
    }),
  );
});

it("shares one text's lookups among the detectors of one call, and keeps none after it", () => {
  const text = "error[E0433]: could not find `train` in `burn`";
  const inCall = sharingLookups(text, () => [
    textLookup(text),
    textLookup(text),
    sharingLookups(text, () => textLookup(text)),
  ]);
  expect(new Set(inCall).size).toBe(1);
  // The next delivery of the same text is looked up again, as a new issue would be: a benchmark
  // that sends one body over and over must not be answered from the last one's lookups.
  expect(textLookup(text)).not.toBe(inCall[0]);
  expect(textLookup(text)).not.toBe(textLookup(text));
  expect(sharingLookups(text, () => textLookup(`${text} `))).not.toBe(inCall[0]);
});

it("refuses a literal that holds a line break, which could span two parts", () => {
  expect(() => lookup(["burn", "x"])("burn\n\nx")).toThrow(/line break/);
});

it("lets both detectors find burn's errors in the texts that follow one without burn", () => {
  const refusal = fixture("cargo/refusal-several-0.22-build.txt");
  const other = refusal.replace(/burn/g, "bunr");
  expect(detectCargoRefusal(other)).toBeNull();
  expect(detectCargoRefusal(refusal)).not.toBeNull();
  const rustc =
    "error[E0433]: failed to resolve: could not find `train` in `burn`\n --> src/main.rs:1:11\n  |\n1 | use burn::train::Learner;\n  |           ^^^^^ could not find `train` in `burn`\n";
  expect(detectCompile(rustc.replace(/burn/g, "bunr"))).toEqual([]);
  expect(detectCompile(rustc).length).toBeGreaterThan(0);
});

it("finds a literal of seven or more characters exactly where includes does, from its first six", () => {
  // Texts where the first six characters occur often and overlap themselves, with and without the rest.
  const bits = fc.array(fc.constantFrom("aaaaaa", "a", "b", "Expect", "Expected", "ed", "\n"), { maxLength: 16 });
  const literals = fc.constantFrom("aaaaaab", "aaaaaaa", "Expected", "Expectedb", "aaaaaaaaaaaab", "Expect", "ab");
  fc.assert(
    fc.property(bits, literals, (parts, literal) => {
      const text = parts.join("");
      expect(holds(text, literal)).toBe(text.includes(literal));
    }),
    { numRuns: 3000 },
  );
  expect(holds("aaaaaaab", "aaaaaab")).toBe(true);
  expect(holds("Expect Expecte", "Expected")).toBe(false);
});
