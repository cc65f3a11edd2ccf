// The changed files of a PR from two trees, and the patch computed from two texts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { commentableLines } from "../../src/review/manifest.js";
import { COMMENT_CONTEXT, diffTrees, pairRenames, patchOf, similarity } from "../../src/review/tree-diff.js";
import { fixturesDir } from "../support/scenario.js";

describe("diffTrees", () => {
  it("names what was added, removed, modified, and renamed unchanged", () => {
    const base = new Map([
      ["a/Cargo.toml", "1"],
      ["b/Cargo.toml", "2"],
      ["old/LICENSE", "3"],
      ["same", "4"],
      ["gone", "5"],
    ]);
    const head = new Map([
      ["a/Cargo.toml", "1"],
      ["b/Cargo.toml", "2b"],
      ["new/LICENSE", "3"],
      ["same", "4"],
      ["c/Cargo.toml", "6"],
    ]);
    expect(diffTrees(base, head)).toEqual([
      { filename: "b/Cargo.toml", status: "modified" },
      { filename: "c/Cargo.toml", status: "added" },
      { filename: "gone", status: "removed" },
      { filename: "new/LICENSE", status: "renamed", previous_filename: "old/LICENSE" },
    ]);
  });

  it("pairs a rename with the same file name first", () => {
    const base = new Map([
      ["x/README.md", "same"],
      ["x/Cargo.toml", "same"],
    ]);
    const head = new Map([["y/Cargo.toml", "same"]]);
    expect(diffTrees(base, head)).toEqual([
      { filename: "x/README.md", status: "removed" },
      { filename: "y/Cargo.toml", status: "renamed", previous_filename: "x/Cargo.toml" },
    ]);
  });
});

describe("patchOf", () => {
  it("gives the lines git's diff shows: the change and 3 lines of context, not the rest", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const after = before.replace("line 10", "line ten");
    const lines = [...commentableLines(patchOf("Cargo.toml", `${before}\n`, `${after}\n`))];
    expect(lines).toEqual([7, 8, 9, 10, 11, 12, 13]);
  });

  it("an added file's every line", () => {
    expect([...commentableLines(patchOf("Cargo.toml", "", "a\nb\n"))]).toEqual([1, 2]);
  });
});

describe("pairRenames", () => {
  const lines = (n: number, tag = "") => Array.from({ length: n }, (_, i) => `k${i} = ${tag}${i}`).join("\n");

  it("pairs an added file with the removed one that keeps at least half its lines, the closest first", () => {
    const old = lines(10);
    const near = old.replace("k0 = 0", "k0 = x");
    const half = `${lines(5)}\n${lines(5, "y").split("\n").slice(0).join("\n")}`;
    expect(similarity(old, near)).toBeCloseTo(0.9);
    const pairs = pairRenames(
      [
        { path: "new/Cargo.toml", text: near },
        { path: "other/Cargo.toml", text: half },
      ],
      [{ path: "old/Cargo.toml", text: old }],
    );
    expect([...pairs]).toEqual([["new/Cargo.toml", "old/Cargo.toml"]]);
  });

  it("leaves a file that kept less than half its lines unpaired", () => {
    expect(pairRenames([{ path: "b", text: lines(10, "z") }], [{ path: "a", text: lines(10) }]).size).toBe(0);
  });
});

describe("computed patches against GitHub's own (burn PR #4717, its 32 patched manifests)", () => {
  const dir = `${fixturesDir}repos/burn-4717`;
  const files = JSON.parse(readFileSync(`${dir}/files.json`, "utf8")) as Array<{
    filename: string;
    status: string;
    previous_filename?: string;
    patch?: string;
  }>;
  const patched = files.filter((f) => f.filename.endsWith("Cargo.toml") && f.patch && f.status !== "removed");

  it("a review comment goes only on a line GitHub's patch shows (else GitHub answers 422)", () => {
    expect(patched).toHaveLength(32);
    const outside: string[] = [];
    for (const f of patched) {
      const head = readFileSync(`${dir}/head/${f.filename}`, "utf8");
      const base = f.status === "added" ? "" : readFileSync(`${dir}/base/${f.previous_filename ?? f.filename}`, "utf8");
      const github = commentableLines(f.patch);
      for (const line of commentableLines(patchOf(f.filename, base, head, COMMENT_CONTEXT)))
        if (!github.has(line)) outside.push(`${f.filename}:${line}`);
    }
    expect(outside).toEqual([]);
  });
});
