// The worst event-loop stall while the bot reads and resolves hostile index data (the inputs of
// test/hostile/index.test.ts), and the per-event caps that bound it.
import { planFix } from "../cargo/fix.js";
import { LiveIndex } from "../cargo/live-index.js";
import { INDEX_LIMITS, indexPath, snapshot } from "../cargo/registry.js";
import { DIAGNOSIS_STEPS } from "../cargo/diagnose.js";
import { fakeIndexFiles } from "../dev/fake-index.js";
import { type Answer, dep, line, startHostileIndex } from "../dev/hostile-index.js";
import { stallMeter } from "./stall.js";

function cases(): Array<{ name: string; answers: Record<string, Answer>; roots: string[] }> {
  const evil = `/${indexPath("burn-evil")}`;
  const burn: Record<string, Answer> = {};
  for (const [name, text] of fakeIndexFiles()) burn[`/${indexPath(name)}`] = { body: text };
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, [] as string[]]));
  return [
    { name: "300 features beside burn-dispatch (3 KiB)", answers: { ...burn, [evil]: { body: line("burn-evil", "1.0.0", many(300), [dep("burn-dispatch", "=0.21.0", { default_features: false })]) } }, roots: ["burn-evil"] },
    { name: "50,000 features on one version", answers: { ...burn, [evil]: { body: line("burn-evil", "1.0.0", many(50_000)) } }, roots: ["burn-evil"] },
    { name: "a line naming 50,000 crates", answers: { ...burn, [evil]: { body: line("burn-evil", "1.0.0", {}, Array.from({ length: 50_000 }, (_, i) => dep(`burn-x${i}`, "1"))) } }, roots: ["burn-evil"] },
    { name: "32 MiB index file", answers: { ...burn, [evil]: { bytes: 32 * 1024 * 1024 } }, roots: ["burn-evil"] },
    { name: "deps: null", answers: { ...burn, [evil]: { body: JSON.stringify({ name: "burn-evil", vers: "1.0.0", deps: null, features: {} }) } }, roots: ["burn-evil"] },
  ];
}

export async function hostileIndexStalls(): Promise<{ caps: object; cases: Array<{ input: string; worstMs: number; totalMs: number; answer: string }> }> {
  const out = [];
  for (const c of cases()) {
    const index = await startHostileIndex(c.answers);
    const meter = stallMeter();
    const t0 = performance.now();
    try {
      const r = await new LiveIndex({ baseUrl: index.url }).registryFor(c.roots);
      await new Promise((res) => setTimeout(res, 0));
      const plan = planFix({ path: "Cargo.toml", text: '[dependencies]\nburn-evil = "1"\n' }, { registries: { tags: r.registry, main: snapshot("main") } });
      await new Promise((res) => setTimeout(res, 10));
      out.push({ input: c.name, worstMs: meter.stop(), totalMs: Number((performance.now() - t0).toFixed(0)), answer: plan.kind === "no-fix" ? plan.reason : plan.kind });
    } finally {
      meter.stop();
      await index.close();
    }
  }
  return { caps: { ...INDEX_LIMITS, maxBytes: 4 * 1024 * 1024, maxCrates: 60, eventBudgetMs: 5000, resolverStepsPerDiagnosis: DIAGNOSIS_STEPS }, cases: out };
}
