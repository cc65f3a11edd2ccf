import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { load } from "js-yaml";
import { type FakeIndex, startFakeIndex } from "../support/fake-index.js";
import { formatReport, gitSource, refresh, treeSource } from "../../src/data/refresh.js";
import type { Site } from "../../src/panics/catalog.js";
import { type GatedData, indexGated } from "../../src/compile/gated.js";
import type { IndexLine } from "../../src/cargo/index/index-file.js";
import { type DerivedRemoval, removalsAt } from "../../src/data/refresh-removals.js";
import { fixture, root } from "../helpers/fixtures.js";

// data:refresh against a loopback index (two releases newer than the bundled data) and a small
// git clone whose tags hold the files the catalog's messages live in.
let index: FakeIndex;
let clone: string;
const backend = fixture("burn-src/v0.22.1/crates/burn-dispatch/src/backend.rs");

function dataCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "burn-triage-data-"));
  cpSync(join(root, "data/index"), join(dir, "index"), { recursive: true });
  cpSync(join(root, "data/catalog.yml"), join(dir, "catalog.yml"));
  cpSync(join(root, "data/gated.json"), join(dir, "gated.json"));
  return dir;
}

beforeAll(async () => {
  index = await startFakeIndex();
  clone = mkdtempSync(join(tmpdir(), "burn-triage-clone-"));
  const git = (...args: string[]) => execFileSync("git", ["-C", clone, "-c", "user.name=t", "-c", "user.email=t@example.test", ...args], { stdio: "ignore" });
  git("init", "-q");
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(clone, path)), { recursive: true });
    writeFileSync(join(clone, path), text);
  };
  put("crates/burn-dispatch/src/backend.rs", backend);
  git("add", "-A");
  git("commit", "-qm", "0.22.1");
  git("tag", "v0.22.1");
  // 0.23.0-pre.1: the stub moved down three lines.
  put("crates/burn-dispatch/src/backend.rs", `// a\n// b\n// c\n${backend}`);
  git("commit", "-qam", "0.23.0-pre.1");
  git("tag", "v0.23.0-pre.1");
});
afterAll(() => index.close());

describe("npm run data:refresh", () => {
  it("adds the new releases to the index and their sites, read at each tag, to the catalog", async () => {
    const data = dataCopy();
    const report = await refresh({ indexUrl: index.url, source: gitSource(clone), dataDir: data });
    expect(report.added.burn).toEqual(["0.22.1", "0.23.0-pre.1"]);
    expect(report.added["burn-dispatch"]).toEqual(["0.22.1", "0.23.0-pre.1"]);
    const burnIndex = readFileSync(join(data, "index/tags/bu/rn/burn"), "utf8");
    expect(burnIndex).toContain('"vers":"0.22.1"');

    const out = load(readFileSync(join(data, "catalog-refreshed.yml"), "utf8")) as { refs: Array<{ ref: string; commit: string }>; sites: Record<string, Site[]> };
    expect(out.refs.map((r) => r.ref)).toEqual(["v0.22.1", "v0.23.0-pre.1"]);
    expect(out.refs[0]!.commit).toMatch(/^[0-9a-f]{40}$/);
    const stub = out.sites["dispatch-autodiff-stub"]!;
    expect(stub.filter((s) => s.ref === "v0.22.1").map((s) => s.line)).toEqual([54, 58, 63]);
    expect(stub.filter((s) => s.ref === "v0.23.0-pre.1").map((s) => s.line)).toEqual([57, 61, 66]);
    expect(stub[0]).toMatchObject({ file: "crates/burn-dispatch/src/backend.rs", cfg: '#[cfg(not(feature = "autodiff"))]', fix: { crate: "burn-dispatch", features: ["autodiff"] }, item: "impl AutodiffBackend for Dispatch > fn backward" });

    const text = formatReport(report);
    expect(text).toContain("+ burn: 0.22.1, 0.23.0-pre.1");
    expect(text).toMatch(/catalog: v0\.22\.1 \([0-9a-f]{12}\): .*dispatch-autodiff-stub ×3/);
    expect(text).toContain("not found at v0.22.1");

    // Run again: nothing new, and what the first run found is kept.
    const again = await refresh({ indexUrl: index.url, source: gitSource(clone), dataDir: data });
    expect(again.added).toEqual({});
    expect(formatReport(again)).toContain("no new versions");
    expect(readFileSync(join(data, "catalog-refreshed.yml"), "utf8")).toContain("v0.23.0-pre.1");
  });

  it("a source without the tag: the release's sites are left out, and the report says so", async () => {
    const data = dataCopy();
    const tree = mkdtempSync(join(tmpdir(), "burn-triage-tree-"));
    cpSync(join(root, "fixtures/burn-src/v0.22.1"), join(tree, "v0.22.1"), { recursive: true });
    const report = await refresh({ indexUrl: index.url, source: treeSource(tree), dataDir: data });
    expect(report.releases.map((r) => [r.ref, r.commit !== null])).toEqual([
      ["v0.22.1", true],
      ["v0.23.0-pre.1", false],
    ]);
    expect(formatReport(report)).toContain("v0.23.0-pre.1: tag not found in the source");
  });

  it("regenerates the gated-path map at each new tag from the source, with what each release no longer has", async () => {
    const data = dataCopy();
    const report = await refresh({ indexUrl: index.url, source: treeSource(join(root, "fixtures/burn-src")), dataDir: data });
    const map = JSON.parse(readFileSync(join(data, "gated-refreshed.json"), "utf8")) as GatedData;
    const at = (ref: string) => new Map(map.refs[ref]!.entries.map(([p, g]) => [map.paths[p]!, map.gates[g]!]));
    for (const ref of ["v0.22.1", "v0.23.0-pre.1"])
      expect(at(ref).get("burn::backend::Wgpu")).toMatchObject({
        gate: 'all(feature = "burn-core/extension", feature = "burn-dispatch/wgpu")',
        file: "crates/burn-dispatch/src/lib.rs",
        cfg_line: 26,
        from: "source",
      });
    expect(at("v0.22.1").get("burn::train::Learner")).toMatchObject({ gate: 'feature = "burn/train"', suggest: ["train"] });
    expect(at("v0.22.1").has("burn::backend::NdArray")).toBe(true);
    expect(at("v0.23.0-pre.1").has("burn::backend::NdArray")).toBe(false);
    const g23 = report.releases.find((r) => r.ref === "v0.23.0-pre.1")!.gated!;
    expect(g23.absent).toEqual(expect.arrayContaining(["burn::backend::NdArray", "burn::backend::LibTorch"]));
    expect(g23.absent).not.toContain("burn::backend::Wgpu");
    // Loaded after the bundled map: the new tags are added, a tag the bundled map has is kept from it.
    const bundled = JSON.parse(readFileSync(join(root, "data/gated.json"), "utf8")) as GatedData;
    const clash = { ...map, refs: { ...map.refs, "v0.22.0-pre.2": map.refs["v0.22.1"]! } };
    const both = indexGated([bundled, clash]);
    expect(both.versions.get("0.23.0-pre.1")).toBe("v0.23.0-pre.1");
    expect(both.byRef.get("v0.23.0-pre.1")!.paths.has("burn::backend::NdArray")).toBe(false);
    expect(both.byRef.get("v0.22.0-pre.2")!.paths.get("burn::backend::Wgpu")![0]!.cfg_line).toBe(77);
    // Methods: found in their impl's file at the tag (0.22.1 has burn-tensor's device.rs), gated as
    // there; a spelling whose type does not resolve (the faked prelude has no Device) is left out.
    const methods = new Map(map.refs["v0.22.1"]!.methods!.map(([p, g]) => [map.paths[p]!, map.gates[g]!]));
    expect(methods.has("burn::prelude::Device::autodiff")).toBe(false);
    expect(methods.get("burn::tensor::Device::autodiff")).toMatchObject({
      gate: 'feature = "burn-tensor/autodiff"',
      file: "crates/burn-tensor/src/device.rs",
      cfg_line: 493,
      from: "source",
    });
    expect(map.refs["v0.23.0-pre.1"]!.methods).toEqual([]);
    expect(formatReport(report)).toMatch(
      /gated paths: v0\.23\.0-pre\.1: \d+ gated, \d+ gated methods, \d+ absent, \d+ not followed to the end/,
    );
  });

  it("a connection the index closed as it was reused is read again, once", async () => {
    const reset = () => new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
    const failed = new Set<string>();
    let resets = 0;
    // Every file's first GET meets a reset socket; the second is served.
    const flaky = (async (url: string, init?: RequestInit) => {
      if (!failed.has(url)) {
        failed.add(url);
        resets++;
        throw reset();
      }
      return fetch(url, init);
    }) as typeof fetch;
    const report = await refresh({ indexUrl: index.url, source: gitSource(clone), dataDir: dataCopy(), fetch: flaky });
    expect(report.added.burn).toEqual(["0.22.1", "0.23.0-pre.1"]);
    expect(resets).toBeGreaterThan(1);
    // Twice in a row is the caller's error, not a third try.
    const always = (async () => {
      throw reset();
    }) as typeof fetch;
    await expect(refresh({ indexUrl: index.url, source: gitSource(clone), dataDir: dataCopy(), fetch: always })).rejects.toThrow("fetch failed");
  });

  it("an index that fails is an error, and writes nothing", async () => {
    const data = dataCopy();
    const before = readFileSync(join(data, "index/tags/bu/rn/burn"), "utf8");
    await expect(refresh({ indexUrl: `${index.url}/nowhere-but-500`, source: gitSource(clone), dataDir: data, fetch: (async () => new Response("", { status: 500 })) as typeof fetch })).rejects.toThrow("the index answered 500 for burn");
    expect(readFileSync(join(data, "index/tags/bu/rn/burn"), "utf8")).toBe(before);
  });

  it("a dependency name that climbs out of --data is refused before any path is joined", async () => {
    const data = dataCopy();
    const outside = join(dirname(data), "escaped");
    const evil = JSON.stringify({ name: "burn", vers: "0.30.0", deps: [{ name: "burn-x", package: "../../escaped/package", req: "1", features: [], optional: false, default_features: true, target: null, kind: "normal" }], features: {} });
    const f = (async (url: string) => (String(url).endsWith("/bu/rn/burn") ? new Response(`${evil}\n`) : new Response("", { status: 404 }))) as typeof fetch;
    await expect(refresh({ indexUrl: "http://index.invalid", source: gitSource(clone), dataDir: data, fetch: f })).rejects.toThrow(/fields cargo writes/);
    expect(() => readFileSync(join(outside, "package"), "utf8")).toThrow();
  });
});

describe("removed features at new releases", () => {
  const line = (vers: string, features: Record<string, string[]>, optional: string[]): IndexLine => ({
    name: "burn",
    vers,
    deps: optional.map((name) => ({
      name,
      req: "*",
      features: [],
      optional: true,
      default_features: true,
      target: null,
      kind: "normal" as const,
    })),
    features,
  });

  it("what a release no longer has, and a replacement only where the same optional crates say it", () => {
    const files = new Map([
      [
        "burn",
        [
          line("0.30.0", { "cuda-jit": ["burn-cuda"], old: [], std: [] }, ["burn-cuda"]),
          line("0.31.0", { cuda: ["dep:burn-cuda"], std: [] }, ["burn-cuda"]),
        ],
      ],
    ]);
    expect(removalsAt(files, new Set(["0.31.0"]))).toEqual([
      { crate: "burn", feature: "cuda-jit", at: "0.31.0", replacement: ["cuda"], inferred: true },
      // `burn-cuda`'s implicit feature went with `dep:` syntax: gone too, and `cuda` turns it on.
      { crate: "burn", feature: "burn-cuda", at: "0.31.0", replacement: ["cuda"], inferred: true },
      { crate: "burn", feature: "old", at: "0.31.0", replacement: null, inferred: true },
    ].sort((a, b) => (a.feature < b.feature ? -1 : 1)));
    // Only the new releases are compared.
    expect(removalsAt(files, new Set(["0.30.0"]))).toEqual([]);
  });

  it("data:refresh writes them for the new tags (0.23.0-pre.1 drops ndarray and tch)", async () => {
    const data = dataCopy();
    await refresh({ indexUrl: index.url, source: treeSource(join(root, "fixtures/burn-src")), dataDir: data });
    const written = JSON.parse(readFileSync(join(data, "removed-features-refreshed.json"), "utf8")) as {
      removed: DerivedRemoval[];
    };
    const burn = written.removed.filter((r) => r.crate === "burn" && r.at === "0.23.0-pre.1").map((r) => r.feature);
    expect(burn).toEqual(expect.arrayContaining(["ndarray", "tch"]));
    expect(written.removed.every((r) => r.inferred)).toBe(true);
  });
});
