// The evidence a text shows decides what the comment may say (fixtures/evidence/cases.yml).
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { load } from "js-yaml";
import { analyze } from "../../src/answer/analyze.js";
import { declaresBurn } from "../../src/cargo/manifest/facts.js";
import { detectCompile } from "../../src/compile/detect.js";
import { versionFromPaths, versionFromProse } from "../../src/evidence/version.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { fixture } from "../helpers/fixtures.js";

interface Case {
  name: string;
  text: string;
  version?: string;
  source?: string;
  says?: string[];
  never?: string[];
}

const data = load(fixture("evidence/cases.yml")) as { cases: Case[] };
/** `{{file}}` → that file of fixtures/evidence, indented as the placeholder is. */
const expand = (text: string) =>
  text.replace(/^([ \t]*)\{\{([\w.-]+)\}\}$/gm, (_m, indent: string, file: string) =>
    fixture(`evidence/${file}`).trimEnd().replace(/^/gm, indent),
  );

describe("what the text shows", () => {
  it.each(data.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const a = analyze({ text: expand(c.text) });
    const body = renderIssueComment(a);
    expect(body).not.toBeNull();
    const version =
      a.kind === "compile"
        ? { version: a.compile.release.version, source: a.compile.release.source }
        : a.kind === "panic"
          ? { version: a.version.version, source: a.version.source }
          : null;
    if (c.version) expect(version?.version).toBe(c.version);
    if (c.source) expect(version?.source).toBe(c.source);
    for (const s of c.says ?? []) expect(body).toContain(s);
    for (const s of c.never ?? []) expect(body).not.toContain(s);
  });
});

describe("version evidence", () => {
  it("crate paths: burn's crates only, any layout of the registry path", () => {
    expect(
      versionFromPaths(
        " --> /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-core-0.20.0-pre.2/src/lib.rs:3:9",
      ),
    ).toBe("0.20.0-pre.2");
    expect(
      versionFromPaths(
        "C:\\Users\\u\\.cargo\\registry\\src\\index.crates.io-1949cf8c6b5b557f\\burn-0.19.1\\src\\lib.rs",
      ),
    ).toBe("0.19.1");
    expect(versionFromPaths("/home/u/.cargo/registry/src/x/serde-1.0.200/src/lib.rs")).toBeNull();
    expect(versionFromPaths("/home/u/.cargo/registry/src/x/burnish-0.1.0/src/lib.rs")).toBeNull();
  });

  it("cargo's own status line names the build's burn (cargo 1.95, plain and coloured)", () => {
    expect(versionFromPaths("   Compiling burn-core v0.20.1\n   Compiling mnist v0.1.0 (/home/u/mnist)")).toBe(
      "0.20.1",
    );
    expect(versionFromPaths("\x1b[1m\x1b[92m   Compiling\x1b[0m burn v0.23.0-pre.1 (/tmp/cst/burn)")).toBe(
      "0.23.0-pre.1",
    );
    expect(versionFromPaths("   Compiling serde v1.0.200\n   Compiling burnish v0.1.0")).toBeNull();
    // Prose is not cargo's status line.
    expect(versionFromPaths("after Compiling burn v0.22.1 it fails")).toBeNull();
  });

  it.each([
    ["we use burn 0.16.0", "0.16.0"],
    ['burn = "0.19"', "0.19.0"],
    ["burn v0.20.1 here", "0.20.1"],
    ["burn version 0.22.1", "0.22.1"],
    ["burn-core 0.20.0-pre.3", "0.20.0-pre.3"],
    ["wgpu 0.19 and tokio 1.0", null],
    ["burn with wgpu 0.19", null],
  ])("prose %j → %s", (text, v) => expect(versionFromProse(text)).toBe(v));
});

describe("rustc's configured-out note", () => {
  it("names the crate, its version, the #[cfg] line and the feature", () => {
    const [wgpu, train] = detectCompile(fixture("evidence/rustc-1.95-e0432-group-0.22.1.txt"));
    expect(wgpu!.note).toEqual({
      crate: "burn",
      version: "0.22.1",
      file: "crates/burn/src/lib.rs",
      cfgLine: 7,
      feature: "wgpu",
      cfg: 'feature = "wgpu"',
    });
    expect(train!.note).toMatchObject({ cfgLine: 2, feature: "train" });
  });

  it("is read from a git checkout's path too, and not from a note about a cfg that is no feature", () => {
    const git =
      'error[E0432]: unresolved import `burn::train`\n --> src/main.rs:2:11\n  |\nnote: found an item that was configured out\n --> /home/u/.cargo/git/checkouts/burn-1a2b/2c06be3/crates/burn-core/src/lib.rs:40:9\n  |\n39 | #[cfg(feature = "std")]\n   |       --------------- the item is gated behind the `std` feature\n';
    expect(detectCompile(git)[0]!.note).toEqual({
      crate: "burn-core",
      version: null,
      file: "crates/burn-core/src/lib.rs",
      cfgLine: 39,
      feature: "std",
      cfg: 'feature = "std"',
    });
    const os =
      "error[E0432]: unresolved import `burn::train`\n --> src/main.rs:2:11\nnote: found an item that was configured out\n --> /r/burn-0.22.1/src/lib.rs:3:9\n  |\n2 | #[cfg(unix)]\n  |       ---- the item is gated here\n";
    expect(detectCompile(os)[0]!.note).toBeNull();
  });
});

describe("a repository manifest declares burn when the parser says so", () => {
  it.each([
    ["[target.'cfg(unix)'.dependencies.burn]\nversion = \"0.22.0-pre.2\"\n", true],
    ['[dev-dependencies.burn]\nversion = "0.22.0-pre.2"\n', true],
    ['[dependencies]\nnn = { package = "burn", version = "0.22.0-pre.2" }\n', true],
    ['[dependencies]\nburn = { path = "../burn" }\n', true],
    ['[package]\nname = "x"\n[dependencies]\nserde = "1"\n# burn = "0.20"\n', false],
    ['[package]\nname = "burn-utils-user"\n[dependencies]\nburn-utils = { path = "../burn-utils" }\n', false],
  ])("%j → %s", (text, expected) => expect(declaresBurn(text)).toBe(expected));
});

describe("a fragment never claims the manifest declares no burn crate", () => {
  const panic =
    "```\nthread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n```\n";
  const compile = `\`\`\`\n${fixture("evidence/rustc-1.95-e0433-train.txt")}\`\`\`\n`;
  const line = fc.constantFrom(
    'serde = "1"',
    'tokio = { version = "1", features = ["full"] }',
    'gpu = ["burn/wgpu"]',
    'default = ["gpu"]',
    'anyhow = "1"',
    "# burn is in the workspace",
  );
  const header = fc.constantFrom(
    "[dependencies]",
    "[features]",
    "[dev-dependencies]",
    "[build-dependencies]",
    "[target.'cfg(unix)'.dependencies]",
  );
  it("for any table of other crates and features, after a panic or a rustc error", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(header, fc.array(line, { maxLength: 3 })), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (tables, isPanic) => {
          const toml = tables.map(([h, ls]) => [h, ...ls].join("\n")).join("\n\n");
          const body = renderIssueComment(
            analyze({ text: `${isPanic ? panic : compile}\n\`\`\`toml\n${toml}\n\`\`\`\n` }),
          );
          expect(body ?? "").not.toContain("declares no burn crate");
          if (!isPanic) expect(body ?? "").not.toContain("panicking binary");
        },
      ),
      { numRuns: 150 },
    );
  });
});
