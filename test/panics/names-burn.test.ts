// The one "burn" scan the rustc and cargo detectors of a text share: kept for the last text only,
// and never answered from it for another text, even one of the same length.
import { expect, it } from "@jest/globals";
import fc from "fast-check";
import { detectCargoRefusal } from "../../src/cargo/cargo-error.js";
import { detectCompile } from "../../src/compile/detect.js";
import { namesBurn } from "../../src/panics/normalize.js";
import { fixture } from "../helpers/fixtures.js";

it("answers each text by its own content, whatever the text before it", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom("burn", "bunr", "turn", "b", "urn", "\n"), { maxLength: 12 }), (parts) => {
      const text = parts.join("");
      // A copy of the same length that differs: the kept answer must not leak into it.
      const twin = text.replace(/burn/g, "bunr");
      expect(namesBurn(text)).toBe(text.includes("burn"));
      expect(namesBurn(twin)).toBe(twin.includes("burn"));
      expect(namesBurn(text)).toBe(text.includes("burn"));
    }),
  );
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
