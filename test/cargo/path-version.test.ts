import { describe, expect, it } from "@jest/globals";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { burnPathVersion, crateVersion, pathManifest } from "../../src/cargo/manifest/path-version.js";
import { pathCrateReads } from "../../src/review/pull-request.js";

// A path dependency on burn points to a checkout whose Cargo.toml names its version: read, it is
// the release judged (burn's own examples, old checkouts); unread, main's graph is assumed.
const files = (m: Record<string, string>) => (p: string) => m[p] ?? null;
const ROOT = '[workspace]\nmembers = ["crates/*"]\n\n[workspace.package]\nversion = "0.16.0"\n';
const CRATE = '[package]\nname = "burn"\nversion.workspace = true\n';

describe("the version of a burn checkout a path dependency points to", () => {
  it("resolves the path from where it is written, and never above the repository", () => {
    expect(pathManifest("examples/mnist/Cargo.toml", "../../crates/burn")).toBe("crates/burn/Cargo.toml");
    expect(pathManifest("Cargo.toml", "crates\\burn/")).toBe("crates/burn/Cargo.toml");
    expect(pathManifest("app/Cargo.toml", "../../burn")).toBeNull();
    expect(pathManifest("Cargo.toml", "/opt/burn")).toBeNull();
    expect(pathManifest("/home/u/app/Cargo.toml", "../burn")).toBe("/home/u/burn/Cargo.toml");
  });

  it("reads the crate's own version, or its workspace's for `version.workspace = true`", () => {
    expect(
      crateVersion("burn/Cargo.toml", files({ "burn/Cargo.toml": '[package]\nname = "burn"\nversion = "0.10.0"\n' })),
    ).toBe("0.10.0");
    expect(crateVersion("crates/burn/Cargo.toml", files({ "crates/burn/Cargo.toml": CRATE, "Cargo.toml": ROOT }))).toBe(
      "0.16.0",
    );
    // No root read, a root without [workspace.package], a file that does not parse: no version.
    expect(crateVersion("crates/burn/Cargo.toml", files({ "crates/burn/Cargo.toml": CRATE }))).toBeNull();
    expect(
      crateVersion("crates/burn/Cargo.toml", files({ "crates/burn/Cargo.toml": CRATE, "Cargo.toml": "[workspace]\n" })),
    ).toBeNull();
    expect(crateVersion("burn/Cargo.toml", files({ "burn/Cargo.toml": "[package\n" }))).toBeNull();
  });

  it("follows a path inherited from the root's [workspace.dependencies], written relative to the root", () => {
    const root = { path: "Cargo.toml", text: `${ROOT}\n[workspace.dependencies]\nburn = { path = "crates/burn" }\n` };
    const member = '[package]\nname = "x"\n\n[dependencies]\nburn = { workspace = true }\n';
    const read = files({ "crates/burn/Cargo.toml": CRATE, "Cargo.toml": root.text });
    expect(burnPathVersion("examples/x/Cargo.toml", member, root, read)).toBe("0.16.0");
  });

  it("an exact requirement on the path dependency names the release; a range does not", () => {
    const d = (req: string) =>
      diagnose(
        parseManifest(
          `[dependencies]\nburn = { path = "../burn", version = "${req}", default-features = false, features = ["std"] }\n`,
        ),
      );
    expect([d("=0.20.1").graphVersion, d("=0.20.1").selected?.source, d("=0.20.1").assumed]).toEqual([
      "0.20.1",
      "path-version",
      {},
    ]);
    expect(d("0.20").assumed.graph).toMatchObject({ kind: "path" });
  });

  it("a release read from a checkout is judged on its graph, and no refusal is claimed from it", () => {
    // `router` left burn after 0.22.0-pre.2 was tagged; a checkout after the tag may still have it, or
    // have a feature the tag lacks: the tag's feature list does not speak for the checkout.
    const m = parseManifest('[dependencies]\nburn = { path = "../burn", features = ["not-in-the-tag"] }\n');
    const d = diagnose(m, { burnVersion: "0.22.0-pre.2", burnVersionSource: "path-version" });
    expect([d.graphVersion, d.verdict === "refused"]).toEqual(["0.22.0-pre.2", false]);
  });

  it("a PR's reads: the crate the path points to and the manifests above it, at each side", () => {
    const example = '[package]\nname = "mnist"\n\n[dependencies]\nburn = { path = "../../crates/burn" }\n';
    const reads = pathCrateReads({
      changed: [{ path: "examples/mnist/Cargo.toml", status: "modified" }],
      head: { "examples/mnist/Cargo.toml": example },
      base: { "examples/mnist/Cargo.toml": example },
      tree: ["Cargo.toml", "crates/burn/Cargo.toml", "examples/mnist/Cargo.toml"],
    });
    expect(reads).toEqual(["Cargo.toml", "crates/burn/Cargo.toml"]);
  });
});
