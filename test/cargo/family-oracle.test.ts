import { describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { snapshot } from "../../src/cargo/index/registry.js";
import { enablersOf } from "../../src/cargo/resolve/enablers.js";
import { parseTarget } from "../../src/cargo/resolve/resolve.js";
import { loadCatalog } from "../../src/panics/catalog.js";
import { fixtureJson } from "../helpers/fixtures.js";

// burn-data's feature-family table of which `burn` features turn each inner feature on, itself
// checked with `cargo tree` at every ref (0 mismatches): the resolver must agree on every target,
// not only burn-dispatch/autodiff.
interface Facts {
  alone: string[];
  by_default: boolean;
  only_together_with: Record<string, string[]>;
}
const oracle = fixtureJson<Record<string, { version: string; targets: Record<string, Facts> }>>(
  "burn-data/family-enablers.json",
);
const cases = Object.entries(oracle).flatMap(([ref, r]) =>
  Object.entries(r.targets).map(([inner, facts]) => [ref, inner, r.version, facts] as const),
);

describe("resolver agrees with cargo on every feature-family target", () => {
  it("covers the table (143 target × ref pairs, 24 refs)", () => {
    expect(cases.length).toBe(143);
    expect(new Set(cases.map(([ref]) => ref)).size).toBe(24);
  });

  it.each(cases)("%s %s", (ref, inner, version, facts) => {
    const reg = snapshot(ref === "HEAD" ? "main" : "tags");
    const line = reg.versions("burn").find((l) => l.vers === version);
    expect(line).toBeDefined();
    const got = enablersOf(line!, reg, parseTarget(inner)!);
    expect([...got.enablers].sort()).toEqual(facts.alone.filter((f) => f !== "default").sort());
    expect(got.defaultsEnable).toBe(facts.by_default);
    // `default` + `dispatch` is how cargo writes "with default features and `dispatch`"; the fix
    // engine never lists `default` as a feature to add, so the pair is not searched for.
    for (const [f, partners] of Object.entries(facts.only_together_with).filter(([f]) => f !== "default"))
      expect(partners.some((p) => got.pairs.some((pair) => pair.includes(f) && pair.includes(p)))).toBe(true);
  });
});

describe("every feature-family site gets a verified edit wherever burn-data says a feature reaches it", () => {
  it("all sites, all refs, with and without default features", () => {
    const missed: string[] = [];
    let planned = 0;
    for (const e of loadCatalog().entries)
      for (const s of e.sites) {
        if (!s.ref.startsWith("v") || !s.fix) continue;
        for (const feature of s.fix.features) {
          const facts = oracle[s.ref]?.targets[`${s.fix.crate}/${feature}`];
          if (!facts) continue;
          const reachable =
            facts.alone.some((f) => f !== "default") ||
            Object.keys(facts.only_together_with).some((f) => f !== "default");
          for (const defaults of [false, true]) {
            const text = `[dependencies]\nburn = { version = "=${s.version}"${defaults ? "" : ", default-features = false"} }\n`;
            const plan = planFix({ path: "Cargo.toml", text }, { target: { crate: s.fix.crate, feature } });
            planned++;
            if (reachable && plan.kind !== "fixed" && plan.kind !== "already-on")
              missed.push(`${e.id} ${s.ref} ${feature} defaults=${defaults}`);
            // Where no burn feature reaches it, the only edit is declaring the inner crate itself.
            if (
              !reachable &&
              plan.kind === "fixed" &&
              !(plan.change.declares && plan.change.dependency === s.fix.crate)
            )
              missed.push(`${e.id} ${s.ref} ${feature}: a burn feature where the data has none`);
          }
        }
      }
    expect(missed).toEqual([]);
    expect(planned).toBeGreaterThan(400);
  });
});
