import { describe, expect, it } from "@jest/globals";
import { planFix, planWorkspaceFix, verify } from "../../src/cargo/fix/fix.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { fixture } from "../helpers/fixtures.js";

const V = "0.22.0-pre.2";
function fixed(text: string, root?: string) {
  const plan = planFix({ path: "Cargo.toml", text }, { root: root ? { path: "Cargo.toml", text: root } : null });
  if (plan.kind !== "fixed")
    throw new Error(`expected a fix, got ${plan.kind}: ${"reason" in plan ? plan.reason : ""}`);
  return plan.change;
}

describe("editor: the minimal edit for each form", () => {
  it.each([
    [
      "one-line array",
      `[dependencies]\nburn = { version = "${V}", default-features = false, features = ["std", "wgpu"] }\n`,
      `features = ["std", "wgpu", "autodiff"] }`,
    ],
    [
      "literal quotes",
      `[dependencies]\nburn = { version = "${V}", default-features = false, features = ['wgpu'] }\n`,
      `features = ['wgpu', 'autodiff'] }`,
    ],
    [
      "empty array",
      `[dependencies]\nburn = { version = "${V}", default-features = false, features = [] }\n`,
      `features = ["autodiff"] }`,
    ],
    [
      "inline table without features",
      `[dependencies]\nburn = { version = "${V}", default-features = false }\n`,
      `default-features = false, features = ["autodiff"] }`,
    ],
    [
      "sub-table",
      `[dependencies.burn]\nversion = "${V}"\ndefault-features = false\n\n[dependencies.serde]\nversion = "1"\n`,
      `default-features = false\nfeatures = ["autodiff"]\n\n[dependencies.serde]`,
    ],
    [
      "dotted keys",
      `[dependencies]\nburn.version = "${V}"\nburn.default-features = false\nserde = "1"\n`,
      `burn.default-features = false\nburn.features = ["autodiff"]\nserde = "1"`,
    ],
    [
      "renamed",
      `[dependencies]\nnn = { package = "burn", version = "${V}", default-features = false }\n`,
      `nn = { package = "burn", version = "${V}", default-features = false, features = ["autodiff"] }`,
    ],
    [
      "0.21 string needs a pair",
      `[dependencies]\nburn = "0.21.0"\n`,
      `burn = { version = "0.21.0", features = ["autodiff", "dispatch"] }`,
    ],
  ])("%s", (_name, text, expected) => {
    const c = fixed(text);
    expect(c.after).toContain(expected);
  });

  it("multi-line array: new line, same indentation, trailing comma kept", () => {
    const text = `[dependencies]\nburn = { version = "${V}", default-features = false, features = [\n    "std",\n    "wgpu", # GPU\n] }\n`;
    expect(fixed(text).after).toBe(
      `[dependencies]\nburn = { version = "${V}", default-features = false, features = [\n    "std",\n    "wgpu", # GPU\n    "autodiff",\n] }\n`,
    );
  });

  it("multi-line array without trailing comma keeps the comment on its line", () => {
    const text = `[dependencies]\nburn = { version = "${V}", default-features = false, features = [\n  "std",\n  "wgpu" # GPU\n] }\n`;
    expect(fixed(text).after).toContain(`  "wgpu", # GPU\n  "autodiff"\n] }`);
  });

  it("keeps CRLF line endings", () => {
    const c = fixed(`[dependencies.burn]\r\nversion = "${V}"\r\ndefault-features = false\r\n`);
    expect(c.after).toBe(
      `[dependencies.burn]\r\nversion = "${V}"\r\ndefault-features = false\r\nfeatures = ["autodiff"]\r\n`,
    );
  });

  it("edits the member, not the workspace root", () => {
    const root = fixture("workspace/Cargo.toml");
    const member = fixture("workspace/crates/trainer/Cargo.toml");
    const c = fixed(member, root);
    expect(c.after).toContain('burn = { workspace = true, features = ["cuda", "autodiff"] }');
    // The macOS-only table is left alone: the unconditional entry applies on every target.
    expect(c.after).toContain(
      '[target.\'cfg(target_os = "macos")\'.dependencies]\nburn = { workspace = true, features = ["metal"] }',
    );
  });

  it("gives a GitHub suggestion for exactly the changed lines", () => {
    const c = fixed(`[package]\nname = "x"\n\n[dependencies]\nburn = { version = "${V}", default-features = false }\n`);
    expect(c.suggestion).toEqual({
      startLine: 5,
      endLine: 5,
      lines: [`burn = { version = "${V}", default-features = false, features = ["autodiff"] }`],
    });
    expect(c.diff).toContain(`+burn = { version = "${V}", default-features = false, features = ["autodiff"] }`);
  });

  it("survives non-ASCII text before the dependency (UTF-16 offsets)", () => {
    const c = fixed(
      `# 🔥 模型 — ünïcödé\n[package]\nname = "é"\ndescription = "𝔘𝔫𝔦"\n[dependencies]\nburn = { version = "${V}", default-features = false }\n`,
    );
    expect(c.after).toContain(`burn = { version = "${V}", default-features = false, features = ["autodiff"] }`);
    expect(c.after.startsWith("# 🔥 模型 — ünïcödé\n")).toBe(true);
  });
});

describe("planWorkspaceFix", () => {
  it("edits [workspace.dependencies] so the inheriting member resolves on", () => {
    const root = { path: "Cargo.toml", text: fixture("workspace/Cargo.toml") };
    const member = { path: "crates/trainer/Cargo.toml", text: fixture("workspace/crates/trainer/Cargo.toml") };
    const plan = planWorkspaceFix(root, member);
    expect(plan.kind).toBe("fixed");
    if (plan.kind !== "fixed") return;
    expect(plan.change.path).toBe("Cargo.toml");
    expect(plan.change.after).toContain('    "fusion",\n    "autodiff",\n] }');
    expect(plan.change.suggestion.startLine).toBe(13);
  });
});

describe("planFix outcomes", () => {
  it("already on: no change and the reason", () => {
    const plan = planFix({ path: "Cargo.toml", text: `[dependencies]\nburn = "${V}"\n` });
    expect(plan.kind).toBe("already-on");
    expect(plan.kind === "already-on" && plan.diagnosis.state.chain.length).toBeGreaterThan(2);
  });
  it("malformed TOML: file, line and column", () => {
    const plan = planFix({ path: "crates/a/Cargo.toml", text: "[dependencies]\nburn = {\n" });
    expect(plan).toMatchObject({ kind: "invalid-toml", path: "crates/a/Cargo.toml" });
  });
  it("0.21.0-pre.2: no burn feature reaches it, so no fix is invented", () => {
    const plan = planFix({ path: "Cargo.toml", text: `[dependencies]\nburn = "=0.21.0-pre.2"\n` });
    expect(plan.kind).toBe("no-fix");
  });
  it("no burn dependency", () => {
    expect(planFix({ path: "Cargo.toml", text: '[dependencies]\nserde = "1"\n' })).toMatchObject({
      kind: "no-fix",
      reason: expect.stringContaining("no burn"),
    });
  });
});

describe("verification rejects wrong edits", () => {
  const before = `[package]\nname = "x"\n\n[dependencies]\nburn = { version = "${V}", default-features = false }\nserde = "1"\n`;
  const decl = parseManifest(before).dependencies[0]!;
  const on = (m: Parameters<typeof diagnose>[0]) => diagnose(m).verdict === "on";
  const check = (after: string) =>
    verify(before, { text: after, start: 0, end: before.length }, decl, ["autodiff"], on);
  it("an edit that does not turn autodiff on", () => {
    expect(check(before.replace("default-features = false", 'default-features = false, features = ["wgpu"]'))).toMatch(
      /changed meaning|still/,
    );
  });
  it("an edit that changes another dependency", () => {
    expect(
      check(
        before
          .replace("default-features = false }", 'default-features = false, features = ["autodiff"] }')
          .replace('serde = "1"', 'serde = "2"'),
      ),
    ).toMatch(/serde/);
  });
  it("an edit that adds a dependency (every old one unchanged)", () => {
    const after = `${before.replace("default-features = false }", 'default-features = false, features = ["autodiff"] }')}rand = "0.8"\n`;
    expect(check(after)).toMatch(/the set of dependencies changed/);
  });
  it("an edit that breaks TOML", () => {
    expect(check(before.replace("}", ""))).toMatch(/not valid TOML/);
  });
  it("an edit that touches bytes outside its span", () => {
    const after = before
      .replace('name = "x"', 'name = "y"')
      .replace("default-features = false }", 'default-features = false, features = ["autodiff"] }');
    expect(
      verify(
        before,
        { text: after, start: before.indexOf("burn ="), end: before.indexOf("serde") },
        decl,
        ["autodiff"],
        on,
      ),
    ).toMatch(/outside/);
  });
  it("accepts the right edit", () => {
    expect(
      check(before.replace("default-features = false }", 'default-features = false, features = ["autodiff"] }')),
    ).toBeNull();
  });
});
