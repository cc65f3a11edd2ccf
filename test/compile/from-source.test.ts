import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type AnalyzeInput, analyze, analyzeWithSources, sourceReads } from "../../src/answer/analyze.js";
import { type BurnSources, MAX_BURN_SOURCE_READS, type SourceRead, sourceKey } from "../../src/answer/burn-files.js";
import { LiveIndex } from "../../src/cargo/index/live-index.js";
import { snapshot } from "../../src/cargo/index/registry.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { root } from "../helpers/fixtures.js";
import { type FakeIndex, startFakeIndex } from "../support/fake-index.js";

// Releases newer than the gated-path data (faked: fixtures/burn-src/ and the fake index), where
// the gate comes from burn's source read at the tag.
let index: FakeIndex;
let registries: AnalyzeInput["registries"];
beforeAll(async () => {
  index = await startFakeIndex();
  const r = await new LiveIndex({ baseUrl: index.url }).registryFor(["burn"]);
  registries = { tags: r.registry, main: snapshot("main") };
});
afterAll(() => index.close());

/** The faked release's files, as the contents API gives them; every read is recorded. */
function reader(log: SourceRead[][]) {
  return async (reads: SourceRead[]): Promise<BurnSources> => {
    log.push(reads);
    const out: BurnSources = {};
    for (const r of reads) {
      const file = join(root, "fixtures/burn-src", r.ref, r.path);
      out[sourceKey(r.ref, r.path)] = existsSync(file) ? readFileSync(file, "utf8") : null;
    }
    return out;
  };
}

// rustc ≤ 1.8x's wording, without configured-out notes: only the source can say the gate.
const log = (uses: string[]) =>
  [
    "```",
    ...uses.flatMap((u, i) => {
      const path = /use (burn::[\w:]+)/.exec(u)![1]!;
      return [
        `error[E0432]: unresolved import \`${path}\``,
        ` --> src/main.rs:${i + 1}:5`,
        "  |",
        `${i + 1} | ${u}`,
        `  |     ^^^^^^^^^^^^^^^^^^^^^ no \`${path.split("::").at(-1)}\` in \`${path.split("::").at(-2)}\``,
        "",
      ];
    }),
    "```",
  ].join("\n");
const manifest = (version: string, features: string[]) =>
  `\`\`\`toml\n[dependencies]\nburn = { version = "${version}", default-features = false, features = [${features.map((f) => JSON.stringify(f)).join(", ")}] }\n\`\`\`\n`;

describe("rustc errors at a release newer than the gated-path data", () => {
  it("0.22.1: the gate read at v0.22.1, linked there, and the edit verified on 0.22.1's graph", async () => {
    const text = `${log(["use burn::backend::Wgpu;"])}\n${manifest("0.22.1", ["std"])}`;
    const reads: SourceRead[][] = [];
    const a = await analyzeWithSources({ text, registries }, reader(reads));
    expect(a.kind).toBe("compile");
    if (a.kind !== "compile") return;
    const c = a.compile;
    expect(c).toMatchObject({ release: { version: "0.22.1" }, ref: "v0.22.1", beyond: null, absent: [], reads: [] });
    expect(c.items.map((i) => [i.path, i.gate.gate, i.gate.from])).toEqual([
      ["burn::backend::Wgpu", 'all(feature = "burn-core/extension", feature = "burn-dispatch/wgpu")', "source"],
    ]);
    expect(reads.flat().length).toBeLessThanOrEqual(MAX_BURN_SOURCE_READS);
    expect(reads.flat().every((r) => r.ref === "v0.22.1")).toBe(true);
    const plan = c.manifest?.plan;
    expect(plan?.kind).toBe("fixed");
    if (plan?.kind !== "fixed") return;
    expect(plan.diagnosis.graphVersion).toBe("0.22.1");
    expect(plan.diagnosis.assumed).toEqual({});
    const body = renderIssueComment(a)!;
    expect(body).toContain("(https://github.com/tracel-ai/burn/blob/v0.22.1/crates/burn-dispatch/src/lib.rs#L26)");
    expect(body).toContain("Gates read from burn's source at `v0.22.1`.");
    expect(body).toMatch(/\+burn = \{ version = "0\.22\.1", default-features = false, features = \[[^\]]*"wgpu"/);
    expect(body).not.toContain("Assumed burn");
  });

  it("0.23.0-pre.1: NdArray no longer exists there; said so, with no feature proposed", async () => {
    const text = `${log(["use burn::backend::NdArray;"])}\n${manifest("0.23.0-pre.1", ["std"])}`;
    const a = await analyzeWithSources({ text, registries }, reader([]));
    expect(a.kind).toBe("compile");
    if (a.kind !== "compile") return;
    expect(a.compile).toMatchObject({
      items: [],
      absent: ["burn::backend::NdArray"],
      release: { version: "0.23.0-pre.1" },
    });
    const body = renderIssueComment(a)!;
    expect(body).toContain("### `burn::backend::NdArray` does not exist in burn 0.23.0-pre.1");
    expect(body).toContain("no cargo feature brings it back");
    expect(body).not.toMatch(/^\+burn/m);
    expect(body).not.toContain("features = [");
    // The same import at 0.22.1 is gated, not absent.
    const old = await analyzeWithSources(
      { text: `${log(["use burn::backend::NdArray;"])}\n${manifest("0.22.1", ["std"])}`, registries },
      reader([]),
    );
    expect(old.kind === "compile" && old.compile.items.map((i) => i.gate.gate)).toEqual([
      'all(feature = "burn-core/extension", feature = "burn-dispatch/ndarray")',
    ]);
  });

  it("without the reads, the data's newest release answers, said as assumed, and the reads are asked for", () => {
    const text = `${log(["use burn::backend::Wgpu;"])}\n${manifest("0.22.1", ["std"])}`;
    const a = analyze({ text, registries });
    expect(a.kind).toBe("compile");
    if (a.kind !== "compile") return;
    expect(a.compile.beyond).toBe("0.22.1");
    expect(sourceReads(a)).toEqual([{ ref: "v0.22.1", path: "crates/burn/src/lib.rs" }]);
    expect(renderIssueComment(a)).toContain("Assumed burn `0.22.0-pre.2`");
  });

  it("a read that fails leaves the data's answer; a release the data has reads nothing", async () => {
    const text = `${log(["use burn::backend::Wgpu;"])}\n${manifest("0.22.1", ["std"])}`;
    const calls: SourceRead[][] = [];
    const a = await analyzeWithSources({ text, registries }, async (r) => {
      calls.push(r);
      return {};
    });
    expect(calls).toHaveLength(1);
    expect(a.kind === "compile" && a.compile.beyond).toBe("0.22.1");
    const known = await analyzeWithSources(
      { text: `${log(["use burn::backend::Wgpu;"])}\n${manifest("0.21.0", ["std"])}`, registries },
      async () => {
        throw new Error("no read for a release the data has");
      },
    );
    expect(known.kind === "compile" && known.compile.release.version).toBe("0.21.0");
  });

  it("an enabled feature whose item is gone: NdArray with `ndarray` listed on 0.23 is still answered", async () => {
    // The bundled data's newest release would call this already on; only the release's source knows.
    const text = `${log(["use burn::backend::NdArray;"])}\n${manifest("0.23.0-pre.1", ["std", "extension"])}`;
    const a = await analyzeWithSources({ text, registries }, reader([]));
    expect(a.kind === "compile" && a.compile.absent).toEqual(["burn::backend::NdArray"]);
  });
});

describe("E0599 at a release newer than the gated-path data", () => {
  it("0.22.1: the method is found in its impl in burn's source at the tag, gate and link from there", async () => {
    const rustc = readFileSync(join(root, "fixtures/compile/rustc-1.95/e0599-device-autodiff-0.22.txt"), "utf8");
    const text = `\`\`\`\n${rustc}\`\`\`\n\n${manifest("0.22.1", ["std"])}`;
    const reads: SourceRead[][] = [];
    const a = await analyzeWithSources({ text, registries }, reader(reads));
    expect(a.kind).toBe("compile");
    if (a.kind !== "compile") return;
    expect(a.compile.ref).toBe("v0.22.1");
    expect(a.compile.items.map((i) => [i.path, i.gate.gate, i.gate.from])).toEqual([
      ["burn::tensor::Device::autodiff", 'feature = "burn-tensor/autodiff"', "source"],
    ]);
    expect(a.compile.items[0]!.url).toBe(
      "https://github.com/tracel-ai/burn/blob/v0.22.1/crates/burn-tensor/src/device.rs#L493",
    );
    expect(reads.flat().map((r) => r.path)).toContain("crates/burn-tensor/src/device.rs");
    const body = renderIssueComment(a)!;
    expect(body).toContain("Gates read from burn's source at `v0.22.1`");
    expect(body).toContain('+burn = { version = "0.22.1", default-features = false, features = ["std", "autodiff"] }');
  });
});
