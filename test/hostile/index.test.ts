// crates.io's index is untrusted: anyone can publish a `burn-…` crate and name it in an issue, and
// a mirror can be broken. Each case here is a probe that once stalled, crashed or misled the bot.
import { afterEach, describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { INDEX_LIMITS, IndexShapeError, indexPath, parseIndexFile } from "../../src/cargo/index/index-file.js";
import { LiveIndex } from "../../src/cargo/index/live-index.js";
import { MapRegistry, type Registry, snapshot } from "../../src/cargo/index/registry.js";
import { BudgetExceeded, featureState, resolve, WorkBudget } from "../../src/cargo/resolve/resolve.js";
import { redactUrl } from "../../src/util/redact.js";
import { fakeIndexFiles } from "../support/fake-index.js";
import { type Answer, dep, type HostileIndex, line, startHostileIndex } from "../support/hostile-index.js";

let index: HostileIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

/** The fake crates.io (the snapshot's burn crates) plus hostile answers. */
function withBurn(extra: Record<string, Answer>): Record<string, Answer> {
  const answers: Record<string, Answer> = {};
  for (const [name, text] of fakeIndexFiles()) answers[`/${indexPath(name)}`] = { body: text };
  return { ...answers, ...extra };
}

const evilPath = `/${indexPath("burn-evil")}`;
const evilManifest = { path: "Cargo.toml", text: '[package]\nname = "victim"\n[dependencies]\nburn-evil = "1"\n' };

async function planWith(idx: LiveIndex, roots = ["burn-evil"]) {
  const r = await idx.registryFor(roots);
  return { r, plan: planFix(evilManifest, { registries: { tags: r.registry, main: snapshot("main") } }) };
}

describe("index data is bounded before the resolver walks it", () => {
  it("300 features that cannot reach burn-dispatch/autodiff are not tried one by one or in pairs", async () => {
    const features = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, []]));
    const evil = line("burn-evil", "1.0.0", features, [dep("burn-dispatch", "=0.21.0", { default_features: false })]);
    expect(Buffer.byteLength(evil)).toBeLessThan(4096);
    index = await startHostileIndex(withBurn({ [evilPath]: { body: `${evil}\n` } }));
    const { plan } = await planWith(new LiveIndex({ baseUrl: index.url }));
    // None of burn-evil's features is the answer; declaring the burn-dispatch it pulls in is.
    expect(plan.kind !== "invalid-toml" && plan.diagnosis.enablers).toEqual([]);
    expect(plan).toMatchObject({ kind: "fixed", change: { declares: true, dependency: "burn-dispatch" } });
  });

  it("a graph that needs more work than the budget is said to be too large, never answered", () => {
    const text = '[dependencies]\nburn = { version = "0.21.0", default-features = false }\n';
    // The same data, but not the bundled registry itself: the build's table of enablers does not
    // answer for it, so the search for them spends the budget too.
    const copy = (r: Registry): Registry => ({ label: r.label, versions: (n) => r.versions(n) });
    const registries = { tags: copy(snapshot("tags")), main: copy(snapshot("main")) };
    const cut = planFix({ path: "Cargo.toml", text }, { budget: new WorkBudget(500), registries });
    expect(cut).toMatchObject({ kind: "no-fix", reason: new BudgetExceeded().message });
    expect(cut.kind === "no-fix" && cut.diagnosis.verdict).toBe("too-large");
    // On the bundled registry the table answers, and the user's build alone must fit the budget.
    const small = planFix({ path: "Cargo.toml", text }, { budget: new WorkBudget(20) });
    expect(small.kind === "no-fix" && small.diagnosis.verdict).toBe("too-large");
    // With the default budget the same manifest gets its verified edit.
    expect(planFix({ path: "Cargo.toml", text }).kind).toBe("fixed");
  });

  it("a version with more features than cargo's shape allows is refused, and the crate falls back", async () => {
    const features = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`f${i}`, []]));
    index = await startHostileIndex(withBurn({ [evilPath]: { body: line("burn-evil", "1.0.0", features) } }));
    const r = await new LiveIndex({ baseUrl: index.url }).registryFor(["burn-evil"]);
    expect(r.fellBack).toEqual(["burn-evil"]);
    // Refused by its length before JSON.parse reads 600 KB (35 ms of event loop idle, 236 loaded).
    expect(r.reasons["burn-evil"]).toMatch(/a line longer than 65536 characters/);
    expect(r.registry.label).toMatch(/bundled data/);
    // A line under the length cap is still held to the features cap.
    const more = Object.fromEntries(Array.from({ length: INDEX_LIMITS.features + 1 }, (_, i) => [`f${i}`, []]));
    expect(() => parseIndexFile(line("burn-evil", "1.0.0", more), "burn-evil")).toThrow(/features/);
  });

  it("lines without cargo's fields (deps: null, a dependency without a name) fall back instead of crashing", async () => {
    for (const bad of [
      JSON.stringify({ name: "burn-evil", vers: "1.0.0", deps: null, features: {} }),
      JSON.stringify({ name: "burn-evil", vers: "1.0.0", deps: [{ req: "1" }], features: {} }),
      JSON.stringify({ name: "burn-evil", vers: "not-a-version", deps: [], features: {} }),
      JSON.stringify({ name: "other-crate", vers: "1.0.0", deps: [], features: {} }),
      "{not json",
    ]) {
      expect(() => parseIndexFile(bad, "burn-evil")).toThrow(IndexShapeError);
    }
    // A dependency without `features` is read as cargo reads it: no features.
    const lenient = parseIndexFile(
      JSON.stringify({ name: "burn-evil", vers: "1.0.0", deps: [{ name: "serde", req: "1" }], features: {} }),
      "burn-evil",
    );
    expect(lenient[0]!.deps[0]).toMatchObject({ name: "serde", features: [], kind: null });
  });

  it("a line naming 50,000 crates is refused", () => {
    const deps = Array.from({ length: 50_000 }, (_, i) => dep(`burn-x${i}`, "1"));
    expect(() => parseIndexFile(line("burn-evil", "1.0.0", {}, deps), "burn-evil")).toThrow(/a line longer than/);
    // Under the length cap, the deps cap.
    const few = Array.from({ length: INDEX_LIMITS.deps + 1 }, (_, i) => ({ name: `x${i}`, req: "1" }));
    expect(() => parseIndexFile(line("burn-evil", "1.0.0", {}, few as never), "burn-evil")).toThrow(/deps/);
    expect(INDEX_LIMITS.deps).toBeLessThan(50_000);
  });

  it("a 20,000-deep feature chain resolves without overflowing the stack (the walk is iterative)", () => {
    const n = 20_000;
    const features = Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i + 1 < n ? [`f${i + 1}`] : []]));
    const deep = { name: "burn-deep", vers: "1.0.0", deps: [], features };
    const registry = new MapRegistry("test", new Map([["burn-deep", [deep]]]));
    const root = {
      name: "(root)",
      vers: "0.0.0",
      deps: [{ ...(dep("burn-deep", "1") as Record<string, unknown>), features: ["f0"] } as never],
      features: {},
    };
    const res = resolve(root, [], { registry });
    expect(featureState(res, { crate: "burn-deep", feature: `f${n - 1}` }).on).toBe(true);
    // The same walk on a budget smaller than the chain stops with BudgetExceeded, not a stack error.
    expect(() => resolve(root, [], { registry, budget: new WorkBudget(1000) })).toThrow(BudgetExceeded);
  });
});

describe("names and answers never steer the index reads", () => {
  it("names outside cargo's rules build no URL", async () => {
    index = await startHostileIndex({});
    for (const name of ["..", "burn-../../x", "burn?x=1", "burn%2e%2e", "burn/evil", "a".repeat(65)])
      expect(() => indexPath(name)).toThrow(IndexShapeError);
    const r = await new LiveIndex({ baseUrl: index.url }).registryFor(["../../etc", "burn?x", "%2e%2e"]);
    expect(index.paths).toEqual([]);
    expect(r.fetched).toBe(0);
  });

  it("a dependency name with `..` inside a served line is refused with its line", () => {
    const bad = line("burn-evil", "1.0.0", {}, [dep("burn-x", "1", { package: "../../secrets" })]);
    expect(() => parseIndexFile(bad, "burn-evil")).toThrow(IndexShapeError);
  });

  it("a redirect to another host is not followed", async () => {
    const elsewhere = await startHostileIndex({ "/bu/rn/burn": { body: line("burn", "9.9.9", {}) } });
    try {
      index = await startHostileIndex({ "/bu/rn/burn": { redirect: `${elsewhere.url}/bu/rn/burn` } });
      const r = await new LiveIndex({ baseUrl: index.url }).registryFor(["burn"]);
      expect(elsewhere.paths).toEqual([]);
      expect(r.fellBack).toEqual(["burn"]);
      expect(r.registry.versions("burn").map((l) => l.vers)).not.toContain("9.9.9");
    } finally {
      await elsewhere.close();
    }
  });

  it("a 32 MiB body is cut at the cap, not buffered", async () => {
    index = await startHostileIndex({ "/bu/rn/burn": { bytes: 32 * 1024 * 1024 } });
    const r = await new LiveIndex({ baseUrl: index.url, maxBytes: 1024 * 1024 }).registryFor(["burn"]);
    expect(r.fellBack).toEqual(["burn"]);
    expect(r.reasons.burn).toMatch(/larger than/);
    expect(r.bytes).toBe(0);
  });

  it("a dripping index is given up within the timeout, and the next event does not ask it again", async () => {
    index = await startHostileIndex({ "/bu/rn/burn": { dripMs: 50, body: line("burn", "0.30.0", {}) } });
    const live = new LiveIndex({ baseUrl: index.url, timeoutMs: 300, slowMs: 200 });
    const first = await live.registryFor(["burn"]);
    // burn falls back to the bundled lines, whose burn crates are then not asked either.
    expect(first.fellBack).toContain("burn");
    const asked = index.paths.length;
    expect(asked).toBe(1);
    const second = await live.registryFor(["burn"]);
    expect(second.fellBack).toContain("burn");
    expect(index.paths.length).toBe(asked);
  });

  it("a slow but complete answer also starts the back-off", async () => {
    index = await startHostileIndex({ "/bu/rn/burn": { dripMs: 5, body: line("burn", "0.30.0", {}) } });
    const live = new LiveIndex({ baseUrl: index.url, timeoutMs: 5000, slowMs: 50, freshMs: 0 });
    const first = await live.registryFor(["burn"]);
    expect(first.fellBack).toEqual([]);
    const asked = index.paths.length;
    await live.registryFor(["burn"]);
    expect(index.paths.length).toBe(asked);
  });

  it("all reads of one event share one time budget", async () => {
    const answers: Record<string, Answer> = {};
    const roots = Array.from({ length: 20 }, (_, i) => `burn-slow${i}`);
    for (const r of roots) answers[`/${indexPath(r)}`] = { dripMs: 100, body: line(r, "1.0.0", {}) };
    index = await startHostileIndex(answers);
    const t0 = Date.now();
    const r = await new LiveIndex({ baseUrl: index.url, timeoutMs: 10_000, eventBudgetMs: 400 }).registryFor(roots);
    expect(r.fellBack.sort()).toEqual([...roots].sort());
    expect(Object.values(r.reasons)).toContain("the event's time for index reads ran out");
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});

describe("credentials in URLs", () => {
  it("are redacted before they reach a log", () => {
    expect(redactUrl("https://user:s3cret@mirror.example/index/")).toBe("https://***:***@mirror.example/index/");
    expect(redactUrl("redis://:pw@10.0.0.1:6379/0")).not.toContain("pw");
    expect(redactUrl("https://index.crates.io")).toBe("https://index.crates.io/");
  });
});
