// The hostile rows issue 54 holds under 50 ms each (worst of 3), runnable alone:
// `npm run bench:hostile -- [--only NAME]` (NAME matched as a substring). Prints each row's worst
// of 3 runs; BENCHMARKS.md quotes them with the machine's state.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_RUST_FILE } from "../src/compile/rust-items.js";
import { sourceGate, stepBudget } from "../src/compile/source-gates.js";
import { scanSource } from "../src/panics/source-scan.js";
import { projectRoot } from "../test/support/root.js";
import { hostileIndexStalls } from "./hostile.js";
import { matchingIssue } from "./inputs.js";
import { measureStall } from "./stall.js";

const STUB = "Requires `autodiff` feature";

/** The worst CPU ms beside each worst wall ms worstOf3 returned. */
const cpu = new Map<number, number>();

/**
 * Three runs on fresh texts (no memo hides the work); the worst wall time, and the worst CPU time
 * of the process meanwhile (on a machine shared with other jobs, the CPU time is near what the
 * run takes on an idle one: the code is synchronous).
 */
function worstOf3(text: string, run: (t: string) => unknown): number {
  let worst = 0;
  let worstCpu = 0;
  for (let i = 0; i < 3; i++) {
    const fresh = `${text.slice(0, text.length - 2)}${" ".repeat(i)}`;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    run(fresh);
    worst = Math.max(worst, performance.now() - t0);
    const c = process.cpuUsage(c0);
    worstCpu = Math.max(worstCpu, (c.user + c.system) / 1000);
  }
  cpu.set(Number(worst.toFixed(1)), Number(worstCpu.toFixed(1)));
  return Number(worst.toFixed(1));
}

/** A 1 MiB line of `"\` in a burn source file: the panic scan, and the module reader at its cap. */
function quoteBackslashLine(): Array<{ input: string; worstMs: number }> {
  const line = '"\\'.repeat(512 * 1024);
  const text = `${line}\nfn backward() { unimplemented!("${STUB}") }\n`;
  const lib = (t: string) => (p: string) => (p === "crates/burn/src/lib.rs" ? t.slice(0, MAX_RUST_FILE) : null);
  return [
    {
      input: 'a 1 MiB line of `"\\` in a burn source file (panic scan)',
      worstMs: worstOf3(text, (t) => scanSource(t, STUB)),
    },
    {
      input: 'a 1 MiB line of `"\\` in a burn source file (module reader, at its cap)',
      worstMs: worstOf3(text, (t) => sourceGate("burn::A::B", lib(t))),
    },
  ];
}

/** 64 KiB of rustc errors naming twenty distinct gated paths, as an issue: the event loop's worst stall. */
async function twentyGatedPaths(): Promise<Array<{ input: string; worstMs: number }>> {
  const gated = JSON.parse(readFileSync(join(projectRoot(import.meta.url), "data/gated.json"), "utf8")) as {
    paths: string[];
  };
  const paths = gated.paths.filter((p) => p.split("::").length === 3).slice(0, 20);
  const error = (p: string, i: number) =>
    `error[E0432]: unresolved import \`${p}\`\n --> src/m${i}.rs:1:5\n  |\n1 | use ${p};\n  |     ${"^".repeat(p.length)} no \`${p.split("::").at(-1)}\` in \`${p.split("::").slice(0, -1).join("::")}\`\n\n`;
  let log = "";
  for (let i = 0; log.length < 64 * 1024 - 200; i++) log += error(paths[i % paths.length]!, i);
  const payload = matchingIssue();
  payload.issue.body = `Build fails:\n\n\`\`\`\n${log.slice(0, 64 * 1024 - 200)}\n\`\`\`\n`;
  let worst = 0;
  let worstCpu = 0;
  for (let i = 0; i < 3; i++) {
    const p = structuredClone(payload);
    p.issue.number += i + 1;
    const run = await measureStall({ name: "twenty gated paths", event: "issues", payload: p });
    if (run.worstMs >= worst) [worst, worstCpu] = [run.worstMs, run.worstCpuMs];
  }
  cpu.set(worst, worstCpu);
  return [{ input: "64 KiB issue: rustc errors naming twenty distinct gated paths", worstMs: worst }];
}

/** Two lib.rs of 2,000 globs each way, 64 paths of one event (bench/hostile.ts's row). */
function twoLibs(): Array<{ input: string; worstMs: number }> {
  const globsInto = (target: string) =>
    Array.from({ length: 2000 }, (_, i) => `pub use ${target}::m${i}::*;`).join("\n");
  const core = `pub use burn::*;\n${globsInto("crate")}`;
  const run = (t: string) => {
    const files: Record<string, string> = { "crates/burn/src/lib.rs": t, "crates/burn-core/src/lib.rs": core };
    const parsed = new Map();
    const budget = stepBudget();
    for (let i = 0; i < 64; i++) sourceGate(`burn::a${i}::B`, (p) => files[p] ?? null, parsed, budget);
  };
  const input = "two lib.rs of 2,000 globs each way, 64 paths of one event";
  return [{ input, worstMs: worstOf3(`pub use burn_core::*;\n${globsInto("burn_core")}`, run) }];
}

export async function hostileRows(only?: string): Promise<Array<{ input: string; worstMs: number }>> {
  const want = (name: string) => !only || name.toLowerCase().includes(only.toLowerCase());
  const out: Array<{ input: string; worstMs: number }> = [];
  if (want('a 1 MiB line of `"\\`')) out.push(...quoteBackslashLine());
  if (want("50,000 features on one version")) {
    const runs = [];
    for (let i = 0; i < 3; i++)
      runs.push((await hostileIndexStalls()).cases.find((c) => c.input === "50,000 features on one version")!.worstMs);
    out.push({ input: "50,000 features on one version (index read and fix plan)", worstMs: Math.max(...runs) });
  }
  if (want("twenty distinct gated paths")) out.push(...(await twentyGatedPaths()));
  if (want("two lib.rs")) out.push(...twoLibs());
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf("--only");
  for (const r of await hostileRows(i > 0 ? process.argv[i + 1] : undefined)) {
    const c = cpu.get(r.worstMs);
    console.log(`${r.worstMs} ms${c === undefined ? "" : ` (CPU ${c} ms)`}\t${r.input}`);
  }
  process.exit(0);
}
