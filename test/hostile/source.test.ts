// burn's source is read at release tags for releases newer than the data. What the issue prints
// (a version, a path) must never choose another file or ref of burn's repository, and no file
// (deep nesting, a code point rustc refuses) may stall or silence the scanner.
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { analyze, sourceReads } from "../../src/answer/analyze.js";
import { readBurnSources } from "../../src/github/burn-source.js";
import { memoryCoordination } from "../../src/github/coordination.js";
import { catalogFiles, isReleaseTag } from "../../src/panics/catalog.js";
import { MAX_SITES, scanSource } from "../../src/panics/source-scan.js";

const STUB = "Requires `autodiff` feature";
const at = (path: string) =>
  `thread 'main' panicked at ${path}:54:9:\nnot implemented: Requires \`autodiff\` feature\n`;
const REG = "/home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f";

describe("source reads are release tags and catalog files only", () => {
  it("a version with `..` and a path that climbs out read nothing else", () => {
    for (const text of [
      at(`${REG}/burn-dispatch-0.22.1-../../x/src/backend.rs`),
      at(`${REG}/burn-dispatch-0.22.1-../src/backend.rs`),
      at("crates/burn-dispatch/../../.github/workflows/ci.rs"),
      at(`${REG}/burn-dispatch-0.22.1/src/../../../../.github/secret.rs`),
    ]) {
      for (const r of sourceReads(analyze({ text }))) {
        expect(isReleaseTag(r.ref)).toBe(true);
        expect(catalogFiles().has(r.path)).toBe(true);
        expect(r.path).not.toContain("..");
      }
    }
    expect(isReleaseTag("v0.22.1-..")).toBe(false);
    expect(isReleaseTag("v0.22.1")).toBe(true);
    expect(isReleaseTag("main")).toBe(false);
  });

  it("holds for any printed version and path", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 40 }), (v, p) => {
        for (const r of sourceReads(analyze({ text: at(`${REG}/burn-dispatch-0.22.${v}/src/${p}.rs`) }))) {
          expect(isReleaseTag(r.ref) && catalogFiles().has(r.path)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the shell refuses a read outside the allow-list whoever asks, without an API call", async () => {
    const calls: unknown[] = [];
    const getContent = async (p: unknown) => {
      calls.push(p);
      return { data: "fn x() {}" };
    };
    const octokit = { rest: { repos: { getContent } } } as never;
    const log = {
      warn: () => undefined,
      info: () => undefined,
      debug: () => undefined,
      error: () => undefined,
    } as never;
    const out = await readBurnSources(
      octokit,
      [
        { ref: "v0.22.1", path: ".github/workflows/ci.yml" },
        { ref: "main", path: "crates/burn-dispatch/src/backend.rs" },
      ],
      memoryCoordination(),
      log,
    );
    expect(out).toEqual({});
    expect(calls).toEqual([]);
    await readBurnSources(
      octokit,
      [{ ref: "v0.22.1", path: "crates/burn-dispatch/src/backend.rs" }],
      memoryCoordination(),
      log,
    );
    expect(calls).toHaveLength(1);
  });
});

describe("the scanner is total and linear in nesting", () => {
  it("131 KiB of nested blocks, each with the message, is scanned in one pass with bounded sites", () => {
    const depth = 20_000;
    const hostile = `${'fn a() {"Requires `autodiff` feature"'.repeat(depth / 10)}${'{"Requires `autodiff` feature"'.repeat(depth)}`;
    expect(hostile.length).toBeGreaterThan(131 * 1024);
    const sites = scanSource(hostile, STUB);
    expect(sites).toHaveLength(MAX_SITES);
    // The item path stays short however deep the nesting.
    expect(sites.at(-1)!.item.split(" > ").length).toBeLessThanOrEqual(8);
  });

  it("a `\\u{110000}` literal is a replacement character, and the file's real sites are still found", () => {
    const src =
      'const BAD: &str = "\\u{110000}\\u{d800}";\nfn backward() { unimplemented!("Requires `autodiff` feature") }\n';
    expect(scanSource(src, STUB)).toEqual([
      { line: 2, column: 17, macro: "unimplemented!", item: "fn backward", cfg: null },
    ]);
  });
});
