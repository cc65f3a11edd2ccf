import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import picomatch from "picomatch";
import { GlobBudget, GlobBudgetError, globMatch, MAX_GLOB_LENGTH } from "../../src/cargo/manifest/glob.js";

describe("workspace member globs", () => {
  it("match as cargo's glob crate does: *, ?, classes, ** across segments, no dotfiles by wildcard", () => {
    const yes: Array<[string, string]> = [
      ["crates/*", "crates/burn"],
      ["crates/burn-?", "crates/burn-x"],
      ["crates/[a-c]*", "crates/burn"],
      ["crates/[!x]*", "crates/burn"],
      ["examples/**", "examples/a/b"],
      ["**/members", "a/b/members"],
      ["**", "a"],
      ["a/**/b", "a/b"],
      ["*/**", "a"],
      ["crates/.hidden", "crates/.hidden"],
      ["a*b*c", "aXbYc"],
    ];
    const no: Array<[string, string]> = [
      ["crates/*", "crates/burn/sub"],
      ["crates/*", "crates/.hidden"],
      ["crates/[!b]*", "crates/burn"],
      ["crates/burn-?", "crates/burn-xy"],
      ["a*b*c", "aXbY"],
      ["crates/{a,b}", "crates/a"],
      ["+(a|aa)", "aa"],
    ];
    for (const [p, s] of yes) expect([p, s, globMatch(p, s)]).toEqual([p, s, true]);
    for (const [p, s] of no) expect([p, s, globMatch(p, s)]).toEqual([p, s, false]);
  });

  it("agrees with picomatch (no braces, no extglobs) on generated globs without **", () => {
    // `**` apart (tested by hand above): picomatch reads `*/**` and `a/**` differently on `a`.
    const seg = fc.stringMatching(/^[ab*?]{1,6}$/).filter((x) => !x.includes("**"));
    const name = fc.stringMatching(/^[ab]{1,6}$/);
    fc.assert(
      fc.property(
        fc.array(seg, { minLength: 1, maxLength: 3 }),
        fc.array(name, { minLength: 1, maxLength: 3 }),
        (ps, ss) => {
          const p = ps.join("/");
          const s = ss.join("/");
          expect(globMatch(p, s)).toBe(picomatch.isMatch(s, p, { noextglob: true, nobrace: true, dot: false }));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("stays cheap on hostile patterns, refuses overlong ones, and stops at the event's budget", () => {
    const name = "a".repeat(60);
    const hostile = `${"*a".repeat(60)}b`;
    const budget = new GlobBudget();
    expect(globMatch(hostile, name, budget)).toBe(false);
    // O(pattern × name): 121 × 60 steps and their restarts, far from exponential.
    expect(5_000_000 - budget.steps).toBeLessThan(200_000);
    expect(globMatch(`${"*".repeat(MAX_GLOB_LENGTH)}x`, "x")).toBe(false);
    const small = new GlobBudget(10_000);
    expect(() => {
      for (let i = 0; i < 100; i++) globMatch(hostile, name, small);
    }).toThrow(GlobBudgetError);
  });
});
