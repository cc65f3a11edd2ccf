// What in a crate's code shows it needs a rule's feature: the rule's signs, and the items the
// gated-path data puts behind the feature at the head's release.
import { describe, expect, it } from "@jest/globals";
import { findUse, matcherFor, type UseMatcher } from "../../src/review/evidence.js";
import { parseRules, ruleById } from "../../src/review/rules.js";

const autodiff = ruleById("autodiff")!;
const matcher = (m: ReturnType<typeof matcherFor>): UseMatcher => {
  if ("gap" in m) throw new Error("expected a matcher");
  return m;
};

/** A rule that looks only at the gated-path data for burn-core/std. */
const [std] = parseRules(`
- id: std-only
  target: burn-core/std
  check: when-found
  evidence: { gated_paths: true }
  words: { code: c, needs: n, assumed: a, looked_for: l }
`);

describe("findUse", () => {
  it("finds the strongest sign first, on its line, skipping comments", () => {
    const text = "// x.backward()\nuse burn::train::Learner;\nfn f() { loss.backward(); }\n";
    expect(findUse(matcher(matcherFor(autodiff, "0.20.1")), "src/train.rs", text)).toEqual({
      path: "src/train.rs",
      line: 3,
      what: ".backward()",
    });
  });

  it("an item gated behind the feature counts after the file names its module, grouped imports too", () => {
    const text = "use burn::record::{CompactRecorder, Recorder};\n\nfn save() {\n  CompactRecorder::new();\n}\n";
    expect(findUse(matcher(matcherFor(std!, "0.20.1")), "src/main.rs", text)).toEqual({
      path: "src/main.rs",
      line: 1,
      what: "CompactRecorder",
    });
  });

  it("a gated module counts by name", () => {
    const text = "use burn::tensor::Tensor;\nuse burn::data::dataloader::batcher::Batcher;\n";
    expect(findUse(matcher(matcherFor(std!, "0.22.0-pre.2")), "src/data.rs", text)).toMatchObject({
      line: 2,
      what: "burn::data",
    });
  });

  it("a use under #[cfg(...)] carries its cfgs, and one that compiles in every build is preferred", () => {
    const gated = '#[cfg(feature = "pretrained")]\nmod pretrained {\n    use burn::data::dataset::Dataset;\n}\n';
    expect(findUse(matcher(matcherFor(std!, "0.22.0-pre.2")), "src/lib.rs", gated)).toMatchObject({
      line: 3,
      what: "burn::data",
      cfgs: ['feature = "pretrained"'],
    });
    const inner = '#![cfg(all(feature = "pretrained", unix))]\nuse burn::data::dataset::Dataset;\n';
    expect(findUse(matcher(matcherFor(std!, "0.22.0-pre.2")), "src/p.rs", inner)?.cfgs).toEqual([
      'all(feature = "pretrained", unix)',
    ]);
    const both = `${gated}\nfn load() {\n    let _ = burn::data::dataset::InMemDataset::<u8>::new(vec![]);\n}\n`;
    const found = findUse(matcher(matcherFor(std!, "0.22.0-pre.2")), "src/lib.rs", both);
    expect([found?.line, found?.cfgs]).toEqual([7, undefined]);
  });

  it("the same name without burn's module is the crate's own", () => {
    const text = "struct CompactRecorder;\nfn f() { CompactRecorder; }\n";
    expect(findUse(matcher(matcherFor(std!, "0.20.1")), "src/lib.rs", text)).toBeNull();
  });

  it("0.22 has no record module: its recorders are no evidence there", () => {
    const text = "use burn::record::{CompactRecorder, Recorder};\n";
    expect(findUse(matcher(matcherFor(std!, "0.22.0-pre.2")), "src/main.rs", text)).toBeNull();
  });

  it("a release the gated-path data lacks is a gap, not an empty list", () => {
    expect(matcherFor(std!, "0.22.1")).toEqual({ gap: true });
    expect(matcherFor(std!, null)).toEqual({ gap: true });
    expect("gap" in matcherFor(autodiff, "0.22.1")).toBe(false);
  });
});
