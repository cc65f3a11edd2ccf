import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { LiveIndex } from "../../src/cargo/index/live-index.js";
import { snapshot } from "../../src/cargo/index/registry.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { assumptionText } from "../../src/render/manifest.js";
import { analyzePanic } from "../helpers/analysis.js";
import { type FakeIndex, startFakeIndex } from "../support/fake-index.js";

// Releases newer than the bundled data, served by a local stand-in for index.crates.io.
let index: FakeIndex;
beforeAll(async () => {
  index = await startFakeIndex();
});
afterAll(() => index.close());

const manifest = (req: string, features: string[]) =>
  `[dependencies]\nburn = { version = "${req}", default-features = false, features = [${features.map((f) => JSON.stringify(f)).join(", ")}] }\n`;

async function registries() {
  const r = await new LiveIndex({ baseUrl: index.url }).registryFor(["burn"]);
  expect(r.fellBack).toEqual([]);
  return { tags: r.registry, main: snapshot("main") };
}

describe("burn releases the bundled data does not have, through the live index", () => {
  it("0.22.1 resolves on its own graph (a `^` requirement), and the fix is verified there", async () => {
    const regs = await registries();
    const d = diagnose(parseManifest(manifest("0.22.1", ["std", "wgpu"])), { registries: regs });
    expect(d).toMatchObject({
      verdict: "off",
      graphVersion: "0.22.1",
      assumed: {},
      registryLabel: "crates.io's index",
    });
    expect(d.fix?.add).toEqual(["autodiff"]);
    // Offline, the same manifest is judged on the newest bundled graph, and says so.
    const offline = diagnose(parseManifest(manifest("0.22.1", ["std", "wgpu"])));
    expect(offline.graphVersion).toBe("0.22.0-pre.2");
    expect(assumptionText(offline.assumed.graph!)).toContain("matches no release in the bundled data");
  });

  it("0.23.0-pre.1 has no `ndarray` backend: a BURN_DEVICE=ndarray panic gets no edit on that graph", async () => {
    const regs = await registries();
    const text = `thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.23.0-pre.1/src/device.rs:309:25:\nBURN_DEVICE=ndarray requested, but the 'ndarray' feature is not enabled.\n\n\`\`\`toml\n${manifest("0.23.0-pre.1", ["std", "wgpu"])}\`\`\`\n`;
    const a = analyzePanic({ text, registries: regs });
    expect(a.manifest?.plan.kind).toBe("no-fix");
    expect(a.manifest?.plan.kind === "no-fix" && a.manifest.plan.diagnosis.graphVersion).toBe("0.23.0-pre.1");
    const cuda = analyzePanic({ text: text.replaceAll("ndarray", "cuda"), registries: regs });
    expect(cuda.manifest?.plan.kind).toBe("fixed");
  });

  it("the comment names the graph's source", async () => {
    const regs = await registries();
    const text = `thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.1/src/backend.rs:54:9:\nnot implemented: Requires \`autodiff\` feature\n\n\`\`\`toml\n${manifest("0.22.1", ["std", "wgpu"])}\`\`\`\n`;
    expect(renderIssueComment(analyze({ text, registries: regs }))).toContain(
      "Verified on burn `0.22.1`</summary>\n\n<sub>Its feature graph from crates.io's index:",
    );
    expect(renderIssueComment(analyze({ text }))).toContain(
      "Checked on an assumed graph</summary>\n\n<sub>That is the assumed graph above",
    );
  });

  it("a warm cache asks nothing again within its freshness window", async () => {
    const live = new LiveIndex({ baseUrl: index.url });
    const cold = await live.registryFor(["burn"]);
    const before = index.requests.length;
    const warm = await live.registryFor(["burn"]);
    expect(cold.fetched).toBeGreaterThan(20);
    expect(cold.bytes).toBeGreaterThan(100_000);
    expect(warm).toMatchObject({ fetched: 0, bytes: 0, cached: cold.fetched });
    expect(index.requests.length).toBe(before);
  });
});
