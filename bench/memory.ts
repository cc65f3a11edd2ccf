// Memory held by what reporters paste and by what the index serves, in a process of its own
// (`node --expose-gc build/bench/memory.js keys|index [--json]`; `npm run bench:memory`):
// - keys: 1,000 issues, each the panic with a Cargo.toml whose burn requirement is a distinct
//   30 KB string, analysed one after another; what stays reachable after GC, and RSS growth.
// - index: 1,375 distinct `burn-*` crates served (each a copy of burn-core's index file under
//   another name) and read by one LiveIndex, one event each; RSS growth and heap after GC, and
//   what the cache says it holds.
// Both measure after a warm-up of the same work on short inputs, so loading the bundled data and
// compiling the code is the baseline, not the growth.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyze } from "../src/answer/analyze.js";
import { heldBytes, parseIndexFile } from "../src/cargo/index/index-file.js";
import { LiveIndex } from "../src/cargo/index/live-index.js";
import { snapshot } from "../src/cargo/index/registry.js";
import { targetApplies } from "../src/cargo/resolve/cfg.js";
import { admits, matches, rangeOf, selectVersion } from "../src/cargo/resolve/requirements.js";
import { fakeIndexFiles } from "../test/support/fake-index.js";
import { projectRoot } from "../test/support/root.js";

const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

function settled(): { heap: number; rss: number } {
  for (let i = 0; i < 4; i++) gc!();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external + m.arrayBuffers, rss: m.rss };
}

const PANIC = readFileSync(join(projectRoot(import.meta.url), "fixtures/issues/pos-color-eyre.md"), "utf8");

/** The fixture with its burn requirement replaced by `req`. */
const issue = (req: string) => PANIC.replace('version = "0.22.0-pre.2"', `version = ${JSON.stringify(req)}`);

/** A distinct requirement of about `bytes`: comparators cargo would accept, one differing per issue. */
function longRequirement(i: number, bytes: number): string {
  const parts = [`>=0.${i % 20}.${i}`];
  for (let n = 0, length = parts[0]!.length; length < bytes; n++) {
    parts.push(`<${1000 + n}.0.0`);
    length += parts.at(-1)!.length + 2;
  }
  return parts.join(", ");
}

export function keys(count = 1000, bytes = 30 * 1024) {
  // The warm-up takes the short path only: what the long requirements leave is all counted. It
  // was measured after 30 long ones until the first 30 were found to leave 32.6 MiB: the parsed
  // manifests manifest.ts keeps (1 MiB of text) held @iarna/toml's strings as ropes, 1.9 MiB a
  // 30 KB requirement (src/cargo/manifest/toml.ts now keeps flat copies).
  for (let i = 0; i < 50; i++) analyze({ text: issue(longRequirement(i, 64)) });
  const before = settled();
  let fed = 0;
  for (let i = 0; i < count; i++) {
    const text = issue(longRequirement(i, bytes));
    fed += text.length;
    analyze({ text });
  }
  const after = settled();
  return {
    input: `${count} issues, each a distinct ${Math.round(bytes / 1024)} KB burn requirement`,
    fedMiB: fed / MiB,
    retainedMiB: (after.heap - before.heap) / MiB,
    rssGrowthMiB: (after.rss - before.rss) / MiB,
  };
}

/** 1,000 distinct 30 KB keys straight into every memoised reading of outside text. */
export function memo(count = 1000, bytes = 30 * 1024) {
  const lines = snapshot("tags").versions("burn");
  const feed = (req: string) => {
    rangeOf(req, false);
    matches("0.20.1", req);
    admits(req, "0.20.1");
    selectVersion(lines, req);
    targetApplies(`cfg(${req.replace(/[^a-z0-9]/gi, "_")})`);
  };
  for (let i = 0; i < 50; i++) feed(longRequirement(i, 64));
  const before = settled();
  for (let i = 0; i < count; i++) feed(longRequirement(i, bytes));
  const after = settled();
  return {
    input: `${count} distinct ${Math.round(bytes / 1024)} KB keys into the memoised readings`,
    fedMiB: (count * bytes) / MiB,
    retainedMiB: (after.heap - before.heap) / MiB,
    rssGrowthMiB: (after.rss - before.rss) / MiB,
  };
}

/** burn-core's index file parsed `count` times and kept: the heap it took against heldBytes. */
export function held(count = 50) {
  const core = fakeIndexFiles().get("burn-core")!;
  parseIndexFile(core, "burn-core");
  const kept: unknown[] = [];
  let estimate = 0;
  const before = settled();
  for (let i = 0; i < count; i++) {
    const lines = parseIndexFile(`${core}${" ".repeat(i)}`, "burn-core");
    kept.push(lines);
    estimate += heldBytes(lines);
  }
  const after = settled();
  return { files: kept.length, heapGrowth: after.heap - before.heap, heldBytes: estimate };
}

export async function index(count = 1375) {
  const real = fakeIndexFiles();
  const template = real.get("burn-core")!;
  const body = (name: string) =>
    real.get(name) ??
    (/^burn-gen-\d+$/.test(name) ? template.replaceAll('"name":"burn-core"', `"name":"${name}"`) : null);
  const fetch = async (url: string | URL | Request) => {
    const name = String(url).split("/").pop()!;
    const text = body(name);
    return text === null ? new Response(null, { status: 404 }) : new Response(text, { headers: { etag: `"${name}"` } });
  };
  const live = new LiveIndex({ baseUrl: "http://index.invalid", fetch: fetch as typeof globalThis.fetch });
  for (let i = 0; i < 5; i++) await live.registryFor([`burn-gen-${i}`]);
  const before = settled();
  let served = 0;
  for (let i = 5; i < count; i++) {
    const r = await live.registryFor([`burn-gen-${i}`]);
    served += r.bytes;
  }
  const after = settled();
  return {
    input: `${count} distinct burn-* crates (burn-core's ${Math.round(Buffer.byteLength(template) / 1024)} KB index file each)`,
    servedMiB: served / MiB,
    heapGrowthMiB: (after.heap - before.heap) / MiB,
    rssGrowthMiB: (after.rss - before.rss) / MiB,
    cache: live.held(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [which = "keys", n] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const count = n === undefined ? undefined : Number(n);
  const modes: Record<string, (n?: number) => unknown> = { keys, memo, held, index };
  const run = modes[which];
  if (!run) throw new Error(`memory.ts: ${which} is not one of ${Object.keys(modes).join(", ")}`);
  const result = await run(count);
  console.log(process.argv.includes("--json") ? JSON.stringify(result) : result);
}
