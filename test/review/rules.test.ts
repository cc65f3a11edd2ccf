// The review rules are data (data/review-rules.yml): the bundled file loads, and a broken entry
// is refused with its reason instead of becoming a rule that never fires.
import { describe, expect, it } from "@jest/globals";
import { parseRules, reviewRules } from "../../src/review/rules.js";

const entry = (over: string) => `
- id: demo
  target: burn-core/std
  check: when-found
  evidence:
    signs: [{ pattern: 'x' }]
  words: { code: c, needs: n, assumed: a, looked_for: l }
${over}`;

describe("review rules", () => {
  it("the bundled rules load, autodiff first, each with evidence and words", () => {
    const rules = reviewRules();
    expect(rules[0]).toMatchObject({ id: "autodiff", target: { crate: "burn-dispatch", feature: "autodiff" } });
    for (const r of rules) {
      expect(r.evidence.signs.length > 0 || r.evidence.gatedPaths).toBe(true);
      expect(r.words.needs).not.toBe("");
    }
  });

  const cases: Array<[string, (yaml: string) => string, RegExp]> = [
    ["an unknown key", (y) => `${y}  extra: 1\n`, /must NOT have additional properties/],
    [
      "a check mode that does not exist",
      (y) => y.replace("check: when-found", "check: sometimes"),
      /must be equal to one of the allowed values/,
    ],
    ["a target that is not CRATE/FEATURE", (y) => y.replace("target: burn-core/std", "target: std"), /target/],
    [
      "evidence with neither signs nor gated paths",
      (y) => y.replace("signs: [{ pattern: 'x' }]", "signs: []"),
      /needs signs or gated_paths/,
    ],
    ["a bad regex", (y) => y.replace("pattern: 'x'", "pattern: '('"), /Invalid regular expression/],
  ];
  it.each(cases)("refuses %s", (_n, edit, error) => {
    expect(() => parseRules(edit(entry("")))).toThrow(error);
  });

  it("refuses an id used twice", () => {
    expect(() => parseRules(entry("") + entry("").trimStart())).toThrow(/used twice/);
  });
});
