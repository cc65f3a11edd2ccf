import { describe, expect, it } from "@jest/globals";
import { effectiveDecl, parseManifest } from "../../src/cargo/manifest/manifest.js";
import { TomlError } from "../../src/cargo/manifest/toml.js";

const one = (text: string) => parseManifest(text).dependencies.find((d) => d.name === "burn")!;

describe("manifest model: every dependency form", () => {
  it("plain string", () => {
    expect(one('[dependencies]\nburn = "0.22.0-pre.2"\n')).toMatchObject({
      form: "string",
      version: "0.22.0-pre.2",
      features: [],
      defaultFeatures: null,
      line: 2,
    });
  });
  it("inline table", () => {
    expect(
      one('[dependencies]\nburn = { version = "0.21", default-features = false, features = ["wgpu"] }\n'),
    ).toMatchObject({ form: "inline", defaultFeatures: false, features: ["wgpu"] });
  });
  it("[dependencies.burn] sub-table", () => {
    expect(
      one('[package]\nname = "x"\n\n[dependencies.burn]\nversion = "0.22.0-pre.2"\nfeatures = ["cuda"]\n'),
    ).toMatchObject({ form: "table", features: ["cuda"], line: 4 });
  });
  it("dotted keys", () => {
    expect(one('[dependencies]\nburn.version = "0.22.0-pre.2"\nburn.default-features = false\n')).toMatchObject({
      form: "dotted",
      defaultFeatures: false,
      version: "0.22.0-pre.2",
    });
  });
  it("top-level dotted keys", () => {
    expect(one('dependencies.burn.version = "0.22.0-pre.2"\n')).toMatchObject({ form: "dotted" });
  });
  it("renamed dependency", () => {
    expect(one('[dependencies]\nnn = { package = "burn", version = "0.22.0-pre.2" }\n')).toMatchObject({
      key: "nn",
      name: "burn",
    });
  });
  it("dev, build and target tables", () => {
    const m = parseManifest(
      '[dev-dependencies]\nburn = "0.22.0-pre.2"\n[build-dependencies]\nburn = "0.22.0-pre.2"\n[target.\'cfg(target_os = "macos")\'.dependencies]\nburn = { version = "0.22.0-pre.2", features = ["metal"] }\n',
    );
    expect(m.dependencies.map((d) => [d.kind, d.target])).toEqual([
      ["dev", null],
      ["build", null],
      ["normal", 'cfg(target_os = "macos")'],
    ]);
  });
  it("git, path and optional", () => {
    expect(
      one('[dependencies]\nburn = { git = "https://github.com/tracel-ai/burn", optional = true }\n'),
    ).toMatchObject({ git: "https://github.com/tracel-ai/burn", optional: true, version: null });
    expect(one('[dependencies]\nburn = { path = "../burn/crates/burn" }\n')).toMatchObject({
      path: "../burn/crates/burn",
    });
  });
  it("features that forward and workspace facts", () => {
    const m = parseManifest(
      '[workspace]\nmembers = ["a", "b/*"]\n[workspace.package]\nedition = "2024"\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false }\n[package]\nname = "r"\nedition.workspace = true\n[features]\ntrain = ["burn/train"]\n',
    );
    expect(m).toMatchObject({
      isWorkspaceRoot: true,
      members: ["a", "b/*"],
      edition: "2024",
      editionInherited: true,
      features: { train: ["burn/train"] },
    });
    expect(m.workspaceDependencies[0]).toMatchObject({ inWorkspaceTable: true, defaultFeatures: false });
  });
});

describe("workspace inheritance", () => {
  const root = parseManifest(
    '[workspace]\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }\n',
  );
  it("adds member features to the workspace's", () => {
    const member = one('[dependencies]\nburn = { workspace = true, features = ["cuda"] }\n');
    expect(effectiveDecl(member, root)).toMatchObject({
      version: "0.22.0-pre.2",
      defaultFeatures: false,
      features: ["std", "cuda"],
    });
  });
  it("a member cannot turn off defaults the root keeps, but can turn them back on", () => {
    const withDefaults = parseManifest('[workspace.dependencies]\nburn = "0.22.0-pre.2"\n');
    expect(
      effectiveDecl(one("[dependencies]\nburn = { workspace = true, default-features = false }\n"), withDefaults)
        .defaultFeatures,
    ).toBeNull();
    expect(
      effectiveDecl(one("[dependencies]\nburn = { workspace = true, default-features = true }\n"), root)
        .defaultFeatures,
    ).toBe(true);
  });
});

describe("malformed TOML", () => {
  it.each([
    ['[dependencies]\nburn = { version = "0.22", features = ["wgpu" }\n', 2],
    // A missing value is noticed where the next token starts.
    ["[dependencies]\nburn = \n", 3],
    ['[dependencies]\nburn = "1"\nburn = "2"\n', 3],
    ["[package\nname = 1\n", 2],
  ])("%j → TomlError with a line", (text, line) => {
    let err: unknown;
    try {
      parseManifest(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TomlError);
    expect((err as TomlError).line).toBe(line);
    expect((err as TomlError).column).toBeGreaterThanOrEqual(1);
  });
});
