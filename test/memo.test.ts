import { describe, expect, it } from "@jest/globals";
import { boundedMemo, MAX_MEMO_KEY } from "../src/memo.js";

describe("process-long memos", () => {
  it("hold at most their bound, drop the least recently used, and never keep a long key", () => {
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
});
