import { describe, expect, it } from "@jest/globals";
import { digest, emptyState, inputDigest, knownCurrent, resumeState } from "../../src/scan/state.js";

describe("the scan's state", () => {
  const tool = "t1";
  const issue = {
    title: "Panic",
    body: "not implemented: Requires `autodiff` feature",
    labels: [],
    user: { login: "u" },
  };

  it("is trusted only for the same repository and bot build", () => {
    const s = emptyState("acme/widgets", tool);
    s.listings["q"] = { complete: true, rows: [], stale: [] };
    expect(resumeState(s, "acme/widgets", tool).state).toBe(s);
    expect(resumeState(s, "acme/other", tool).state.listings).toEqual({});
    expect(resumeState(s, "acme/widgets", "t2").state.listings).toEqual({});
  });

  it("ignores, with the reason, a file that does not match its schema, instead of crashing on it", () => {
    for (const raw of [
      "garbage",
      { version: 1, repo: "acme/widgets", tool, query: "", complete: true, issues: {}, rows: [{}] },
      { ...emptyState("acme/widgets", tool), listings: { q: { complete: true, rows: [{}], stale: [] } } },
      { ...emptyState("acme/widgets", tool), issues: { "7": { updated_at: 5 } } },
      { ...emptyState("acme/widgets", tool), issues: null },
    ]) {
      const r = resumeState(raw, "acme/widgets", tool);
      expect(r.state).toEqual(emptyState("acme/widgets", tool));
      expect(r.ignored).toMatch(/does not match the schema/);
    }
    expect(resumeState(null, "acme/widgets", tool).ignored).toBeUndefined();
  });

  it("knows an issue is current only for the same text and the same answer, whatever its updated_at", () => {
    const s = emptyState("acme/widgets", tool);
    const input = inputDigest(issue);
    s.issues["7"] = { updated_at: "2026-06-01T00:00:00Z", input, answer: digest("a"), current: true };
    expect(knownCurrent(s, 7, input, digest("a"))).toBe(true);
    expect(knownCurrent(s, 7, inputDigest({ ...issue, body: "edited" }), digest("a"))).toBe(false);
    expect(knownCurrent(s, 7, inputDigest({ ...issue, labels: [{ name: "wontfix" }] }), digest("a"))).toBe(false);
    expect(knownCurrent(s, 7, input, digest("b"))).toBe(false);
    expect(knownCurrent(s, 8, input, digest("a"))).toBe(false);
    s.issues["7"]!.current = false;
    expect(knownCurrent(s, 7, input, digest("a"))).toBe(false);
  });
});
