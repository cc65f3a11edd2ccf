import { describe, expect, it } from "@jest/globals";
import type { IndexLine } from "../../src/cargo/index/index-file.js";
import { snapshot } from "../../src/cargo/index/registry.js";
import { enablersOf } from "../../src/cargo/resolve/enablers.js";
import { featureState, resolve } from "../../src/cargo/resolve/resolve.js";
import { reasonText } from "../../src/render/why.js";
import { fixtureJson } from "../helpers/fixtures.js";

// The oracle: burn-data's table, itself cross-checked against `cargo tree` (0 mismatches).
interface RootFacts {
  version: string;
  default_enables_dispatch_autodiff: boolean;
  no_default_dispatch_in_graph?: boolean;
  features_enabling_alone: Record<string, string[]>;
  features_enabling_only_together_with?: Record<string, string[]>;
}
interface RefFacts {
  version: string;
  index_dir: "index" | "index-main";
  burn_dispatch_exists: boolean;
  roots?: Record<string, RootFacts>;
}
const oracle = fixtureJson<{ refs: Record<string, RefFacts> }>("burn-data/autodiff-enablers.json");

const cases = Object.entries(oracle.refs).flatMap(([ref, facts]) =>
  Object.entries(facts.roots ?? {}).map(([crate, root]) => [ref, crate, facts, root] as const),
);

function lineOf(facts: RefFacts, crate: string, version: string): IndexLine {
  const reg = snapshot(facts.index_dir === "index" ? "tags" : "main");
  const line = reg.versions(crate).find((l) => l.vers === version);
  if (!line) throw new Error(`${crate}@${version} missing from the snapshot`);
  return line;
}

describe("resolver agrees with cargo on burn's real feature graph", () => {
  it("covers every ref that has burn-dispatch", () => {
    const refs = new Set(cases.map(([ref]) => ref));
    expect([...refs]).toEqual(
      expect.arrayContaining(["v0.21.0-pre.2", "v0.21.0", "v0.22.0-pre.1", "v0.22.0-pre.2", "HEAD"]),
    );
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases)("%s %s", (_ref, crate, facts, root) => {
    const reg = snapshot(facts.index_dir === "index" ? "tags" : "main");
    const got = enablersOf(lineOf(facts, crate, root.version), reg);
    const expected = Object.keys(root.features_enabling_alone)
      .filter((f) => f !== "default")
      .sort();
    expect([...got.enablers].sort()).toEqual(expected);
    expect(got.defaultsEnable).toBe(root.default_enables_dispatch_autodiff);
    for (const [f, partners] of Object.entries(root.features_enabling_only_together_with ?? {})) {
      for (const p of partners) expect(got.pairs).toContainEqual(expect.arrayContaining([f, p]));
    }
  });
});

describe("resolver semantics", () => {
  const reg = snapshot("tags");
  const user = (req: string, features: string[], defaults: boolean): IndexLine => ({
    name: "app",
    vers: "0.0.0",
    deps: [{ name: "burn", req, features, optional: false, default_features: defaults, target: null, kind: "normal" }],
    features: {},
  });
  it("default-features = false drops optim and with it autodiff (0.22)", () => {
    expect(featureState(resolve(user("0.22.0-pre.2", ["wgpu"], false), [], { registry: reg })).on).toBe(false);
    expect(featureState(resolve(user("0.22.0-pre.2", ["wgpu"], true), [], { registry: reg })).on).toBe(true);
  });
  it("weak burn-dispatch?/autodiff only applies once dispatch is in (0.21)", () => {
    expect(featureState(resolve(user("0.21.0", ["autodiff"], false), [], { registry: reg })).inGraph).toBe(false);
    expect(featureState(resolve(user("0.21.0", ["autodiff", "dispatch"], false), [], { registry: reg })).on).toBe(true);
    // Order must not matter: the weak value is remembered until the dependency arrives.
    expect(featureState(resolve(user("0.21.0", ["dispatch", "autodiff"], false), [], { registry: reg })).on).toBe(true);
  });
  it("explains the activation chain back to the manifest", () => {
    const s = featureState(resolve(user("0.22.0-pre.2", [], true), [], { registry: reg }));
    expect(s.chain[0]).toEqual({
      kind: "feature",
      pkg: { name: "burn-dispatch", version: "0.22.0-pre.2" },
      feature: "autodiff",
    });
    expect(s.chain.map(reasonText).join(" ")).toContain("burn@0.22.0-pre.2 feature `optim`");
    expect(reasonText(s.chain.at(-1)!)).toContain("your manifest");
  });
  it("follows a forwarding feature of the user's crate", () => {
    const line = { ...user("0.22.0-pre.2", [], false), features: { train: ["burn/train"] } };
    expect(featureState(resolve(line, [], { registry: reg })).on).toBe(false);
    expect(featureState(resolve(line, ["train"], { registry: reg })).on).toBe(true);
  });
  it("uses the pinned version when it matches the requirement", () => {
    const s = featureState(
      resolve(user("^0.22.0-pre.1", ["autodiff"], false), [], { registry: reg, pin: () => "0.22.0-pre.1" }),
    );
    expect(s.version).toBe("0.22.0-pre.1");
  });
});
