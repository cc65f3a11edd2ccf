// Issue 53, cfg on the module wherever it is written: a file is under every cfg of the chain of
// `mod` declarations that reaches it. tracel-ai/models' crates (meant to build without std) keep
// their std-only downloader behind `#[cfg(feature = "pretrained")] mod downloader;` in lib.rs.
import { describe, expect, it } from "@jest/globals";
import { gatherEvidence } from "../../src/review/gather-evidence.js";
import { declaredIn, isCrateRoot, modChainCfgs } from "../../src/review/mod-chain.js";
import { decidePullRequest, type PrSnapshot } from "../../src/review/pull-request.js";

const chainOf = (files: Record<string, string>, rel: string) =>
  modChainCfgs(
    rel,
    (p) => p in files,
    async (p) => files[p] ?? null,
  );

describe("the mod chain", () => {
  it("knows crate roots and where a module file is declared", () => {
    for (const root of [
      "src/lib.rs",
      "src/main.rs",
      "src/bin/x.rs",
      "examples/demo.rs",
      "examples/demo/main.rs",
      "build.rs",
    ])
      expect(isCrateRoot(root)).toBe(true);
    expect(declaredIn("src/downloader.rs")).toEqual({ name: "downloader", parents: ["src/lib.rs", "src/main.rs"] });
    expect(declaredIn("src/model/weights.rs")).toEqual({
      name: "weights",
      parents: ["src/model.rs", "src/model/mod.rs"],
    });
    expect(declaredIn("src/model/mod.rs")).toEqual({ name: "model", parents: ["src/lib.rs", "src/main.rs"] });
    expect(declaredIn("examples/demo/util.rs")).toEqual({ name: "util", parents: ["examples/demo/main.rs"] });
  });

  it("collects the cfg on `mod x;` in the parent file, the parent's #![cfg], outward through every level", async () => {
    const files = {
      "src/lib.rs": '#![cfg_attr(not(feature = "std"), no_std)]\n#[cfg(feature = "pretrained")]\npub mod model;\n',
      "src/model/mod.rs":
        '#![cfg(not(target_family = "wasm"))]\n#[cfg(feature = "download")]\nmod weights;\npub mod net;\n',
      "src/model/weights.rs": "use burn::data::network::downloader;\n",
      "src/model/net.rs": "",
    };
    expect(await chainOf(files, "src/model/weights.rs")).toEqual([
      'feature = "download"',
      'not(target_family = "wasm")',
      'feature = "pretrained"',
    ]);
    expect(await chainOf(files, "src/model/net.rs")).toEqual(['not(target_family = "wasm")', 'feature = "pretrained"']);
    expect(await chainOf({ "src/lib.rs": "pub mod net;\n" }, "src/net.rs")).toEqual([]);
  });

  it("is unknown where the file may be another: #[path], cfg_attr(…, path), two declarations, none", async () => {
    const lib = (decl: string) => ({ "src/lib.rs": decl });
    expect(await chainOf(lib('#[path = "dl_impl.rs"]\nmod downloader;\n'), "src/downloader.rs")).toBeNull();
    expect(
      await chainOf(lib('#[cfg_attr(unix, path = "dl_unix.rs")]\nmod downloader;\n'), "src/downloader.rs"),
    ).toBeNull();
    expect(
      await chainOf(
        lib('#[cfg(feature = "a")]\nmod downloader;\n#[cfg(not(feature = "a"))]\nmod downloader;\n'),
        "src/downloader.rs",
      ),
    ).toBeNull();
    expect(await chainOf(lib("pub mod other;\n"), "src/downloader.rs")).toBeNull();
  });
});

// tracel-ai/models: squeezenet-burn builds without std; `pretrained` turns std on for the
// downloader, which lib.rs declares under that feature.
const manifest = (burn: string) =>
  `[package]\nname = "squeezenet-burn"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\ndefault = []\npretrained = ["burn/std", "burn/network", "dep:dirs"]\n\n[dependencies]\n${burn}\ndirs = { version = "5", optional = true }\n`;
const BASE_BURN = 'burn = { version = "0.20.1", features = ["ndarray"] }';
const HEAD_BURN = 'burn = { version = "0.20.1", default-features = false, features = ["ndarray"] }';
const SOURCES: Record<string, string> = {
  "src/lib.rs":
    '#![cfg_attr(not(feature = "std"), no_std)]\n\npub mod model;\n\n#[cfg(feature = "pretrained")]\nmod downloader;\n',
  "src/downloader.rs":
    'use burn::data::network::downloader;\n\npub fn fetch(url: &str) -> Vec<u8> {\n    downloader::download_file_as_bytes(url, "weights")\n}\n',
  "src/model.rs":
    "use burn::prelude::*;\n\n#[derive(Module, Debug)]\npub struct SqueezeNet<B: Backend> {\n    w: Param<Tensor<B, 2>>,\n}\n",
};

function snapshot(): PrSnapshot {
  return {
    repo: { owner: "alice", repo: "models" },
    headSha: "b".repeat(40),
    changed: [
      {
        path: "Cargo.toml",
        status: "modified",
        patch: `@@ -10,2 +10,2 @@\n [dependencies]\n-${BASE_BURN}\n+${HEAD_BURN}\n dirs = { version = "5", optional = true }`,
      },
    ],
    base: { "Cargo.toml": manifest(BASE_BURN) },
    head: { "Cargo.toml": manifest(HEAD_BURN) },
    tree: ["Cargo.toml", ...Object.keys(SOURCES)],
    evidence: {},
    previous: { review: null, checkRuns: {} },
    notices: [],
    options: { checkRun: true, conclusion: "neutral", reviewBurnRepo: false },
  } as PrSnapshot;
}

describe("a PR whose only std-only use sits in a module gated in its parent file", () => {
  it("gets no std review: the use carries the cfg of `mod downloader;`", async () => {
    const s = snapshot();
    await gatherEvidence(s, async (p) => SOURCES[p] ?? null);
    expect(s.evidence.std?.["Cargo.toml"]).toMatchObject({
      path: "src/downloader.rs",
      line: 1,
      cfgs: ['feature = "pretrained"'],
    });
    const d = decidePullRequest(s);
    expect(d.problems.filter((p) => "rule" in p && p.rule === "std")).toEqual([]);
    expect(d.review).toBe(false);
  });
});
