import { describe, expect, it } from "@jest/globals";
import { boundedMemo, MAX_MEMO_KEY } from "../src/util/memo.js";

describe("process-long memos", () => {
  it("keep the most recent entries, drop the least recently used, and never keep a long key", () => {
    const m = boundedMemo<number | null>(3);
    for (let i = 0; i < 10; i++) m.set(`k${i}`, i);
    expect(m.size).toBe(3);
    expect(m.get("k0")).toBeUndefined();
    expect(m.get("k9")).toBe(9);
    m.set("null", null);
    expect(m.get("null")).toBeNull();
    m.set("x".repeat(MAX_MEMO_KEY + 1), 1);
    expect(m.get("x".repeat(MAX_MEMO_KEY + 1))).toBeUndefined();
  });

  it("hold at most twice their bound, whatever is asked of them", () => {
    const m = boundedMemo<number>(100);
    for (let i = 0; i < 1000; i++) {
      m.set(`k${i}`, i);
      if (i % 7 === 0) m.get(`k${i >> 1}`);
    }
    // The last 100 written are all there.
    for (let i = 900; i < 1000; i++) expect(m.get(`k${i}`)).toBe(i);
    let held = 0;
    for (let i = 0; i < 1000; i++) if (m.get(`k${i}`) !== undefined) held++;
    expect(held).toBeLessThanOrEqual(200);
  });
});
