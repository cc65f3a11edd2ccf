// Issue 14: no single event may hold the process's one event loop. Each input below once
// stalled it for 5–21 s. The stall itself is a speed figure and lives in `npm run bench`
// (BENCHMARKS.md, worst of three runs per input); a wall-clock bound here only measured how
// busy the test machine was (CI once saw 528 ms on a case that takes 20 ms alone). What a test
// can hold without a clock: handled next to a normal event, both are answered exactly once and
// no error reaches Probot. The caps that keep each pass linear have their own unit tests.
import { describe, expect, it } from "@jest/globals";
import { stallCases } from "../bench/inputs.js";
import { measureStall } from "../bench/stall.js";

describe("an input that once stalled the event loop, next to a normal event", () => {
  it.each(stallCases().map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const run = await measureStall(c);
    expect(run).toMatchObject({ normalAnswered: true, adversarialSettled: true, adversarialWrites: 1 });
  });
});
