// Memory bounded by what the code says it bounds, measured after GC in a process of its own
// (bench/memory.ts, built by `npm run build:dev`, run with --expose-gc): what reporters paste
// (1,000 distinct 30 KB keys; memo keys over 512 characters are never kept, and node-semver's
// own cache never sees them), and what an index file's parsed lines hold against heldBytes.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { projectRoot } from "../support/root.js";

const BENCH = join(projectRoot(import.meta.url), "build/bench/memory.js");
const MiB = 1024 * 1024;

function measure(args: string[]): Promise<Record<string, number>> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ["--expose-gc", BENCH, ...args, "--json"], { timeout: 120_000 }, (e, stdout) =>
      e ? reject(e) : resolve(JSON.parse(stdout) as Record<string, number>),
    ),
  );
}

describe("memory held by what reporters paste", () => {
  it("1,000 distinct 30 KB keys into the memoised readings leave under 2 MiB reachable after GC", async () => {
    const r = await measure(["memo", "1000"]);
    expect(r.fedMiB).toBeGreaterThan(29);
    expect(r.retainedMiB).toBeLessThan(2);
  }, 120_000);

  // From a warm-up on short requirements only: the parsed manifests manifest.ts keeps (1 MiB of
  // text, about 33 of these) hold about 2 MiB; when they held the parser's strings as ropes, the
  // first 30 long requirements left 32.6 MiB.
  it("100 issues, each a distinct 30 KB burn requirement, analysed whole, leave under 4 MiB after GC", async () => {
    const r = await measure(["keys", "100"]);
    expect(r.fedMiB).toBeGreaterThan(2.9);
    expect(r.retainedMiB).toBeLessThan(4);
  }, 120_000);

  it("parsed index lines hold no more than heldBytes says", async () => {
    const r = await measure(["held", "50"]);
    expect(r.heapGrowth).toBeGreaterThan(0);
    expect(r.heapGrowth).toBeLessThanOrEqual(r.heldBytes);
    expect(r.heldBytes / MiB).toBeGreaterThan(1);
  }, 120_000);
});
