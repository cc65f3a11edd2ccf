// Every sentence proven, checked over generated reports: each `#[cfg]` a comment quotes is the one
// the data (or burn's source read at the tag) has at the line it links; each method said to have
// reached a stub is the one at the printed line of the release judged; each release said to lack
// a feature lacks it in the index, and the release said to remove it is the first without it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { type AnalyzeInput, analyze, analyzeWithSources } from "../../src/answer/analyze.js";
import { type BurnSources, type SourceRead, sourceKey } from "../../src/answer/burn-files.js";
import { LiveIndex } from "../../src/cargo/index/live-index.js";
import { allFeatures, snapshot } from "../../src/cargo/index/registry.js";
import type { GatedData } from "../../src/compile/gated.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { loadCatalog } from "../../src/panics/catalog.js";
import * as semver from "../../src/util/semver.js";
import { fixture, root } from "../helpers/fixtures.js";
import { type FakeIndex, startFakeIndex } from "../support/fake-index.js";

const RUNS = { numRuns: 60, seed: 53 };
/** Claims checked per property: a property whose reports never make the claim proves nothing. */
const checked: Record<string, number> = {};
const count = (k: string) => {
  checked[k] = (checked[k] ?? 0) + 1;
};
const gated = JSON.parse(readFileSync(join(root, "data/gated.json"), "utf8")) as GatedData;
const tags = snapshot("tags");

function comment(text: string): string {
  return renderIssueComment(analyze({ text })) ?? "";
}

/** `- \`path\` sits under \`#[cfg(P)]\` in \`crate\` ([…](…/blob/REF/FILE#LN))`: every quoted gate with its link. */
const QUOTED_GATE =
  /`(burn::[^`]+)` sits under `#\[cfg\((.+?)\)\]` in `([\w-]+)` \(\[`[^`]+`\]\(https:\/\/github\.com\/tracel-ai\/burn\/blob\/([^/]+)\/([^#)]+)#L(\d+)\)\)/g;

/** The data's record at a ref: the cfg written at each file:line. */
function cfgsAt(ref: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const r = gated.refs[ref]!;
  for (const [, g] of [...r.entries, ...(r.methods ?? [])]) {
    const gate = gated.gates[g]!;
    if (!gate.cfg) continue;
    const key = `${gate.file}:${gate.cfg_line}`;
    out.set(key, (out.get(key) ?? new Set()).add(gate.cfg));
  }
  return out;
}

const releaseRefs = Object.entries(gated.refs)
  .filter(([ref, r]) => ref.startsWith("v") && r.version && semver.gte(r.version, "0.16.0"))
  .map(([ref]) => ref);

describe("every quoted gate is the one at its linked line", () => {
  const cases = fc
    .constantFrom(...releaseRefs)
    .chain((ref) =>
      fc.record({ ref: fc.constant(ref), entry: fc.constantFrom(...gated.refs[ref]!.entries.map(([p]) => p)) }),
    );
  it("gated-path data, releases 0.16 and on", () => {
    fc.assert(
      fc.property(cases, ({ ref, entry }) => {
        const path = gated.paths[entry]!;
        const version = gated.refs[ref]!.version!;
        const text = `\`\`\`\nerror[E0432]: unresolved import \`${path}\`\n --> src/main.rs:1:5\n  |\n1 | use ${path};\n  |     ^^^^ no \`${path.split("::").at(-1)}\` in \`${path.split("::").at(-2)}\`\n\`\`\`\n\n\`\`\`\n[[package]]\nname = "burn"\nversion = "${version}"\n\`\`\`\n`;
        const body = comment(text);
        const cfgs = cfgsAt(ref);
        for (const m of body.matchAll(QUOTED_GATE)) {
          const [, , cfg, , linkRef, file, line] = m;
          expect(cfg).not.toMatch(/feature\s*=\s*"[^"]*\//);
          expect(linkRef).toBe(ref);
          expect([...(cfgs.get(`${file}:${line}`) ?? [])]).toContain(cfg);
          count("gate");
        }
      }),
      RUNS,
    );
    expect(checked.gate).toBeGreaterThan(20);
  });
});

describe("every quoted gate read from burn's source is written at its linked line", () => {
  // A release newer than the gated-path data (faked: fixtures/burn-src/ and the fake index).
  let index: FakeIndex;
  let registries: AnalyzeInput["registries"];
  beforeAll(async () => {
    index = await startFakeIndex();
    // Generous limits: on a loaded machine a timed-out fetch would fall back to the snapshot,
    // which lacks 0.22.1, and the property would check nothing read from the source.
    const live = new LiveIndex({ baseUrl: index.url, timeoutMs: 60_000, slowMs: 60_000, eventBudgetMs: 120_000 });
    const r = await live.registryFor(["burn"]);
    expect(r.fellBack).toEqual([]);
    registries = { tags: r.registry, main: snapshot("main") };
  }, 180_000);
  afterAll(() => index.close());
  const src = (ref: string, path: string) => {
    const file = join(root, "fixtures/burn-src", ref, path);
    return existsSync(file) ? readFileSync(file, "utf8") : null;
  };
  const read = async (reads: SourceRead[]): Promise<BurnSources> =>
    Object.fromEntries(reads.map((r) => [sourceKey(r.ref, r.path), src(r.ref, r.path)]));
  const paths = [
    "burn::backend::Wgpu",
    "burn::backend::Cuda",
    "burn::backend::Autodiff",
    "burn::backend::NdArray",
    "burn::backend::Metal",
    "burn::backend::WgpuDevice",
    "burn::backend::LibTorch",
    "burn::train::Learner",
    "burn::rl::Agent",
    "burn::data::Dataset",
  ];
  it("at 0.22.1, any set of gated imports", async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(paths, { minLength: 1, maxLength: 4 }), async (uses) => {
        const log = uses.flatMap((p, i) => [
          `error[E0432]: unresolved import \`${p}\``,
          ` --> src/main.rs:${i + 1}:5`,
          "  |",
          `${i + 1} | use ${p};`,
          "",
        ]);
        const text = `\`\`\`\n${log.join("\n")}\n\`\`\`\n\`\`\`toml\n[dependencies]\nburn = { version = "0.22.1", default-features = false, features = ["std"] }\n\`\`\`\n`;
        const body = renderIssueComment(await analyzeWithSources({ text, registries }, read)) ?? "";
        for (const m of body.matchAll(QUOTED_GATE)) {
          const [, , cfg, , ref, file, line] = m;
          // Where the source could not answer, the data's newest release does, said as assumed.
          if (ref !== "v0.22.1") {
            expect([...(cfgsAt(ref!).get(`${file}:${line}`) ?? [])]).toContain(cfg);
            continue;
          }
          const at = src(ref, file!)?.split("\n")[Number(line) - 1] ?? "";
          expect(at).toContain(`#[cfg(${cfg})]`);
          count("source-gate");
        }
      }),
      { numRuns: 12, seed: 53 },
    );
    expect(checked["source-gate"]).toBeGreaterThan(5);
  });
});

const catalog = loadCatalog();
const stub = catalog.entries.find((e) => e.id === "dispatch-autodiff-stub")!;
const stubRefs = [...new Set(stub.sites.filter((s) => s.ref.startsWith("v")).map((s) => s.ref))];

describe("every method named is the one at the printed line of the release judged", () => {
  const report = fc.constantFrom(...stubRefs).chain((ref) => {
    const lines = stub.sites.filter((s) => s.ref === ref).map((s) => s.line);
    return fc.record({
      ref: fc.constant(ref),
      line: fc.integer({ min: Math.min(...lines) - 4, max: Math.max(...lines) + 30 }),
      frame: fc.constantFrom(null, "backward", "grad", "inner"),
    });
  });
  it("the autodiff stub, every release the catalog has, lines on and off its sites", () => {
    fc.assert(
      fc.property(report, ({ ref, line, frame }) => {
        const version = ref.slice(1);
        const text = [
          `thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-${version}/src/backend.rs:${line}:9:`,
          "not implemented: Requires `autodiff` feature",
          ...(frame
            ? [
                "stack backtrace:",
                `   2: <burn_dispatch::backend::Dispatch as burn_backend::backend::autodiff::AutodiffBackend>::${frame}`,
              ]
            : []),
        ].join("\n");
        const said = /it was `(\w+)` that reached the stub/.exec(comment(text))?.[1];
        if (said === undefined) return;
        const site = stub.sites.find((s) => s.ref === ref && s.line === line);
        // The line is that method's at the release judged, or the printed frame names it.
        if (site) expect(site.item).toMatch(new RegExp(`\\bfn ${said}$`));
        else expect(said).toBe(frame);
        count(site ? "method-line" : "method-frame");
      }),
      RUNS,
    );
    expect(checked["method-line"]).toBeGreaterThan(0);
  });

  it("a family site's quoted cfg is that site's at the release judged", () => {
    const family = catalog.entries.filter((e) => e.family && e.cause === "feature-off" && e.when !== "compile-time");
    const sites = family.flatMap((e) =>
      e.sites.filter((s) => s.ref.startsWith("v") && s.version && !s.printed.includes("{")).map((s) => ({ e, s })),
    );
    fc.assert(
      fc.property(fc.constantFrom(...sites), ({ e, s }) => {
        const path = s.file.replace(/^crates\/([^/]+)\//, `${"$1"}-${s.version}/`);
        const text = `thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/${path}:${s.line}:9:\n${s.printed}\n`;
        const said = /That code sits under `(#\[cfg\(.*?\)\])` in `([\w-]+)`/.exec(comment(text));
        if (!said) return;
        const at = e.sites.find((x) => x.ref === s.ref && x.file === s.file && x.line === s.line)!;
        expect(said[1]).toBe(
          at
            .cfg!.replace(/\s+/g, " ")
            .replace(/\(\s+/g, "(")
            .replace(/,?\s+\)/g, ")"),
        );
        expect(said[2]).toBe(e.crate);
        count("site-cfg");
      }),
      { numRuns: Math.min(60, sites.length), seed: 53 },
    );
    expect(checked["site-cfg"]).toBeGreaterThan(5);
  });
});

describe("every release said to lack a feature lacks it in the index", () => {
  const removed = (
    JSON.parse(readFileSync(join(root, "data/removed-features.json"), "utf8")) as {
      removed: Array<{ crate: string; feature: string; at: string }>;
    }
  ).removed.filter((r) => r.crate === "burn" && typeof r.at === "string");
  const burn = tags.versions("burn").filter((l) => !l.yanked);
  const has = (vers: string, f: string) => Object.hasOwn(allFeatures(burn.find((l) => l.vers === vers)!), f);
  const template = fixture("cargo/refusal-server-0.22-build.txt");
  const cases = fc.constantFrom(...removed).chain((r) =>
    fc.record({
      r: fc.constant(r),
      vers: fc.constantFrom(...burn.map((l) => l.vers).filter((v) => semver.gte(v, r.at))),
    }),
  );
  it("cargo's refusal of a removed feature, at every release since", () => {
    fc.assert(
      fc.property(cases, ({ r, vers }) => {
        const text = `\`\`\`\n${template
          .replaceAll("0.22.0-pre.2", vers)
          .replace("with feature `server`", `with feature \`${r.feature}\``)}\n\`\`\`\n`;
        const body = comment(text);
        for (const m of body.matchAll(/`burn` `([^`]+)` does not have it: release `([^`]+)` removed it/g)) {
          const [, v, at] = m;
          expect(has(v!, r.feature)).toBe(false);
          expect(has(at!, r.feature)).toBe(false);
          const before = burn.filter((l) => semver.lt(l.vers, at!)).at(-1);
          if (before) expect(has(before.vers, r.feature)).toBe(true);
          count("removed");
        }
      }),
      RUNS,
    );
    expect(checked.removed).toBeGreaterThan(20);
  });
});
