// What the comment says of the code a panic was raised in holds of that code: the cfg is quoted
// as burn's source writes it (not the family data's reached-when condition), and "any one of …
// removes this code" only for features that quoted cfg proves remove it.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import * as yaml from "js-yaml";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { cfgAsWritten, removedBy } from "../../src/panics/site-claims.js";
import { analyzePanic } from "../helpers/analysis.js";

const cases = (
  yaml.load(readFileSync("fixtures/family/cases.yml", "utf8")) as { cases: Array<{ name: string; text: string }> }
).cases;
const text = (name: string) => cases.find((c) => c.name === name)!.text;

describe("claims about the site's code", () => {
  it("BURN_DEVICE's fallback: the source's `#[cfg(feature = \"std\")]`, not all(std, not(cuda))", () => {
    const a = analyzePanic({ text: text("BURN_DEVICE=cuda on a wgpu build (0.22.0-pre.2)") });
    expect(a.link?.gate).toBe('all(feature = "std", not(feature = "cuda"))');
    expect(a.siteGate).toMatchObject({ kind: "under", cfg: '#[cfg(feature = "std")]', crate: "burn-dispatch" });
    const body = renderIssueComment(a)!;
    expect(body).toContain('That code sits under `#[cfg(feature = "std")]` in `burn-dispatch`.');
    expect(body).not.toContain("compiled in when");
    expect(body).not.toContain('not(feature = "cuda")');
  });

  it("an unconditional `_ => unreachable!` arm: no feature is said to remove it", () => {
    const a = analyzePanic({ text: text("unreachable, nothing points to a backend (0.22.0-pre.2)") });
    expect(a.target.kind).toBe("choose");
    expect(a.siteGate).toMatchObject({ kind: "ungated" });
    const body = renderIssueComment(a)!;
    expect(body).not.toContain("removes this code");
    // Nor is the data's own bookkeeping said (the maintainer's finding 10): only the ways out.
    expect(body).not.toContain("The data records no");
    expect(body).toMatch(/Any one of `cpu`, [^\n]* of `burn-dispatch` is a way out\./);
  });

  it("the no-backend compile_error!: removed by each backend its not(any(…)) names, and only those", () => {
    const a = analyzePanic({ text: text("0.21 build with dispatch and no backend, nothing says which") });
    expect(a.siteGate?.kind).toBe("under");
    const body = renderIssueComment(a)!;
    expect(body).toMatch(/Any one of `cpu`, `cuda`, [^\n]*removes this code/);
    // `metal` reaches the gate only through the `wgpu_metal` flag burn's build script sets.
    expect(body).toMatch(/The data also lists [^\n]*`metal`[^\n]*that `#\[cfg\]` does not name them/);
  });

  it("removedBy reads the quoted cfg", () => {
    const under = (cfg: string) => ({ kind: "under" as const, cfg, crate: "c", file: "f", line: 1, ref: "r" });
    expect(removedBy(under('#[cfg(not(any(feature = "a", feature = "b", x)))]'), ["a", "b", "x"])).toEqual(["a", "b"]);
    expect(removedBy(under('#[cfg(feature = "std")]'), ["cuda"])).toEqual([]);
    expect(removedBy(under('#[cfg(not(feature = "a"))]'), ["a"])).toEqual(["a"]);
    expect(removedBy({ kind: "ungated", crate: "c", file: "f", line: 1, ref: "r" }, ["a"])).toEqual([]);
    expect(cfgAsWritten('#[cfg(not(any(\n    feature = "cpu",\n    wgpu_metal,\n)))]')).toBe(
      '#[cfg(not(any(feature = "cpu", wgpu_metal)))]',
    );
  });
});
