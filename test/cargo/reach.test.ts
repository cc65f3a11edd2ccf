import { describe, expect, it } from "@jest/globals";
import type { IndexDep, IndexLine } from "../../src/cargo/index/index-file.js";
import { MapRegistry, recentRelease, snapshot } from "../../src/cargo/index/registry.js";
import { featureNames, probeOf } from "../../src/cargo/resolve/enablers.js";
import { mayEnable } from "../../src/cargo/resolve/reach.js";
import {
  AUTODIFF_TARGET,
  type FeatureTarget,
  featureState,
  resolve,
  WorkBudget,
} from "../../src/cargo/resolve/resolve.js";

const reg = snapshot("tags");
// The probe and the feature list are enablersOf's own, so the walk is checked on what it narrows.
const probe = (line: IndexLine, features: string[]) => probeOf(line, features);
const featuresOf = featureNames;

describe("the walk that narrows the enabler search", () => {
  const targets: FeatureTarget[] = [
    AUTODIFF_TARGET,
    { crate: "burn-core", feature: "std" },
    { crate: "burn-dispatch", feature: "cuda" },
  ];
  const lines = reg.versions("burn").filter(recentRelease);

  it("never rules out a feature that turns the target on (every burn release, three targets)", () => {
    expect(lines.length).toBeGreaterThan(10);
    const missed: string[] = [];
    for (const line of lines)
      for (const target of targets) {
        const may = mayEnable(line, reg, target, new WorkBudget());
        for (const f of featuresOf(line))
          if (!may(f) && featureState(resolve(probe(line, [f]), [], { registry: reg }), target).on)
            missed.push(`${line.vers} ${f} → ${target.crate}/${target.feature}`);
      }
    expect(missed).toEqual([]);
  });

  it("rules out most of burn's features for autodiff, so few are resolved", () => {
    const line = lines.find((l) => l.vers === "0.22.0-pre.2")!;
    const may = mayEnable(line, reg, AUTODIFF_TARGET, new WorkBudget());
    const kept = featuresOf(line).filter(may);
    expect(kept).toEqual(expect.arrayContaining(["autodiff", "optim", "train"]));
    expect(kept.length).toBeLessThan(featuresOf(line).length / 3);
  });

  it("does not narrow a gated target (a cfg over several features)", () => {
    const line = lines.at(-1)!;
    const may = mayEnable(
      line,
      reg,
      { crate: "burn", feature: "wgpu", gate: 'feature = "burn/wgpu"' },
      new WorkBudget(),
    );
    expect(featuresOf(line).every(may)).toBe(true);
  });

  it("spends the event's work budget", () => {
    expect(() => mayEnable(lines.at(-1)!, reg, AUTODIFF_TARGET, new WorkBudget(10))).toThrow(
      /larger than the bot walks/,
    );
  });
});

describe("each way cargo turns a feature on is followed", () => {
  const dep = (name: string, extra: Partial<IndexDep> = {}): IndexDep => ({
    name,
    req: "^1",
    features: [],
    optional: false,
    default_features: true,
    target: null,
    kind: "normal",
    ...extra,
  });
  const line = (name: string, deps: IndexDep[], features: Record<string, string[]>): IndexLine => ({
    name,
    vers: "1.0.0",
    deps,
    features,
  });
  const b = line("b", [], { x: [], default: [] });
  // Each case: crate `a`'s dependencies and features; feature `f` of `a` turns `b/x` on.
  const cases: Array<[string, IndexDep[], Record<string, string[]>]> = [
    [
      "dep: activates an optional dependency that lists the feature",
      [dep("b", { optional: true, features: ["x"] })],
      { f: ["dep:b"] },
    ],
    ["an implicit feature of an optional dependency", [dep("b", { optional: true, features: ["x"] })], { f: ["b"] }],
    ["dep/feature", [dep("b", { optional: true })], { f: ["b/x"] }],
    ["dep?/feature on a dependency another feature activates", [dep("b")], { f: ["b?/x"] }],
    ["a feature listing a feature", [dep("b", { optional: true })], { f: ["g"], g: ["b/x"] }],
    ["a dependency of the activated dependency lists it", [dep("c", { optional: true })], { f: ["dep:c"] }],
  ];
  const c = line("c", [dep("b", { features: ["x"] })], {});

  it.each(cases)("%s", (_name, deps, features) => {
    const a = line("a", deps, features);
    const reg = new MapRegistry(
      "synthetic",
      new Map([
        ["a", [a]],
        ["b", [b]],
        ["c", [c]],
      ]),
    );
    const target = { crate: "b", feature: "x" };
    expect(featureState(resolve(probe(a, ["f"]), [], { registry: reg }), target).on).toBe(true);
    expect(mayEnable(a, reg, target, new WorkBudget())("f")).toBe(true);
  });
});
