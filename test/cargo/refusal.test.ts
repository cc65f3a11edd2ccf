import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { planFix } from "../../src/cargo/fix/fix.js";
import { refusalEdit } from "../../src/cargo/fix/refusal-fix.js";
import { allFeatures, MapRegistry, snapshot } from "../../src/cargo/index/registry.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { featureNames } from "../../src/cargo/judge/refusal.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { historyText, why } from "../../src/render/why.js";
import { requireOrSkip, which } from "../helpers/services.js";

// cargo refuses a manifest that names a feature its burn release does not have; the bot must
// say so, and never call such a manifest "on" or an edit of it "verified".
const tags = snapshot("tags");
const RELEASES = ["0.16.0", "0.17.1", "0.19.1", "0.20.1", "0.21.0", "0.22.0-pre.2"];
const lineOf = (v: string) => tags.versions("burn").find((l) => l.vers === v)!;
/** Names that are features of some releases and not of others (burn-data's feature history), and typos. */
const ELSEWHERE = ["server", "dispatch", "cuda-jit", "wgpu-spirv", "compilation-cache", "metrics", "wgpuu", "autodif"];

const diagnosis = (text: string) => diagnose(parseManifest(text));

describe("a feature the release does not have", () => {
  it("is cargo's refusal, with the release that removed it and what replaces it", () => {
    const text =
      '[package]\nname = "myapp"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "server"] }\n';
    const d = diagnosis(text);
    expect(d.verdict).toBe("refused");
    expect(d.state.on).toBe(false);
    expect(d.refused).toMatchObject([
      { crate: "burn", version: "0.22.0-pre.2", feature: "server", history: { kind: "removed", at: "0.22.0-pre.1" } },
    ]);
    expect(why(d)).toContain("release `0.22.0-pre.1` removed it; `remote-websocket` or `remote-server` replace it");
    // An edit that added autodiff and kept `server` would be refused too: the fix renames it first.
    const plan = planFix({ path: "Cargo.toml", text });
    expect(plan.kind === "fixed" && plan.change.after).not.toContain('"server"');
  });

  it("forwarded through [features], inherited from the workspace root, or a typo", () => {
    const fwd = diagnosis('[features]\ngpu = ["burn/cuda-jit"]\n\n[dependencies]\nburn = "0.17.0"\n');
    expect(fwd.refused).toMatchObject([
      { feature: "cuda-jit", where: { kind: "features", entry: "gpu" }, history: { replacement: ["cuda"] } },
    ]);
    const root = parseManifest(
      '[workspace]\nmembers = ["app"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", features = ["dispatch"] }\n',
    );
    const member = diagnose(parseManifest('[package]\nname = "app"\n\n[dependencies]\nburn = { workspace = true }\n'), {
      root,
    });
    expect(member.refused).toMatchObject([{ feature: "dispatch", where: { kind: "dependency", inRoot: true } }]);
    const typo = diagnosis('[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["wgpuu"] }\n');
    expect(typo.refused).toMatchObject([{ feature: "wgpuu", history: { kind: "never", closest: ["wgpu"] } }]);
    expect(why(typo)).toContain("no release of `burn` has it; did you mean `wgpu`?");
  });

  it("every feature cargo would name, not only the first", () => {
    const d = diagnosis(
      '[features]\ncache = ["burn/compilation-cache"]\n\n[dependencies]\nburn = { version = "0.19.1", features = ["cuda-jit", "wgpu"] }\n',
    );
    expect(d.refused!.map((r) => r.feature)).toEqual(["cuda-jit", "compilation-cache"]);
  });

  it("generated manifests over every bundled release: none naming a missing feature is on or verified", () => {
    const arb = fc.constantFrom(...RELEASES).chain((v) =>
      fc.record({
        v: fc.constant(v),
        listed: fc.subarray([...featureNames(lineOf(v))].slice(0, 12).concat(ELSEWHERE), { maxLength: 4 }),
        forwarded: fc.subarray(ELSEWHERE.concat(["std", "train"]), { maxLength: 2 }),
        defaults: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(arb, ({ v, listed, forwarded, defaults }) => {
        const names = featureNames(lineOf(v));
        const text = `[features]\n${forwarded.map((f, i) => `f${i} = ["burn/${f}"]`).join("\n")}\n\n[dependencies]\nburn = { version = "=${v}"${defaults ? "" : ", default-features = false"}, features = ${JSON.stringify(listed)} }\n`;
        const missing = [...listed, ...forwarded].filter((f) => !names.has(f));
        const plan = planFix({ path: "Cargo.toml", text });
        if (plan.kind === "invalid-toml") throw new Error(text);
        if (missing.length > 0) {
          expect(plan.diagnosis.verdict).toBe("refused");
          expect(plan.diagnosis.state.on).toBe(false);
          expect(new Set(plan.diagnosis.refused!.map((r) => r.feature))).toEqual(new Set(missing));
          // Never "on"; "fixed" only by an edit past the refusal that cargo accepts and that turns the
          // target on, or, at a release without the target, that says so.
          expect(plan.kind).not.toBe("already-on");
          if (plan.kind === "fixed") {
            expect(plan.change.resolves).toBeDefined();
            const after = diagnosis(plan.change.after);
            const reached = plan.change.targetUnmet ? "pre-dispatch" : "on";
            expect([after.verdict, after.refused]).toEqual([reached, undefined]);
          }
        } else expect(plan.diagnosis.verdict).not.toBe("refused");
      }),
      { numRuns: 300 },
    );
  });
});

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "burn-triage-cargo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stub `burn` with the release's own feature names (bodies empty), and the user's crate. */
async function cargoRefuses(version: string, features: string[], forwarded: string[]): Promise<boolean> {
  const root = mkdtempSync(join(dir, "case-"));
  mkdirSync(join(root, "burn/src"), { recursive: true });
  mkdirSync(join(root, "app/src"), { recursive: true });
  const own = Object.keys(allFeatures(lineOf(version))).filter((f) => f !== "default");
  writeFileSync(
    join(root, "burn/Cargo.toml"),
    `[package]\nname = "burn"\nversion = "${version}"\nedition = "2021"\n\n[features]\n${own.map((f) => `${JSON.stringify(f)} = []`).join("\n")}\n`,
  );
  writeFileSync(join(root, "burn/src/lib.rs"), "");
  writeFileSync(
    join(root, "app/Cargo.toml"),
    `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\n${forwarded.map((f, i) => `f${i} = ["burn/${f}"]`).join("\n")}\n\n[dependencies]\nburn = { path = "../burn", features = ${JSON.stringify(features)} }\n`,
  );
  writeFileSync(join(root, "app/src/main.rs"), "fn main() {}\n");
  try {
    await run("cargo", ["metadata", "--offline", "--format-version", "1"], { cwd: join(root, "app") });
    return false;
  } catch (e) {
    const stderr = String((e as { stderr?: string }).stderr ?? "");
    if (!/does not have (?:that|these) features?/.test(stderr)) throw e;
    return true;
  }
}

/** cargo's judgement of a whole manifest the bot wrote: its burn line's features and its `[features]` forwards. */
function cargoRefusesManifest(version: string, text: string): Promise<boolean> {
  const after = parseManifest(text);
  const burn = after.dependencies.find((d) => d.key === "burn")!;
  const forwarded = Object.values(after.features)
    .flat()
    .map((v) => /^burn\??\/(.+)$/.exec(v)?.[1])
    .filter((f): f is string => f !== undefined);
  return cargoRefuses(version, burn.features, forwarded);
}

requireOrSkip(which("cargo"), "cargo")("cargo is the judge", () => {
  it("real cargo refuses exactly the manifests the bot calls refused (stub crates with each release's features)", async () => {
    const cases: Array<{ v: string; features: string[]; forwarded: string[] }> = [];
    for (const v of RELEASES) {
      const own = Object.keys(allFeatures(lineOf(v))).filter((f) => f !== "default");
      cases.push({ v, features: own.slice(0, 2), forwarded: [] });
      for (const name of ELSEWHERE) cases.push({ v, features: [own[0]!, name], forwarded: [] });
      cases.push({ v, features: [], forwarded: ["cuda-jit"] });
    }
    let edits = 0;
    for (const c of cases) {
      const text = `[features]\n${c.forwarded.map((f, i) => `f${i} = ["burn/${f}"]`).join("\n")}\n\n[dependencies]\nburn = { version = "=${c.v}", features = ${JSON.stringify(c.features)} }\n`;
      const ours = diagnosis(text).verdict === "refused";
      expect([c, await cargoRefuses(c.v, c.features, c.forwarded)]).toEqual([c, ours]);
      // Every edit past a refusal the bot offers is one cargo accepts.
      const plan = planFix({ path: "Cargo.toml", text });
      if (!ours || plan.kind !== "fixed") continue;
      expect([plan.change.after, await cargoRefusesManifest(c.v, plan.change.after)]).toEqual([
        plan.change.after,
        false,
      ]);
      edits++;
    }
    // Most refusals here have a way out in burn's history (typos and old releases' features do not).
    expect(edits).toBeGreaterThanOrEqual(20);
  }, 120_000);
});

describe("the edit past cargo's refusal", () => {
  const fix = (text: string) => planFix({ path: "Cargo.toml", text });

  it("renames a removed feature to its replacement and adds the target's feature, verified as one change", () => {
    const plan = fix(
      '[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "server"] }\n',
    );
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(plan.change.after).toContain('features = ["std", "wgpu", "remote-websocket", "autodiff"]');
    expect(plan.change.resolves).toEqual({
      renamed: [
        {
          feature: "server",
          to: "remote-websocket",
          others: ["remote-server"],
          likeForLike: {
            from: expect.stringMatching(/^0\.21\./),
            kept: expect.arrayContaining(["axum", "tokio-tungstenite"]),
          },
        },
      ],
      dropped: [],
    });
    expect(diagnosis(plan.change.after).verdict).toBe("on");
  });

  it("drops what nothing replaces, in the dependency's list and in [features], keeping the layout", () => {
    const text =
      '[features]\ncache = ["burn/compilation-cache", "burn/std"]\n\n[dependencies.burn]\nversion = "0.22.0-pre.2"\nfeatures = [\n    "dispatch",\n    "autodiff",\n]\n';
    const plan = fix(text);
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(plan.change.after).toBe(
      '[features]\ncache = ["burn/std"]\n\n[dependencies.burn]\nversion = "0.22.0-pre.2"\nfeatures = [\n    "autodiff",\n]\n',
    );
    expect(plan.change.resolves!.dropped.sort()).toEqual(["compilation-cache", "dispatch"]);
  });

  const WS = (features: string, extra = "") =>
    `[workspace]\nmembers = ["app"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = [${features}] }\n${extra}`;
  const member = (features: string, table = "") =>
    `[package]\nname = "app"\nversion = "0.1.0"\n${table}\n[dependencies]\nburn = { workspace = true${features} }\n`;
  const inRoot = (root: string, text: string) =>
    planFix({ path: "app/Cargo.toml", text }, { root: { path: "Cargo.toml", text: root } });

  it("a feature inherited from [workspace.dependencies] is fixed in the root, with the target's edit there too", () => {
    const plan = inRoot(WS('"std", "wgpu", "server"'), member(""));
    if (plan.kind !== "fixed") throw new Error(`${plan.kind}: ${plan.kind === "no-fix" ? plan.reason : ""}`);
    expect(plan.change.path).toBe("Cargo.toml");
    expect(plan.change.after).toBe(WS('"std", "wgpu", "remote-websocket", "autodiff"'));
    const d = diagnose(parseManifest(member("")), { root: parseManifest(plan.change.after) });
    expect([d.verdict, d.refused]).toEqual(["on", undefined]);
  });

  it("refused features in the root and in the member: one edit over both files, verified together, either half alone refused", () => {
    const root = WS('"std", "server"');
    const own = member("", '\n[features]\nx = ["burn/dispatch"]\n');
    const plan = inRoot(root, own);
    if (plan.kind !== "fixed") throw new Error(`${plan.kind}: ${plan.kind === "no-fix" ? plan.reason : ""}`);
    const c = plan.change;
    expect([c.path, c.others?.map((o) => o.path)]).toEqual(["app/Cargo.toml", ["Cargo.toml"]]);
    const rootAfter = c.others![0]!.after;
    expect(rootAfter).toContain('"remote-websocket"');
    expect(c.after).not.toContain("dispatch");
    // One diff, one patch per file, each with its own header, in path order.
    expect([...c.diff.matchAll(/^\+\+\+ (\S+)/gm)].map((m) => m[1])).toEqual(["Cargo.toml", "app/Cargo.toml"]);
    const verdict = (m: string, r: string) => diagnose(parseManifest(m), { root: parseManifest(r) }).verdict;
    expect(verdict(c.after, rootAfter)).not.toBe("refused");
    expect([verdict(c.after, root), verdict(own, rootAfter)]).toEqual(["refused", "refused"]);
  });

  it("a release before burn-dispatch: the edit past the refusal stands alone, and says the target stays off", () => {
    const plan = fix('[dependencies]\nburn = { version = "=0.19.1", features = ["compilation-cache", "wgpu"] }\n');
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(plan.change.after).toContain('features = ["wgpu"]');
    expect(plan.change.targetUnmet).toMatch(/has no `burn-dispatch`/);
    expect(diagnosis(plan.change.after).verdict).toBe("pre-dispatch");
  });

  it("a typo near two names, or a feature nothing is known to replace: no edit, said why", () => {
    // Near one name (`wgpuu`), the typo is renamed (test/cargo/refusal-edits.test.ts); near two, none is guessed.
    const typo = fix('[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["rocn"] }\n');
    expect(typo.kind === "no-fix" && typo.reason).toMatch(/no replacement to edit in for `rocn`/);
  });
});

requireOrSkip(which("cargo"), "cargo")("cargo accepts the edit", () => {
  it("every edit past a refusal at the bundled releases is accepted by real cargo", async () => {
    const cases = [
      {
        v: "0.22.0-pre.2",
        text: '[dependencies]\nburn = { version = "=0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "server"] }\n',
      },
      {
        v: "0.22.0-pre.2",
        text: '[features]\ncache = ["burn/compilation-cache"]\n\n[dependencies]\nburn = { version = "=0.22.0-pre.2", features = ["dispatch", "collective", "wgpu"] }\n',
      },
      {
        v: "0.21.0",
        text: '[dependencies]\nburn = { version = "=0.21.0", features = ["experimental-named-tensor", "cuda-jit"] }\n',
      },
      {
        v: "0.19.1",
        text: '[features]\ngpu = ["burn/cuda-jit", "burn/wgpu-spirv"]\n\n[dependencies]\nburn = { version = "=0.19.1", features = ["compilation-cache"] }\n',
      },
    ];
    let checked = 0;
    for (const c of cases) {
      const plan = planFix({ path: "Cargo.toml", text: c.text });
      if (plan.kind !== "fixed") continue;
      expect([c.text, await cargoRefusesManifest(c.v, plan.change.after)]).toEqual([c.text, false]);
      checked++;
    }
    expect(checked).toBe(cases.length);
  }, 60_000);

  it("agrees with the edit made in the workspace root for a feature every member inherits", async () => {
    const root =
      '[workspace]\nmembers = ["app"]\n\n[workspace.dependencies]\nburn = { version = "=0.22.0-pre.2", features = ["wgpu", "server", "dispatch"] }\n';
    const member =
      '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nburn = { workspace = true, features = ["train"] }\n';
    const plan = planFix({ path: "app/Cargo.toml", text: member }, { root: { path: "Cargo.toml", text: root } });
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(plan.change.path).toBe("Cargo.toml");
    const d = diagnose(parseManifest(member), { root: parseManifest(plan.change.after) });
    const effective = d.primary!.effective.features;
    expect([effective, await cargoRefuses("0.22.0-pre.2", effective, [])]).toEqual([effective, false]);
    expect(await cargoRefuses("0.22.0-pre.2", ["wgpu", "server", "dispatch", "train"], [])).toBe(true);
  }, 60_000);
});

describe("a removal data:refresh inferred from the index", () => {
  it("is said as inferred (or as no replacement known), and never edited in", () => {
    expect(historyText({ kind: "removed", at: "0.23.0", replacement: null, inferred: true }, "burn")).toBe(
      "release `0.23.0` removed it; I know no replacement.",
    );
    expect(historyText({ kind: "removed", at: "0.23.0", replacement: ["cuda"], inferred: true }, "burn")).toContain(
      "read from the index, not from burn's history",
    );
    const text = '[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["server"] }\n';
    const m = parseManifest(text);
    const [r] = diagnosis(text).refused!;
    const inferred = {
      ...r!,
      history: { kind: "removed" as const, at: "0.22.0-pre.1", replacement: ["remote-server"], inferred: true },
    };
    expect(refusalEdit(text, m, [inferred]).kind).toBe("blocked");
    expect(refusalEdit(text, m, [r!]).kind).toBe("edit");
  });
});

describe("a gate said in the release's own features, over an index that is outside input", () => {
  it("a feature table that refers to itself in a ring of 20,000 features is walked once, not forever", () => {
    const n = 20_000;
    const features: Record<string, string[]> = {};
    for (let i = 0; i < n; i++) features[`f${i}`] = [`f${(i + 1) % n}`, `f${(i + 7) % n}`];
    features.std = ["burn-core/std"];
    const burn = {
      name: "burn",
      vers: "9.0.0",
      deps: [
        {
          name: "burn-core",
          req: "=9.0.0",
          features: [],
          optional: false,
          default_features: true,
          target: null,
          kind: "normal" as const,
        },
      ],
      features,
    };
    const core = { name: "burn-core", vers: "9.0.0", deps: [], features: { std: [], dataset: [] } };
    const registries = {
      tags: new MapRegistry(
        "test",
        new Map([
          ["burn", [burn]],
          ["burn-core", [core]],
        ]),
      ),
      main: new MapRegistry("main", new Map()),
    };
    const target = {
      crate: "burn-core",
      feature: "dataset",
      gate: 'all(feature = "burn-core/std", feature = "burn-core/dataset")',
      label: "burn::data",
    };
    const d = diagnose(parseManifest('[dependencies]\nburn = { version = "9.0.0", default-features = false }\n'), {
      registries,
      target,
    });
    // burn-core/dataset has no forwarder: the gate is not said in burn's features, and the walk ended.
    expect(d.gateFeatures ?? null).toBeNull();
  });
});

describe("the refusal pass over an index that is outside input", () => {
  it("50,000 features on burn and 100 missing ones named: the first 32 are said, each checked against one table", () => {
    const features: Record<string, string[]> = {};
    for (let i = 0; i < 50_000; i++) features[`feat${i}`] = [];
    const burn = { name: "burn", vers: "9.0.0", deps: [], features };
    const registries = {
      tags: new MapRegistry("test", new Map([["burn", [burn]]])),
      main: new MapRegistry("main", new Map()),
    };
    const named = Array.from({ length: 100 }, (_, i) => `missing${i}`);
    const d = diagnose(
      parseManifest(`[dependencies]\nburn = { version = "9.0.0", features = ${JSON.stringify(named)} }\n`),
      { registries },
    );
    expect(d.verdict).toBe("refused");
    expect(d.refused!.map((r) => r.feature)).toEqual(named.slice(0, 32));
    expect(d.refused![0]!.history).toMatchObject({ kind: "never" });
  });
});
