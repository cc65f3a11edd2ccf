import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { root } from "../helpers/fixtures.js";

// burn-data's ready answer for every gated path (checked with cargo by burn-data) against the
// engine: with and without default features, a manifest declaring only `burn` must get a
// verified edit whenever the data has an answer, never a larger one, and "already on" exactly
// when the answer is "nothing to add". Four layouts (0.16 burn-core gates, 0.20, 0.21 dispatch,
// 0.22 extension), every gated path of each.
interface Gate {
  gate: string;
  suggest: string[] | null;
  suggest_no_default: string[] | null;
}
const data = JSON.parse(readFileSync(join(root, "data/gated.json"), "utf8")) as {
  paths: string[];
  gates: Gate[];
  refs: Record<string, { version: string; entries: Array<[number, number]>; methods?: Array<[number, number]> }>;
};

describe("the engine against burn-data's answers for gated paths", () => {
  it.each(["v0.9.0", "v0.13.2", "v0.16.0", "v0.20.1", "v0.21.0", "v0.22.0-pre.2"])("%s", (ref) => {
    const r = data.refs[ref]!;
    const outcomes = { fixed: 0, already: 0, missed: [] as string[], larger: [] as string[] };
    // Paths, and the methods and associated items E0599 is answered from.
    for (const [pi, gi] of [...r.entries, ...(r.methods ?? [])]) {
      const g = data.gates[gi]!;
      // A platform atom (`not(target_family = "wasm")`) holds on the engine's default platform;
      // burn-data's translation of such gates is not the judge there.
      if (g.gate.includes("target_")) continue;
      const path = data.paths[pi]!;
      for (const defaults of [true, false]) {
        const answer = defaults ? g.suggest : g.suggest_no_default;
        if (answer === null) continue;
        const text = `[dependencies]\nburn = { version = "=${r.version}"${defaults ? "" : ", default-features = false"} }\n`;
        const plan = planFix(
          { path: "Cargo.toml", text },
          {
            target: { crate: "burn", feature: path, gate: g.gate, label: path },
            additions: answer.length > 0 ? [answer] : [],
          },
        );
        if (plan.kind === "fixed") {
          outcomes.fixed++;
          if (plan.change.added.length > answer.length) outcomes.larger.push(`${path} ${defaults}`);
        } else if (plan.kind === "already-on" && answer.length === 0) outcomes.already++;
        else outcomes.missed.push(`${path} defaults=${defaults}: ${plan.kind}`);
      }
    }
    expect(outcomes.missed).toEqual([]);
    expect(outcomes.larger).toEqual([]);
    // 0.9.0 gates fewer paths (about 250 edits); the newer layouts over 300.
    expect(outcomes.fixed).toBeGreaterThan(200);
  });
});
