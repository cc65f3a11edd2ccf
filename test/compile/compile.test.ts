import { describe, expect, it } from "@jest/globals";
import { load } from "js-yaml";
import { analyze } from "../../src/answer/analyze.js";
import { gatedFindings } from "../../src/compile/analyze.js";
import { burnAliases, detectCompile, failingCrate } from "../../src/compile/detect.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { analyzeCompile } from "../helpers/analysis.js";
import { fixture } from "../helpers/fixtures.js";

interface Case {
  name: string;
  text: string;
  paths: string[];
  add?: string[];
  link?: string;
  unverified?: boolean;
  assumed?: string;
  /** A sentence the comment's "Why it is off here" must hold. */
  why?: string;
}
const data = load(fixture("compile/cases.yml")) as { cases: Case[]; silent: Array<{ name: string; text: string }> };

describe("rustc errors for feature-gated burn paths", () => {
  it("covers every error form across the 0.16, 0.20, 0.21 and 0.22 layouts", () => {
    const codes = new Set(data.cases.flatMap((c) => detectCompile(c.text).map((f) => f.code)));
    expect([...codes].sort()).toEqual(["E0277", "E0412", "E0422", "E0425", "E0432", "E0433"]);
    const versions = data.cases.map((c) => analyzeCompile({ text: c.text })?.release.version.slice(0, 4));
    for (const v of ["0.16", "0.20", "0.21", "0.22"]) expect(versions).toContain(v);
  });

  it.each(data.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const a = analyze({ text: c.text });
    expect(a.kind).toBe("compile");
    const compile = analyzeCompile({ text: c.text })!;
    expect(compile.items.map((i) => i.path)).toEqual(c.paths);
    const body = renderIssueComment(a)!;
    for (const p of c.paths) expect(body).toContain(`\`${p}\` sits under`);
    if (c.link) expect(body).toContain(`(https://github.com/tracel-ai/burn/blob/${c.link})`);
    if (c.add) {
      const plan = compile.manifest?.plan;
      expect(plan?.kind).toBe("fixed");
      if (plan?.kind !== "fixed") return;
      expect(plan.change.added).toEqual(c.add);
      expect(body).toContain("**Fix**");
      expect(body).toMatch(
        /Verified on burn `[^`]+`<\/summary>\n\n<sub>Its feature graph from .*: the gate of .* holds/,
      );
    }
    if (c.assumed) expect(body).toContain(c.assumed);
    if (c.why) expect(body).toContain(c.why);
    if (c.unverified) {
      expect(compile.manifest).toBeNull();
      expect(body).toContain("**I could not see your Cargo.toml.**");
      expect(body).toContain('`features = ["train"]`');
      expect(body).not.toContain("**Fix**");
    }
  });
});

describe("silence", () => {
  it("a typo inside a module that exists is not that module's feature being off", () => {
    // rustc reports the exact item (`no \`Lerner\` in \`train\``): burn::train exists, so the
    // path's parent is not searched for a gate.
    const typo =
      "error[E0432]: unresolved import `burn::train::Lerner`\n --> src/main.rs:1:5\n  |\n1 | use burn::train::Lerner;\n  |     ^^^^^^^^^^^^^^^^^^^ no `Lerner` in `train`\n";
    expect(detectCompile(typo)).toMatchObject([{ path: "burn::train::Lerner", exact: true }]);
    expect(gatedFindings(typo)).toEqual([]);
    expect(gatedFindings(typo.replaceAll("Lerner", "Learner"))).toHaveLength(1);
  });

  it.each(data.silent.map((c) => [c.name, c.text] as const))("%s", (_name, text) => {
    expect(renderIssueComment(analyze({ text }))).toBeNull();
  });

  it("text without these error codes costs one regex test", () => {
    expect(detectCompile("error: linking with `cc` failed\nwarning: unused import `burn::train`")).toEqual([]);
    expect(gatedFindings("error[E0432]: unresolved import `crate::model`")).toEqual([]);
  });
});

describe('a renamed dependency (`burn2 = { package = "burn" }`)', () => {
  const log = (color = false) => fixture(`compile/rustc-1.95/e0433-renamed-burn2-0.22${color ? "-color" : ""}.txt`);
  const manifest =
    '[dependencies]\nburn2 = { package = "burn", version = "0.22.0-pre.2", default-features = false, features = ["std"] }\n';
  const issue = (rustc: string, toml: string | null) =>
    `\`\`\`\n${rustc}\`\`\`\n${toml === null ? "" : `\n\`\`\`toml\n${toml}\`\`\`\n`}`;

  it.each([false, true])("rustc's `burn2::train` is burn's `train` module (coloured: %s)", (color) => {
    const c = analyzeCompile({ text: issue(log(color), manifest) })!;
    expect(c.items.map((i) => i.path)).toEqual(["burn::train"]);
    const plan = c.manifest?.plan;
    expect(plan?.kind === "fixed" && plan.change.added).toEqual(["train"]);
    const body = renderIssueComment(analyze({ text: issue(log(color), manifest) }))!;
    // What rustc printed is quoted as printed.
    expect(body).toContain("unresolved import `burn2::train`");
  });

  it("without a manifest that renames burn, `burn2` is another crate: silent", () => {
    expect(detectCompile(log())).toEqual([]);
    expect(renderIssueComment(analyze({ text: issue(log(), '[dependencies]\nburn2 = "1"\n') }))).toBeNull();
  });

  it("reads the three ways a manifest renames burn", () => {
    expect(burnAliases('[dependencies]\nburn2 = { package = "burn", version = "0.22" }\n')).toEqual(["burn2"]);
    expect(burnAliases('[dependencies.my-burn]\nversion = "0.22"\npackage = "burn"\n')).toEqual(["my_burn"]);
    expect(burnAliases('[dependencies]\nnn.package = "burn"\nnn.version = "0.22"\n')).toEqual(["nn"]);
    expect(burnAliases('[dependencies]\nburn = { version = "0.22" }\n')).toEqual([]);
  });
});

describe("the crate that failed", () => {
  const log = (krate: string, at: string) =>
    `\`\`\`\n   Compiling ${krate} v0.3.2\nerror[E0433]: failed to resolve: could not find \`train\` in \`burn\`\n --> ${at}:3:11\n  |\n3 | use burn::train::Learner;\n  |           ^^^^^ could not find \`train\` in \`burn\`\n\nerror: could not compile \`${krate}\` (lib) due to 1 previous error\n\`\`\`\n\n\`\`\`toml\n[package]\nname = "detector"\nversion = "0.1.0"\n\n[dependencies]\nburn = { version = "0.20.1", default-features = false, features = ["std", "wgpu"] }\nyolo-burn = "0.3.2"\n\`\`\`\n`;
  const registry = "/home/me/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/yolo-burn-0.3.2/src/backend.rs";

  it("a dependency's error is named, with the assumption under which the edit helps", () => {
    const text = log("yolo-burn", registry);
    expect(analyzeCompile({ text })!.failingCrate).toBe("yolo-burn");
    const body = renderIssueComment(analyze({ text }))!;
    expect(body).toContain("The error is in `yolo-burn`, a dependency, not in your own crate");
    expect(body).toContain("`cargo tree -i burn`");
  });

  it("the reporter's own crate, or a burn crate, is not called a dependency", () => {
    expect(analyzeCompile({ text: log("detector", "src/backend.rs") })!.failingCrate).toBeNull();
    expect(failingCrate("error: could not compile `burn-core` (lib)", null)).toBeNull();
    // Only the registry path shows it: still named.
    expect(failingCrate(`error[E0433]: x\n --> ${registry}:3:11\n`, "detector")).toBe("yolo-burn");
  });

  // Real reports paste the log without their manifest: the crate cargo built from a local path is
  // theirs, whatever `could not compile` names.
  const ownLog = (compiling: string, at: string, krate = "myapp") =>
    `\`\`\`\n   Compiling burn-core v0.20.1\n   ${compiling}\nerror[E0433]: failed to resolve: could not find \`train\` in \`burn\`\n --> ${at}:3:11\n  |\n3 | use burn::train::Learner;\n  |           ^^^^^ could not find \`train\` in \`burn\`\n\nerror: could not compile \`${krate}\` (bin "${krate}") due to 1 previous error\n\`\`\`\n`;

  it("a crate cargo built from a local path is the reporter's own, never 'a dependency'", () => {
    for (const compiling of [
      "Compiling myapp v0.3.0 (/home/ana/code/myapp)",
      "Compiling myapp v0.3.0 (C:\\Users\\ana\\myapp)",
    ]) {
      const text = ownLog(compiling, "src/main.rs");
      expect(failingCrate(text, null)).toBeNull();
      const body = renderIssueComment(analyze({ text })) ?? "";
      expect(body).not.toContain("a dependency, not in your own crate");
    }
    // `could not compile` alone proves nothing about whose crate it is.
    expect(failingCrate('error: could not compile `myapp` (bin "myapp") due to 1 previous error', null)).toBeNull();
    // A workspace member built from a path, its error in its own folder: still not a dependency.
    expect(
      failingCrate(ownLog("Compiling model v0.1.0 (/src/ws/crates/model)", "crates/model/src/lib.rs", "model"), null),
    ).toBeNull();
  });

  it("a dependency is one the text proves: a registry or git build, a checkout path, vendor/, a declaration", () => {
    expect(failingCrate(ownLog("Compiling yolo-burn v0.3.2", "src/lib.rs", "yolo-burn"), null)).toBe("yolo-burn");
    expect(
      failingCrate(
        ownLog("Compiling yolo v0.1.0 (https://github.com/x/yolo?rev=1a2b3c4#1a2b3c4d)", "src/lib.rs", "yolo"),
        null,
      ),
    ).toBe("yolo");
    const checkout = "/home/ana/.cargo/git/checkouts/yolo-rs-0a1b2c3d4e5f6a7b/1a2b3c4/src/lib.rs";
    expect(failingCrate(`error[E0433]: x\n --> ${checkout}:3:11\n`, null)).toBe("yolo-rs");
    const nested = "/home/ana/.cargo/git/checkouts/models-0a1b2c3d4e5f6a7b/1a2b3c4/squeezenet-burn/src/model.rs";
    expect(failingCrate(`error[E0433]: x\n --> ${nested}:3:11\n`, null)).toBe("squeezenet-burn");
    expect(failingCrate("error[E0433]: x\n --> vendor/yolo-burn/src/lib.rs:3:11\n", null)).toBe("yolo-burn");
    const declared = "error: could not compile `yolo-burn` (lib) due to 1 previous error";
    expect(failingCrate(declared, null, ["yolo-burn"])).toBe("yolo-burn");
    expect(failingCrate(declared, null, ["serde"])).toBeNull();
  });
});
