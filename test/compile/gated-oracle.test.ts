import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { root } from "../helpers/fixtures.js";

// burn-data's ready answer for every gated path (checked with cargo by burn-data) against the
// engine: with and without default features, a manifest declaring only `burn` must get a
// verified edit whenever the data has an answer, never a larger build (more crates turned on,
// or as many and more features; the engine may pick a build smaller than the data's answer:
// `std`, `dataset`, `vision` for vision, not `vision`, `train`), and "already on" exactly when
// the answer is "nothing to add". Four layouts (0.16 burn-core gates, 0.20, 0.21 dispatch,
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
          const chosen = plan.change.turnsOn?.length ?? 0;
          // The data's answer, written into the manifest: the crates its build turns on.
          const theirs = () => {
            const written = text.replace(" }\n", `, features = ${JSON.stringify(answer)} }\n`);
            const target = { crate: "burn", feature: path, gate: g.gate, label: path };
            const before = new Set(plan.diagnosis.state.crates ?? []);
            const after = diagnose(parseManifest(written), { target }).state.crates ?? [];
            return after.filter((c) => !before.has(c)).length;
          };
          const added = plan.change.added.length;
          if (added > answer.length || chosen > 0) {
            const other = theirs();
            if (chosen > other || (chosen === other && added > answer.length))
              outcomes.larger.push(`${path} ${defaults}`);
          }
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
