import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { type Gate, type GatedData, gateAt, gatedRefs, gateIn, indexGated } from "../../src/compile/gated.js";
import { root } from "../helpers/fixtures.js";

// gateAt reads one table of every path (built on first use) rather than a table per release: it
// must give, for every path and release of the data, what that release's own pairs say.
const data = JSON.parse(readFileSync(join(root, "data/gated.json"), "utf8")) as GatedData;

/** A release's own pairs, read plainly: the path's gates there, or none. */
function pairsAt(raw: GatedData, ref: string, path: string): Gate[] {
  return raw.refs[ref]!.entries.filter(([p]) => raw.paths[p] === path).map(([, g]) => raw.gates[g]!);
}

function expected(gates: Gate[], path: string): { gate: Gate; path: string } | null {
  if (gates.length === 0) return null;
  return gates.every((g) => g.gate === gates[0]!.gate) ? { gate: gates[0]!, path } : null;
}

describe("gated paths looked up in one table", () => {
  it("gives each release's own gate for every path of the data, and null where the release lacks it", () => {
    let gated = 0;
    const wrong: Array<{ ref: string; path: string }> = [];
    for (const ref of Object.keys(data.refs)) {
      const own = new Map<string, Gate[]>();
      for (const [p, g] of data.refs[ref]!.entries)
        own.set(data.paths[p]!, [...(own.get(data.paths[p]!) ?? []), data.gates[g]!]);
      for (const path of data.paths) {
        const want = expected(own.get(path) ?? [], path);
        if (want) gated++;
        if (JSON.stringify(gateAt(ref, { path, exact: true })) !== JSON.stringify(want)) wrong.push({ ref, path });
      }
    }
    expect(wrong).toEqual([]);
    // Every release holds hundreds: the loop above compared real entries, not only nulls.
    expect(gated).toBeGreaterThan(10_000);
  });

  it("walks up to the nearest gated ancestor for an inexact path, at the release asked", () => {
    const ref = "v0.20.1";
    const at = gateAt(ref, { path: "burn::backend::Wgpu::not_a_thing::Deeper", exact: false });
    expect(at).toEqual(expected(pairsAt(data, ref, "burn::backend::Wgpu"), "burn::backend::Wgpu"));
    expect(gateAt(ref, { path: "burn::backend::Wgpu::not_a_thing", exact: true })).toBeNull();
  });

  it("lists the releases oldest first", () => {
    const versions = gatedRefs().map((r) => data.refs[r]!.version!);
    expect(versions.slice(0, 3)).toEqual(["0.9.0", "0.10.0", "0.11.0"]);
    expect(versions.at(-1)).toBe("0.22.0-pre.2");
    expect(versions).not.toContain(null);
  });

  it("keeps a release from the first map that has it, and adds the second map's other releases", () => {
    const wgpu = data.paths.indexOf("burn::backend::Wgpu");
    const ndarray = data.paths.indexOf("burn::backend::NdArray");
    const other: GatedData = {
      ...data,
      gates: [{ ...data.gates[0]!, gate: 'feature = "burn/other"', cfg_line: 7 }],
      refs: {
        "v0.20.1": { version: "0.20.1", commit: "x", entries: [[wgpu, 0]] },
        "v9.0.0": { version: "9.0.0", commit: "y", entries: [[ndarray, 0]] },
      },
    };
    const both = indexGated([data, other]);
    expect(gateIn(both, "v0.20.1", { path: "burn::backend::Wgpu", exact: true })).toEqual(
      expected(pairsAt(data, "v0.20.1", "burn::backend::Wgpu"), "burn::backend::Wgpu"),
    );
    expect(gateIn(both, "v9.0.0", { path: "burn::backend::NdArray", exact: true })?.gate.cfg_line).toBe(7);
    expect(gateIn(both, "v9.0.0", { path: "burn::backend::Wgpu", exact: true })).toBeNull();
    expect(both.releases.at(-1)).toBe("v9.0.0");
  });
});
