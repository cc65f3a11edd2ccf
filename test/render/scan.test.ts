import { describe, expect, it } from "@jest/globals";
import { markdownReport } from "../../src/render/scan.js";
import type { ScanReport, ScanRow } from "../../src/scan/report.js";

const row = (over: Partial<ScanRow> = {}): ScanRow => ({
  number: 7,
  title: "Panic",
  found: { kind: "panic", id: "dispatch-autodiff-stub", printed: "not implemented" },
  fix: { dependency: "burn", add: ["autodiff"] },
  status: "missing",
  ...over,
});
const report = (rows: ScanRow[]): ScanReport => ({
  repo: "acme/widgets",
  scanned: 10,
  rows,
  stale: [],
  writes: 0,
  unchanged: false,
});

describe("the Markdown report", () => {
  it("escapes titles: no mention pings, no HTML renders, no cell or row breaks out", () => {
    const md = markdownReport(report([row({ title: "@octocat <b>x</b> | y\nsecond line" })]));
    const line = md.split("\n").find((l) => l.startsWith("| #7"))!;
    expect(line).toBe(
      "| #7 | @\u200boctocat &lt;b&gt;x&lt;/b&gt; \\| y second line | `dispatch-autodiff-stub` | `burn: add autodiff` | missing |",
    );
    expect(line.split(/(?<!\\)\|/).length).toBe(7);
  });

  it("says what --apply wrote, and leaves the table out when nothing is answerable", () => {
    expect(markdownReport(report([row({ applied: "created" })]))).toContain("| missing → created |");
    const empty = markdownReport(report([]));
    expect(empty).toContain("10 issues scanned in acme/widgets, 0 answerable");
    expect(empty).not.toContain("| Issue |");
  });
});
