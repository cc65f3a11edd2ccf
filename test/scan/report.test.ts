import { describe, expect, it } from "@jest/globals";
import { markdownReport, type ScanReport, type ScanRow } from "../../src/scan/report.js";
import { digest, emptyState, knownCurrent, resumeState } from "../../src/scan/state.js";

const row = (over: Partial<ScanRow> = {}): ScanRow => ({ number: 7, title: "Panic", found: { kind: "panic", id: "dispatch-autodiff-stub", printed: "not implemented" }, fix: { dependency: "burn", add: ["autodiff"] }, status: "missing", ...over });
const report = (rows: ScanRow[]): ScanReport => ({ repo: "acme/widgets", scanned: 10, rows, writes: 0, unchanged: false });

describe("the Markdown report", () => {
  it("escapes titles: no mention pings, no HTML renders, no cell or row breaks out", () => {
    const md = markdownReport(report([row({ title: "@octocat <b>x</b> | y\nsecond line" })]));
    const line = md.split("\n").find((l) => l.startsWith("| #7"))!;
    expect(line).toBe("| #7 | @\u200boctocat &lt;b&gt;x&lt;/b&gt; \\| y second line | `dispatch-autodiff-stub` | `burn: add autodiff` | missing |");
    expect(line.split(/(?<!\\)\|/).length).toBe(7);
  });

  it("says what --apply wrote, and leaves the table out when nothing is answerable", () => {
    expect(markdownReport(report([row({ applied: "created" })]))).toContain("| missing → created |");
    const empty = markdownReport(report([]));
    expect(empty).toContain("10 issues scanned in acme/widgets, 0 answerable");
    expect(empty).not.toContain("| Issue |");
  });
});

describe("the scan's state", () => {
  const tool = "t1";
  const query = '{"state":"open","since":null}';

  it("is trusted only for the same repository, query and bot build", () => {
    const s = { ...emptyState("acme/widgets", tool, query), complete: true };
    expect(resumeState(s, "acme/widgets", tool, query)).toBe(s);
    expect(resumeState(s, "acme/other", tool, query).complete).toBe(false);
    expect(resumeState(s, "acme/widgets", "t2", query).complete).toBe(false);
    expect(resumeState(s, "acme/widgets", tool, '{"state":"all","since":null}').complete).toBe(false);
    expect(resumeState("garbage", "acme/widgets", tool, query)).toEqual(emptyState("acme/widgets", tool, query));
  });

  it("knows an issue is current only for the same text and the same answer", () => {
    const s = emptyState("acme/widgets", tool, query);
    s.issues["7"] = { updated_at: "2026-06-01T00:00:00Z", answer: digest("a"), current: true };
    expect(knownCurrent(s, 7, "2026-06-01T00:00:00Z", digest("a"))).toBe(true);
    expect(knownCurrent(s, 7, "2026-06-02T00:00:00Z", digest("a"))).toBe(false);
    expect(knownCurrent(s, 7, "2026-06-01T00:00:00Z", digest("b"))).toBe(false);
    expect(knownCurrent(s, 8, "2026-06-01T00:00:00Z", digest("a"))).toBe(false);
    s.issues["7"]!.current = false;
    expect(knownCurrent(s, 7, "2026-06-01T00:00:00Z", digest("a"))).toBe(false);
  });
});
