import { describe, expect, it } from "@jest/globals";
import { digest, emptyState, knownCurrent, resumeState } from "../../src/scan/state.js";

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
