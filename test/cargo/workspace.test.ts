import { describe, expect, it } from "@jest/globals";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { ancestorManifests, governingRoot, isMemberDir, membersOf } from "../../src/cargo/manifest/workspace.js";

const root = (members: string[], exclude: string[] = []) =>
  parseManifest(`[workspace]\nmembers = ${JSON.stringify(members)}\nexclude = ${JSON.stringify(exclude)}\n`);
const pkg = (extra = "") => parseManifest(`[package]\nname = "x"\nversion = "0.1.0"\n${extra}`);

describe("cargo's workspace rules", () => {
  it.each([
    [["crates/*"], "crates/trainer", true],
    [["crates/*"], "crates/a/b", false],
    [["examples/**"], "examples/mnist/nested", true],
    [["crates/trainer"], "crates/trainer", true],
    [["./crates/trainer/"], "crates/trainer", true],
    [["crates/*"], "tools/x", false],
  ])("members %j take in %s: %s", (members, dir, yes) => {
    expect(isMemberDir("", root(members), dir)).toBe(yes);
  });
  it("exclude wins over a glob, for the directory and below it", () => {
    expect(isMemberDir("", root(["crates/*"], ["crates/legacy"]), "crates/legacy")).toBe(false);
    expect(isMemberDir("", root(["**"], ["models"]), "models/x/trainer")).toBe(false);
  });
  it("the nearest workspace decides; a nested workspace governs its own members", () => {
    const files: Record<string, ReturnType<typeof parseManifest>> = {
      "Cargo.toml": root(["tools/*"], ["models"]),
      "models/x/Cargo.toml": root(["trainer"]),
    };
    const tree = new Set(["Cargo.toml", "models/x/Cargo.toml", "models/x/trainer/Cargo.toml", "tools/lint/Cargo.toml"]);
    const read = (p: string) => files[p] ?? null;
    expect(ancestorManifests("models/x/trainer/Cargo.toml", tree)).toEqual(["models/x/Cargo.toml", "Cargo.toml"]);
    expect(
      governingRoot("models/x/trainer/Cargo.toml", pkg(), ancestorManifests("models/x/trainer/Cargo.toml", tree), read),
    ).toBe("models/x/Cargo.toml");
    expect(governingRoot("tools/lint/Cargo.toml", pkg(), ancestorManifests("tools/lint/Cargo.toml", tree), read)).toBe(
      "Cargo.toml",
    );
  });
  it("a package the nearest root does not take in belongs to no workspace", () => {
    const read = () => root(["crates/*"]);
    expect(governingRoot("scratch/Cargo.toml", pkg(), ["Cargo.toml"], read)).toBeNull();
  });
  it("package.workspace names the root; a root governs itself", () => {
    expect(governingRoot("apps/cli/Cargo.toml", pkg('workspace = "../.."\n'), [], () => null)).toBe("Cargo.toml");
    expect(governingRoot("apps/cli/Cargo.toml", pkg('workspace = "../../../outside"\n'), [], () => null)).toBeNull();
    expect(governingRoot("Cargo.toml", root(["a"]), [], () => null)).toBe("Cargo.toml");
  });
  it("members of a root come from the tree, in path order, never the root itself", () => {
    const tree = [
      "Cargo.toml",
      "crates/z/Cargo.toml",
      "crates/a/Cargo.toml",
      "crates/a/src/lib.rs",
      "other/Cargo.toml",
    ];
    expect(membersOf("Cargo.toml", root(["crates/*"]), tree)).toEqual(["crates/a/Cargo.toml", "crates/z/Cargo.toml"]);
    expect(
      membersOf("models/x/Cargo.toml", root(["*"]), [
        "models/x/Cargo.toml",
        "models/x/t/Cargo.toml",
        "models/y/Cargo.toml",
      ]),
    ).toEqual(["models/x/t/Cargo.toml"]);
  });
});
