// The header check that lets a text on to the rustc detector: it looks only where `[E0` occurs,
// and must answer as the regular expression over the whole text did.
import { expect, it } from "@jest/globals";
import fc from "fast-check";
import { anyHeader, detectCompile } from "../../src/compile/detect.js";

/** The rule, as it was written before the check looked only at `[E0`. */
const RULE = /error\[E0(?:432|433|412|422|425|277|599)\]/;

const pieces = fc.array(
  fc.constantFrom(
    "error",
    "rror",
    "e",
    "[E0",
    "[E04",
    "[E0[E0",
    "433]",
    "43",
    "3]",
    "599]",
    "308]",
    "]",
    "[",
    " ",
    "\n",
  ),
  { maxLength: 14 },
);

it("holds a header exactly where the rule finds one, next to near misses", () => {
  fc.assert(
    fc.property(pieces, (parts) => {
      const text = parts.join("");
      expect(anyHeader(text)).toBe(RULE.test(text));
    }),
    { numRuns: 20000 },
  );
});

it("reads a header at the very start, and none whose `error` would begin before the text", () => {
  expect(anyHeader("error[E0433]: x")).toBe(true);
  expect(anyHeader("rror[E0433]: x")).toBe(false);
  expect(anyHeader("[E0433]: error")).toBe(false);
  expect(anyHeader("error[E0308]: mismatched types\nerror[E0599]: no method")).toBe(true);
});

it("lets a rustc error about burn through, and stops one about the user's own types", () => {
  const gated =
    "error[E0433]: failed to resolve: could not find `train` in `burn`\n --> src/main.rs:1:11\n  |\n1 | use burn::train::Learner;\n";
  expect(new Set(detectCompile(gated).map((f) => f.code))).toEqual(new Set(["E0433"]));
  expect(detectCompile(gated.replace("E0433", "E0308"))).toEqual([]);
});
