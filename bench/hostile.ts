// The worst event-loop stall while the bot reads and resolves hostile index data (the inputs of
// test/hostile/index.test.ts), burn source files and a frozen Redis, and the caps that bound them.

import { type AddressInfo, createServer, type Socket } from "node:net";
import { planFix } from "../src/cargo/fix/fix.js";
import { INDEX_LIMITS, indexPath } from "../src/cargo/index/index-file.js";
import { LiveIndex } from "../src/cargo/index/live-index.js";
import { snapshot } from "../src/cargo/index/registry.js";
import { DIAGNOSIS_STEPS } from "../src/cargo/resolve/resolve.js";
import { MAX_RUST_FILE } from "../src/compile/rust-items.js";
import { sourceGate, stepBudget } from "../src/compile/source-gates.js";
import { redisCoordination } from "../src/github/coordination.js";
import { COMMAND_TIMEOUT_MS, connect } from "../src/github/redis.js";
import { scanSource } from "../src/panics/source-scan.js";
import { fakeIndexFiles } from "../test/support/fake-index.js";
import { type Answer, dep, line, startHostileIndex } from "../test/support/hostile-index.js";
import { stallMeter } from "./stall.js";

function cases(): Array<{ name: string; answers: Record<string, Answer>; roots: string[] }> {
  const evil = `/${indexPath("burn-evil")}`;
  const burn: Record<string, Answer> = {};
  for (const [name, text] of fakeIndexFiles()) burn[`/${indexPath(name)}`] = { body: text };
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, [] as string[]]));
  return [
    {
      name: "300 features beside burn-dispatch (3 KiB)",
      answers: {
        ...burn,
        [evil]: {
          body: line("burn-evil", "1.0.0", many(300), [dep("burn-dispatch", "=0.21.0", { default_features: false })]),
        },
      },
      roots: ["burn-evil"],
    },
    {
      name: "50,000 features on one version",
      answers: { ...burn, [evil]: { body: line("burn-evil", "1.0.0", many(50_000)) } },
      roots: ["burn-evil"],
    },
    {
      name: "a line naming 50,000 crates",
      answers: {
        ...burn,
        [evil]: {
          body: line(
            "burn-evil",
            "1.0.0",
            {},
            Array.from({ length: 50_000 }, (_, i) => dep(`burn-x${i}`, "1")),
          ),
        },
      },
      roots: ["burn-evil"],
    },
    { name: "32 MiB index file", answers: { ...burn, [evil]: { bytes: 32 * 1024 * 1024 } }, roots: ["burn-evil"] },
    {
      name: "deps: null",
      answers: {
        ...burn,
        [evil]: { body: JSON.stringify({ name: "burn-evil", vers: "1.0.0", deps: null, features: {} }) },
      },
      roots: ["burn-evil"],
    },
  ];
}

export async function hostileIndexStalls(): Promise<{
  caps: object;
  cases: Array<{ input: string; worstMs: number; totalMs: number; answer: string }>;
}> {
  const out = [];
  for (const c of cases()) {
    const index = await startHostileIndex(c.answers);
    const meter = stallMeter();
    const t0 = performance.now();
    try {
      const r = await new LiveIndex({ baseUrl: index.url }).registryFor(c.roots);
      await new Promise((res) => setTimeout(res, 0));
      const plan = planFix(
        { path: "Cargo.toml", text: '[dependencies]\nburn-evil = "1"\n' },
        { registries: { tags: r.registry, main: snapshot("main") } },
      );
      await new Promise((res) => setTimeout(res, 10));
      out.push({
        input: c.name,
        worstMs: meter.stop(),
        totalMs: Number((performance.now() - t0).toFixed(0)),
        answer: plan.kind === "no-fix" ? plan.reason : plan.kind,
      });
    } finally {
      meter.stop();
      await index.close();
    }
  }
  return {
    caps: {
      ...INDEX_LIMITS,
      maxBytes: 4 * 1024 * 1024,
      maxCrates: 60,
      eventBudgetMs: 5000,
      resolverStepsPerDiagnosis: DIAGNOSIS_STEPS,
    },
    cases: out,
  };
}

const STUB = "Requires `autodiff` feature";

/**
 * burn files read at a release tag (test/hostile/source.test.ts): the panic scan, and the module
 * reader and resolver of compile errors (src/compile/source-gates.ts) at its size cap. Each run
 * gets a fresh text, so the reader's memo does not hide the parse.
 */
const globsInto = (target: string) => Array.from({ length: 2000 }, (_, i) => `pub use ${target}::m${i}::*;`).join("\n");

/**
 * 64 paths resolved as one event resolves them (fromSource): sharing the parsed files and one
 * budget of steps. The paths it answers (absent or gated), not unknown.
 */
function eventPaths(files: Record<string, string>): number {
  const parsed = new Map();
  const budget = stepBudget();
  let known = 0;
  for (let i = 0; i < 64; i++)
    known += sourceGate(`burn::a${i}::B`, (p) => files[p] ?? null, parsed, budget).kind === "unknown" ? 0 : 1;
  return known;
}

export function hostileSourceStalls(): Array<{ input: string; bytes: number; worstMs: number; sites: number }> {
  const nested = `${'fn a() {"Requires `autodiff` feature"'.repeat(2_000)}${'{"Requires `autodiff` feature"'.repeat(20_000)}`;
  const literal = `${'const BAD: &str = "\\u{110000}\\u{d800}";\n'.repeat(2_000)}fn backward() { unimplemented!("Requires \`autodiff\` feature") }\n`;
  const lib = (text: string) => (p: string) => (p === "crates/burn/src/lib.rs" ? text : null);
  const cap = MAX_RUST_FILE - 16;
  return [
    { input: "nested blocks, each with the message", text: nested, run: (t: string) => scanSource(t, STUB).length },
    {
      input: "`\\u{110000}` literals before a real site",
      text: literal,
      run: (t: string) => scanSource(t, STUB).length,
    },
    ...[
      { input: "lib.rs: unbalanced braces", text: "{".repeat(cap) },
      { input: "lib.rs: one name defined 9,000 times", text: "pub struct A;\n".repeat(Math.floor(cap / 14)) },
      { input: "lib.rs: 9,000 globs of another crate", text: "pub use a::*;\n".repeat(Math.floor(cap / 14)) },
    ].map((c) => ({ ...c, run: (t: string) => (sourceGate("burn::A::B", lib(t)).kind === "unknown" ? 0 : 1) })),
    {
      input: "two lib.rs of 2,000 globs each way, 64 paths of one event",
      text: `pub use burn_core::*;\n${globsInto("burn_core")}`,
      run: (t: string) =>
        eventPaths({
          "crates/burn/src/lib.rs": t,
          "crates/burn-core/src/lib.rs": `pub use burn::*;\n${globsInto("crate")}`,
        }),
    },
    {
      input: "lib.rs: 1,000 globs of a module that lacks each of 64 paths of one event",
      text: `pub mod empty;\n${"pub use crate::empty::*;\n".repeat(1000)}`,
      run: (t: string) => eventPaths({ "crates/burn/src/lib.rs": t, "crates/burn/src/empty.rs": "pub struct X;\n" }),
    },
  ].map(({ input, text, run }) => {
    let worst = 0;
    let sites = 0;
    for (let i = 0; i < 3; i++) {
      const fresh = `${text.slice(0, text.length - 2)}${" ".repeat(i)}`;
      const t0 = performance.now();
      sites = run(fresh);
      worst = Math.max(worst, performance.now() - t0);
    }
    return { input, bytes: Buffer.byteLength(text), worstMs: Number(worst.toFixed(1)), sites };
  });
}

/**
 * A Redis that accepts the connection and then never answers (frozen, as under SIGSTOP), stood in
 * by a loopback socket: how long a delivery claim waits, and whether the event loop turns meanwhile.
 */
export async function frozenRedisStall(): Promise<{
  claimMs: number;
  worstMs: number;
  fellBack: boolean;
  deadlineMs: number;
}> {
  const sockets: Socket[] = [];
  // Answers the connection's ready check (INFO), then nothing: frozen after the connection is up.
  const info = "loading:0\r\n";
  const server = createServer((s) => {
    sockets.push(s);
    s.on("data", (d) => {
      if (/info/i.test(d.toString("latin1"))) s.write(`$${info.length}\r\n${info}\r\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const redis = connect(`redis://127.0.0.1:${port}`);
  redis.on("error", () => undefined);
  await redis.connect();
  const quiet = {
    warn: () => undefined,
    info: () => undefined,
    debug: () => undefined,
    error: () => undefined,
  } as never;
  const meter = stallMeter();
  const t0 = performance.now();
  try {
    const fellBack = await redisCoordination(redis, quiet, "bench").claimDelivery("bench-frozen");
    return {
      claimMs: Number((performance.now() - t0).toFixed(0)),
      worstMs: meter.stop(),
      fellBack,
      deadlineMs: COMMAND_TIMEOUT_MS,
    };
  } finally {
    meter.stop();
    redis.disconnect();
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
}
