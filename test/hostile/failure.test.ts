// Only failures that can pass by waiting are retried; a bug in the bot fails once.
import { describe, expect, it } from "@jest/globals";
import { memoryCoordination } from "../../src/github/coordination.js";
import { classify, Redeliveries, transient } from "../../src/github/retry.js";

const quiet = { warn: () => undefined, info: () => undefined, debug: () => undefined, error: () => undefined } as never;

describe("failure classes", () => {
  it("GitHub's answers are classed by status", () => {
    expect(classify(Object.assign(new Error("x"), { status: 502 }))).toEqual({
      kind: "github",
      status: 502,
      passes: true,
    });
    expect(classify(Object.assign(new Error("x"), { status: 429 })).passes).toBe(true);
    expect(classify(Object.assign(new Error("API rate limit exceeded"), { status: 403 })).passes).toBe(true);
    expect(classify(Object.assign(new Error("Resource not accessible by integration"), { status: 403 })).passes).toBe(
      false,
    );
    expect(classify(Object.assign(new Error("x"), { status: 422 })).passes).toBe(false);
  });

  it("network failures and deadlines pass; fetch's TypeError is a network failure through its cause", () => {
    expect(classify(Object.assign(new Error("aborted"), { name: "AbortError" })).kind).toBe("network");
    expect(classify(Object.assign(new Error("socket"), { code: "ECONNRESET" })).kind).toBe("network");
    expect(
      classify(new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "UND_ERR_SOCKET" }) }))
        .kind,
    ).toBe("network");
    expect(classify(new Error("wrapped", { cause: Object.assign(new Error("x"), { status: 503 }) })).kind).toBe(
      "github",
    );
  });

  it("a TypeError in the analyser, or any error without a status or network code, is a bug", () => {
    expect(classify(new TypeError("l.deps is not iterable"))).toEqual({ kind: "bug", passes: false });
    expect(classify(new RangeError("Maximum call stack size exceeded")).kind).toBe("bug");
    expect(classify(new Error("invariant"))).toEqual({ kind: "bug", passes: false });
    expect(classify(undefined).kind).toBe("bug");
    const cyclic = new Error("a") as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    expect(classify(cyclic).kind).toBe("bug");
  });

  it("a bug is not scheduled for a retry; a 502 is", async () => {
    const store = memoryCoordination();
    const r = new Redeliveries(store, async () => undefined, quiet, [10]);
    expect(
      await r.schedule({ id: "d1", name: "issues", payload: {} }, new TypeError("x is not a function")),
    ).toBeNull();
    expect(
      await r.schedule(
        { id: "d2", name: "issues", payload: {} },
        Object.assign(new Error("bad gateway"), { status: 502 }),
      ),
    ).toBe(10);
    expect(transient(new TypeError("x"))).toBe(false);
  });
});
