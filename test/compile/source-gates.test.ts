import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { sourceKey } from "../../src/answer/burn-files.js";
import type { CompileFinding } from "../../src/compile/detect.js";
import { fromSource } from "../../src/compile/from-source.js";
import { MAX_RUST_FILE, rustItems } from "../../src/compile/rust-items.js";
import { EVENT_STEPS, type ReadFile, sourceGate, stepBudget } from "../../src/compile/source-gates.js";
import { root } from "../helpers/fixtures.js";

/** The synthetic tree of a faked release under fixtures/burn-src/, and the files read from it. */
function tree(tag: string): { read: ReadFile; reads: string[] } {
  const reads: string[] = [];
  const read: ReadFile = (path) => {
    reads.push(path);
    const file = join(root, "fixtures/burn-src", tag, path);
    return existsSync(file) ? readFileSync(file, "utf8") : null;
  };
  return { read, reads };
}

/**
 * A parsed-file map that counts its lookups: every step that follows a path asks it, so `asked`
 * counts the resolver's work, not a clock.
 */
function countingFiles() {
  return new (class extends Map<string, ReturnType<typeof rustItems>> {
    asked = 0;
    override has(key: string): boolean {
      this.asked++;
      return super.has(key);
    }
  })();
}

/** A release made of the files given, by repository path. */
function files(f: Record<string, string>): ReadFile {
  return (path) => f[path] ?? null;
}

describe("the items of a Rust file", () => {
  it("reads mods, uses and definitions with their cfgs and lines; bodies, comments and strings are not items", () => {
    const m = rustItems(
      [
        '#![cfg(feature = "std")]',
        "/* pub mod hidden; */",
        '#[cfg(feature = "train")]',
        "/// doc",
        "pub mod train {",
        "    pub use burn_train::*;",
        "}",
        'const S: &str = "pub mod ghost;"; static R: &str = r#"pub use x::Y;"#;',
        "fn f<'a>(x: &'a str) -> char { let c = '}'; 'x' }",
        "pub(crate) mod private;",
        "pub use a::{b::C as D, e::{self, F}};",
        "extern crate burn_core as core;",
        "impl Foo { pub fn nope() {} }",
        "pub struct S(u8);",
      ].join("\n"),
    )!;
    expect(m.cfgs).toEqual(['feature = "std"']);
    expect(m.opaque).toBe(false);
    const summary = m.items.map((i) => [i.kind, i.name, i.pub, i.cfgs, i.line, i.cfgLine]);
    expect(summary).toEqual([
      ["mod", "train", true, ['feature = "train"'], 5, 3],
      ["def", "S", false, [], 8, null],
      ["def", "R", false, [], 8, null],
      ["def", "f", false, [], 9, null],
      ["mod", "private", false, [], 10, null],
      ["use", "D", true, [], 11, null],
      ["use", "e", true, [], 11, null],
      ["use", "F", true, [], 11, null],
      ["use", "core", false, [], 12, null],
      ["def", "S", true, [], 14, null],
    ]);
    expect(m.items[0]!.body!.items.map((i) => [i.kind, i.import])).toEqual([
      ["use", { segs: ["burn_train"], name: null, glob: true }],
    ]);
    expect(m.items[5]!.import).toEqual({ segs: ["a", "b", "C"], name: "D", glob: false });
  });

  it("marks a module whose item-level macro calls may define names", () => {
    expect(rustItems("backend_types! { Wgpu }\npub struct A;")!.opaque).toBe(true);
    expect(rustItems("macro_rules! m { () => {} }\npub struct A;")!.opaque).toBe(false);
    expect(rustItems("fn f() { m!(); }")!.opaque).toBe(false);
  });

  it("refuses what is not a source file, and survives unbalanced brackets", () => {
    expect(rustItems("a\u0000b")).toBeNull();
    expect(rustItems("x".repeat(MAX_RUST_FILE + 1))).toBeNull();
    expect(rustItems("}}} pub mod a; {{{ pub mod b;")!.items.map((i) => i.name)).toEqual(["a"]);
    expect(rustItems('#[cfg(feature = "x"')!.items).toEqual([]);
  });

  it("past its item cap a file is opaque in every module: a name after the cut is never absent", () => {
    const many = `pub mod m {\n${"pub struct A;\n".repeat(3000)}pub struct Late;\n}\n`;
    expect(rustItems(many)!.items[0]!.body!.opaque).toBe(true);
    expect(sourceGate("burn::m::Late", files({ "crates/burn/src/lib.rs": many })).kind).toBe("unknown");
    const few = `pub mod m {\n${"pub struct A;\n".repeat(30)}}\n`;
    expect(sourceGate("burn::m::Late", files({ "crates/burn/src/lib.rs": few })).kind).toBe("absent");
  });

  it("caps a file at 1,024 items, eight times what any burn file holds (122), and reads one of 1,000 whole", () => {
    const structs = (n: number) => Array.from({ length: n }, (_, i) => `pub struct S${i};`).join("\n");
    const at = (n: number, path: string) => sourceGate(path, files({ "crates/burn/src/lib.rs": structs(n) })).kind;
    expect(at(1000, "burn::Missing")).toBe("absent");
    expect(at(1000, "burn::S999")).toBe("ungated");
    expect(at(1100, "burn::S5")).toBe("ungated");
    // Past the cap the rest is not read (nor tokenised): a name may be there.
    expect(at(1100, "burn::Missing")).toBe("unknown");
    expect(at(1100, "burn::S1099")).toBe("unknown");
  });
});

describe("a burn path's gate read from burn's source at a release", () => {
  it.each([
    ["v0.22.1", "burn::train::Learner", 'feature = "burn/train"', "crates/burn/src/lib.rs", 14],
    [
      "v0.22.1",
      "burn::backend::Wgpu",
      'all(feature = "burn-core/extension", feature = "burn-dispatch/wgpu")',
      "crates/burn-dispatch/src/lib.rs",
      26,
    ],
    [
      "v0.22.1",
      "burn::backend::NdArray",
      'all(feature = "burn-core/extension", feature = "burn-dispatch/ndarray")',
      "crates/burn-dispatch/src/lib.rs",
      36,
    ],
    [
      "v0.23.0-pre.1",
      "burn::backend::Flex",
      'all(feature = "burn-core/extension", any(feature = "burn-dispatch/flex", default_backend))',
      "crates/burn-dispatch/src/lib.rs",
      31,
    ],
  ])("%s %s", (tag, path, gate, file, cfgLine) => {
    const g = sourceGate(path, tree(tag).read);
    expect(g.kind).toBe("gated");
    if (g.kind !== "gated") return;
    expect(g.gate).toBe(gate);
    expect(g.terms.at(-1)).toMatchObject({ file, cfgLine });
  });

  it("says a path the release does not have is absent, and one it has ungated is ungated", () => {
    expect(sourceGate("burn::backend::NdArray", tree("v0.23.0-pre.1").read)).toEqual({ kind: "absent" });
    expect(sourceGate("burn::backend::LibTorch", tree("v0.23.0-pre.1").read)).toEqual({ kind: "absent" });
    expect(sourceGate("burn::module::Module", tree("v0.23.0-pre.1").read)).toEqual({ kind: "ungated" });
    // Visible only inside burn-core: not a path a user can write.
    expect(sourceGate("burn::macros", tree("v0.22.1").read)).toEqual({ kind: "absent" });
  });

  it("asks for the files on the way, one step at a time, and `name/mod.rs` only after `name.rs` is missing", () => {
    const have = tree("v0.22.1");
    const known = new Map<string, string | null>();
    const read: ReadFile = (p) => (known.has(p) ? known.get(p) : undefined);
    const rounds: string[][] = [];
    for (
      let g = sourceGate("burn::backend::Wgpu", read);
      g.kind === "need";
      g = sourceGate("burn::backend::Wgpu", read)
    ) {
      rounds.push(g.files);
      for (const f of g.files) known.set(f, have.read(f) ?? null);
    }
    expect(rounds).toEqual([
      ["crates/burn/src/lib.rs"],
      ["crates/burn-core/src/lib.rs"],
      ["crates/burn-core/src/backend.rs"],
      ["crates/burn-core/src/backend/mod.rs"],
      ["crates/burn-dispatch/src/lib.rs"],
    ]);
    expect(sourceGate("burn::backend::Wgpu", read).kind).toBe("gated");
  });

  it("never says absent where names may hide: a macro, another crate's glob, a module file not found", () => {
    const lib = "pub use burn_core::*;\n";
    const macro = files({ "crates/burn/src/lib.rs": lib, "crates/burn-core/src/lib.rs": "export_all! {}\n" });
    expect(sourceGate("burn::backend::NdArray", macro).kind).toBe("unknown");
    const external = files({ "crates/burn/src/lib.rs": "pub use cubecl::prelude::*;\n" });
    expect(sourceGate("burn::Anything", external).kind).toBe("unknown");
    const noFile = files({ "crates/burn/src/lib.rs": "pub mod backend;\n" });
    expect(sourceGate("burn::backend::NdArray", noFile).kind).toBe("unknown");
    const noCrate = files({ "crates/burn/src/lib.rs": "pub use burn_core::*;\n" });
    expect(sourceGate("burn::backend::NdArray", noCrate).kind).toBe("unknown");
  });

  it("reads raw strings with any number of #, so a string's text is never read as items", () => {
    for (const hashes of [1, 7, 12, 40]) {
      const h = "#".repeat(hashes);
      const m = rustItems(
        `const S: &str = r${h}"pub mod ghost; "${"#".repeat(hashes - 1)} still inside"${h};\npub mod real;\n`,
      );
      expect([hashes, m!.items.map((i) => i.name)]).toEqual([hashes, ["S", "real"]]);
    }
  });

  it("bounds the loop over a module's globs, not only the recursion: files that glob each other 2,000 times", () => {
    const globsInto = (target: string) =>
      Array.from({ length: 2000 }, (_, i) => `pub use ${target}::m${i}::*;`).join("\n");
    const texts: Record<string, string> = {
      "crates/burn/src/lib.rs": `pub use burn_core::*;\n${globsInto("burn_core")}\n`,
      "crates/burn-core/src/lib.rs": `pub use burn::*;\n${globsInto("crate")}\n`,
    };
    const parsed = countingFiles();
    const g = sourceGate("burn::a::B", (p) => texts[p] ?? null, parsed);
    expect(g.kind).toBe("unknown");
    // Without the cap on the glob loop this was millions (2,000 globs each way, each re-entered).
    expect(parsed.asked).toBeLessThan(20_000);
  });

  it("a module whose file a cfg_attr may move is unknown, never absent", () => {
    const moved = files({
      "crates/burn/src/lib.rs": '#[cfg_attr(feature = "std", path = "other.rs")]\npub mod backend;\n',
      "crates/burn/src/backend.rs": "pub struct Wgpu;\n",
    });
    expect(sourceGate("burn::backend::NdArray", moved).kind).toBe("unknown");
    const plain = files({
      "crates/burn/src/lib.rs": '#[cfg_attr(feature = "std", derive(Debug))]\npub mod backend;\n',
      "crates/burn/src/backend.rs": "pub struct Wgpu;\n",
    });
    expect(sourceGate("burn::backend::NdArray", plain).kind).toBe("absent");
  });

  it("joins cfg-exclusive definitions of one name with any(), and inner #![cfg]s and nested modules with all()", () => {
    const alt = files({
      "crates/burn/src/lib.rs":
        '#[cfg(feature = "fusion")]\npub type Wgpu = Fused;\n#[cfg(not(feature = "fusion"))]\npub type Wgpu = Plain;\n',
    });
    expect(sourceGate("burn::Wgpu", alt)).toMatchObject({
      kind: "gated",
      gate: 'any(feature = "burn/fusion", not(feature = "burn/fusion"))',
    });
    const nested = files({
      "crates/burn/src/lib.rs": '#[cfg(feature = "std")]\npub mod data;\n',
      "crates/burn/src/data.rs":
        '#![cfg(feature = "dataset")]\npub mod vision {\n    #[cfg(target_os = "linux")]\n    pub struct Mnist;\n}\n',
    });
    expect(sourceGate("burn::data::vision::Mnist", nested)).toMatchObject({
      kind: "gated",
      gate: 'all(feature = "burn/std", feature = "burn/dataset", target_os = "linux")',
    });
  });

  it("follows super, crate and local paths, and stops on a cycle of globs", () => {
    const paths = files({
      "crates/burn/src/lib.rs": [
        "mod inner {",
        '    #[cfg(feature = "x")]',
        "    pub struct Deep;",
        '    pub mod again { #[cfg(feature = "x")] pub use super::Deep; }',
        "}",
        '#[cfg(feature = "y")]',
        "pub use inner::again::*;",
        '#[cfg(feature = "x")]',
        "pub use crate::inner::Deep as Aliased;",
        "pub use self::inner::again as Again;",
      ].join("\n"),
    });
    expect(sourceGate("burn::Deep", paths)).toMatchObject({ gate: 'all(feature = "burn/y", feature = "burn/x")' });
    expect(sourceGate("burn::Aliased", paths)).toMatchObject({ gate: 'feature = "burn/x"' });
    expect(sourceGate("burn::Again::Deep", paths)).toMatchObject({ gate: 'feature = "burn/x"', terms: [{ line: 4 }] });
    const cycle = files({
      "crates/burn/src/lib.rs": "pub mod a { pub use crate::b::*; }\npub mod b { pub use crate::a::*; }\n",
    });
    expect(sourceGate("burn::a::Nothing", cycle).kind).toBe("unknown");
  });
});

describe("one event's paths share a budget of steps", () => {
  // Each path follows a thousand globs into a module that lacks it: absent, in ~3,000 steps.
  const texts: Record<string, string> = {
    "crates/burn/src/lib.rs": `pub mod empty;\n${"pub use crate::empty::*;\n".repeat(1000)}`,
    "crates/burn/src/empty.rs": "pub struct X;\n",
  };
  const paths = Array.from({ length: 64 }, (_, i) => `burn::a${i}`);

  it("64 such paths cost one budget of lookups in all, where each alone is answered", () => {
    expect(sourceGate(paths[0]!, files(texts)).kind).toBe("absent");
    const parsed = countingFiles();
    const budget = stepBudget();
    const kinds = paths.map((p) => sourceGate(p, files(texts), parsed, budget).kind);
    expect(kinds.slice(0, 2)).toEqual(["absent", "absent"]);
    expect(kinds.at(-1)).toBe("unknown");
    // Each with its own budget, the 64 took 64,064 lookups.
    expect(parsed.asked).toBeLessThan(EVENT_STEPS);
  });

  it("an event whose paths spend the budget is unknown, not answered from the paths it reached", () => {
    const ref = "v0.22.0-pre.2";
    const sources = Object.fromEntries(Object.entries(texts).map(([p, t]) => [sourceKey(ref, p), t]));
    const finding = (path: string): CompileFinding => ({
      code: "E0433",
      path,
      exact: true,
      printed: "",
      at: null,
      note: null,
    });
    expect(fromSource(ref, paths.slice(0, 1).map(finding), sources).kind).toBe("answer");
    expect(fromSource(ref, paths.map(finding), sources)).toEqual({ kind: "unknown" });
  });
});
