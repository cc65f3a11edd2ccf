import { describe, expect, it, jest } from "@jest/globals";
import { scanArgs } from "../../src/cli/scan.js";
import { contentPacer, paceDurationMs, rateLimitPolicy } from "../../src/cli/scan-pacing.js";
import { redactSecrets, terminalJson, terminalSafe } from "../../src/cli/terminal.js";

describe("scan's pacing", () => {
  it("runs writes one at a time, each finished before the next starts, the spacing apart", async () => {
    // Fake timers: the spacing is Bottleneck's clock, not a race against a loaded machine's.
    jest.useFakeTimers({ now: 0 });
    try {
      const pace = contentPacer({ spacingMs: 1000, say: () => undefined });
      const events: string[] = [];
      const job = (name: string) => async () => {
        events.push(`${name} start @${Date.now()}`);
        await new Promise((r) => setTimeout(r, 5));
        events.push(`${name} end`);
      };
      const all = Promise.all([pace(job("comment")), pace(job("label")), pace(job("next"))]);
      await jest.advanceTimersByTimeAsync(5000);
      await all;
      expect(events.map((e) => e.replace(/ @\d+$/, ""))).toEqual([
        "comment start",
        "comment end",
        "label start",
        "label end",
        "next start",
        "next end",
      ]);
      const starts = events.filter((e) => e.includes(" start @")).map((e) => Number(e.split("@")[1]));
      // Bottleneck's own tick precedes the job's first line by a fake millisecond or two.
      expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(990);
      expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(990);
    } finally {
      jest.useRealTimers();
    }
  });

  it("spaces the writes as GitHub sees them, whatever a job waits for before it sends", async () => {
    // A job as Octokit runs it: held first by its own throttling (a comment waits for its
    // notification slot, a label does not), then sent, then answered. The gaps are between the
    // writes GitHub receives, not between the starts of the jobs.
    jest.useFakeTimers({ now: 0 });
    try {
      const pace = contentPacer({ spacingMs: 1000, say: () => undefined });
      const sent: Array<{ name: string; at: number }> = [];
      const answered: number[] = [];
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const job = (name: string, heldMs: number, answerMs: number) => async () => {
        await sleep(heldMs);
        sent.push({ name, at: Date.now() });
        await sleep(answerMs);
        answered.push(Date.now());
        return name;
      };
      const writes = [
        pace(job("comment #1", 3000, 40)),
        pace(job("label #1", 0, 30)),
        pace(job("update #2", 0, 35)),
        pace(job("delete #2", 2500, 20)),
        pace(job("comment #3", 3000, 40)),
        pace(job("label #3", 0, 30)),
      ];
      await jest.advanceTimersByTimeAsync(30_000);
      // Each caller has its write's answer, in order.
      expect(await Promise.all(writes)).toEqual(sent.map((w) => w.name));
      for (let i = 1; i < sent.length; i++) {
        expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(1000);
        // The next write leaves a full spacing after the previous one's answer.
        expect(sent[i]!.at - answered[i - 1]!).toBeGreaterThanOrEqual(1000);
      }
    } finally {
      jest.useRealTimers();
    }
  });

  it("keeps to the content limits, and says until when it waits", async () => {
    const say: string[] = [];
    const limits = { perMinute: 2, perHour: 100, minuteMs: 400, hourMs: 60_000 };
    const pace = contentPacer({ spacingMs: 0, say: (s) => say.push(s), limits });
    const started = Date.now();
    const at: number[] = [];
    await Promise.all([0, 1, 2].map(() => pace(async () => at.push(Date.now() - started))));
    // The third write waits for the minute's reservoir to refill.
    expect(at[2]!).toBeGreaterThanOrEqual(300);
    expect(say.join("")).toMatch(
      /2 writes this minute, GitHub's content limit; the next waits until \d\d:\d\d:\d\d UTC/,
    );
  });

  it("estimates a backlog at GitHub's limits: 500 an hour, 80 a minute", () => {
    expect(paceDurationMs(1, 1000)).toBe(0);
    expect(paceDurationMs(80, 1000)).toBe(79_000);
    expect(paceDurationMs(81, 1000)).toBe(60_000);
    expect(paceDurationMs(1000, 1000)).toBeGreaterThan(3_600_000);
    // README: 400 answers, a comment and a label each, take a little over an hour.
    expect(paceDurationMs(800, 1000) / 60_000).toBeCloseTo(64, 0);
  });

  it("waits out a primary rate limit at most three times, and stops on a reset it cannot believe", () => {
    const say: string[] = [];
    const policy = rateLimitPolicy(
      (s) => say.push(s),
      () => Date.UTC(2026, 11, 4, 12, 0, 0),
    );
    expect(policy(30, {}, {}, 0)).toBe(true);
    expect(say.pop()).toMatch(/waiting 30 s \(at 12:00:30 UTC\), attempt 1 of 3/);
    expect(policy(30, {}, {}, 3)).toBe(false);
    expect(policy(0, {}, {}, 0)).toBe(false);
    expect(say.pop()).toMatch(/its reset time makes no sense; stopping/);
    expect(policy(Number.NaN, {}, {}, 0)).toBe(false);
    expect(policy(99_999, {}, {}, 0)).toBe(false);
  });
});

describe("what reaches a maintainer's terminal", () => {
  it("shows control characters instead of obeying them, and never a secret", () => {
    expect(terminalSafe("a\u001b[2Jb\u0007c\u009bd\r\ne\tf\u202eg")).toBe("a\\x1b[2Jb\\x07c\\x9bd\\x0d\ne\tf\\x202eg");
    expect(JSON.parse(terminalJson({ t: "x\u009by\u001b" })).t).toBe("x\u009by\u001b");
    expect(terminalJson({ t: "x\u009by" })).not.toMatch(/\u009b/);
    expect(redactSecrets("Bad credentials: ghp_abc123 at https://u:p@h/x", ["ghp_abc123"])).toBe(
      "Bad credentials: *** at https://***:***@h/x",
    );
  });

  it("takes OWNER/REPO only as GitHub names them", () => {
    expect(scanArgs(["tracel-ai/burn"])).toMatchObject({ owner: "tracel-ai", repo: "burn" });
    expect(scanArgs(["a/.github"])).toMatchObject({ repo: ".github" });
    for (const bad of ["../..", "o/..", "o/.", "-o/r", "o/r/x", "o_o/r", `${"a".repeat(40)}/r`, "o/"])
      expect(() => scanArgs(["--", bad])).toThrow(/scan wants OWNER\/REPO/);
  });
});
