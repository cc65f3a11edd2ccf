import { describe, expect, it } from "@jest/globals";
import { precomputedEnablers } from "../../src/cargo/index/precomputed.js";
import {
  MapRegistry,
  recentRelease,
  type SnapshotName,
  snapshot,
  snapshotCrates,
} from "../../src/cargo/index/registry.js";
import { computeEnablers } from "../../src/cargo/resolve/enablers.js";
import { AUTODIFF_TARGET } from "../../src/cargo/resolve/resolve.js";

describe("the build's table of enablers (data/.cache, written by npm run build)", () => {
  it.each<SnapshotName>(["tags", "main"])("holds what resolving gives for every line of the %s snapshot", (which) => {
    const registry = snapshot(which);
    const lines = snapshotCrates(which).flatMap((name) => registry.versions(name).filter(recentRelease));
    expect(lines.length).toBeGreaterThan(which === "tags" ? 600 : 30);
    for (const line of lines)
      expect({ line: `${line.name}@${line.vers}`, ...precomputedEnablers(line, registry, AUTODIFF_TARGET) }).toEqual({
        line: `${line.name}@${line.vers}`,
        ...computeEnablers(line, registry),
      });
  });

  it("answers only for the bundled registry itself and the default target", () => {
    const tags = snapshot("tags");
    const burn = tags.versions("burn").at(-1)!;
    expect(precomputedEnablers(burn, tags, AUTODIFF_TARGET)?.enablers).toContain("autodiff");
    // The same lines under another registry (a live index that fell back) are resolved, not looked up.
    const copy = new MapRegistry(tags.label, new Map([["burn", tags.versions("burn")]]));
    expect(precomputedEnablers(burn, copy, AUTODIFF_TARGET)).toBeUndefined();
    expect(precomputedEnablers(burn, tags, { crate: "burn-core", feature: "std" })).toBeUndefined();
    expect(precomputedEnablers(burn, tags, { ...AUTODIFF_TARGET, gate: "burn::train" })).toBeUndefined();
  });
});
