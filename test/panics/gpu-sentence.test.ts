// The sentence "GPU" is said in, found by two scans from the word: the same sentence the regex
// `[^.!?\n]*\bGPUs?\b[^.!?\n]*[.!?]?` matched (quadratic on a long text without a stop; the stall
// bench's "8 paragraphs of `*a`" row held the event loop 972 ms with it), over generated prose.
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { gpuSentence } from "../../src/panics/target.js";

const SPANNING = /[^.!?\n]*\bGPUs?\b[^.!?\n]*[.!?]?/;

function bySpanningRegex(prose: string) {
  const m = SPANNING.exec(prose);
  return m ? { sentence: m[0], before: m[0].slice(0, m[0].search(/\bGPUs?\b/)) } : null;
}

describe("gpuSentence", () => {
  it("finds the sentence the spanning regex found, on prose of GPU words, stops and letters", () => {
    const piece = fc.constantFrom("GPU", "GPUs", "aGPU", "GPUx", " ", "a", ".", "!", "?", "\n", "not ", "the ");
    let withGpu = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const prose = parts.join("");
        const got = gpuSentence(prose);
        if (got) withGpu++;
        expect(got).toEqual(bySpanningRegex(prose));
      }),
      { seed: 54, numRuns: 2000 },
    );
    expect(withGpu).toBeGreaterThan(200);
  });

  it("the first GPU's sentence, with its stop", () => {
    expect(gpuSentence("It crashed. I expected it to pick the GPU! Then more about GPUs.")).toEqual({
      sentence: " I expected it to pick the GPU!",
      before: " I expected it to pick the ",
    });
  });
});
