import { describe, expect, it } from "@jest/globals";
import { planFix, verifyDeclaration } from "../../src/cargo/fix/fix.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import type { Manifest } from "../../src/cargo/manifest/manifest.js";

const CS = { crate: "burn-flex", feature: "critical-section" };
const BURN = 'burn = { version = "0.21.0", default-features = false, features = ["flex", "dispatch"] }';
const LINE = 'burn-flex = { version = "=0.21.0", default-features = false, features = ["critical-section"] }';

describe("declaring an inner crate burn forwards no feature to", () => {
  it("appends the line cargo add writes after the table's last entry, keeping its comment and line endings", () => {
    const text = `[package]\r\nname = "fw"\r\nversion = "0.1.0"\r\n\r\n[dependencies]\r\n${BURN}\r\nheapless = "0.8" # ring buffers\r\n\r\n[profile.release]\r\nlto = true\r\n`;
    const plan = planFix({ path: "Cargo.toml", text }, { target: CS });
    expect(plan.kind).toBe("fixed");
    if (plan.kind !== "fixed") return;
    expect(plan.change.after).toBe(text.replace("# ring buffers\r\n", `# ring buffers\r\n${LINE}\r\n`));
    expect(plan.change).toMatchObject({ dependency: "burn-flex", added: ["critical-section"], declares: true });
    expect(plan.change.suggestion).toEqual({
      startLine: 7,
      endLine: 7,
      lines: ['heapless = "0.8" # ring buffers', LINE],
    });
  });

  it("in a file without a final line break, goes before the last entry, so the diff adds one line", () => {
    const plan = planFix({ path: "Cargo.toml", text: `[dependencies]\n${BURN}` }, { target: CS });
    expect(plan.kind === "fixed" && plan.change.after).toBe(`[dependencies]\n${LINE}\n${BURN}`);
    expect(plan.kind === "fixed" && plan.change.diff.split("\n").filter((l) => /^[-+][^-+]/.test(l))).toEqual([
      `+${LINE}`,
    ]);
  });

  it("is not offered on an assumed release: the pin would name a version the build may not have", () => {
    // 0.23 is newer than the bundled data: the graph judged is an assumed one.
    const plan = planFix(
      { path: "Cargo.toml", text: `[dependencies]\n${BURN.replace('"0.21.0"', '"0.23.0"')}\n` },
      { target: CS },
    );
    expect(plan.kind !== "invalid-toml" && plan.diagnosis.assumed.graph).toBeTruthy();
    expect(plan.kind).toBe("no-fix");
  });

  it("declares into the target table that declares burn", () => {
    const text = `[target.'cfg(unix)'.dependencies]\n${BURN}\n`;
    const plan = planFix({ path: "Cargo.toml", text }, { target: CS, platform: "linux" });
    expect(plan.kind === "fixed" && plan.change.after).toBe(`${text.trimEnd()}\n${LINE}\n`);
  });

  it("is not offered when the crate is declared, not in the build, or burn's table is not a [dependencies] list", () => {
    const declared = planFix(
      {
        path: "Cargo.toml",
        text: `[dependencies]\n${BURN}\nburn-flex = { version = "0.21.0", default-features = false }\n`,
      },
      { target: CS },
    );
    expect(declared.kind === "fixed" && declared.change).toMatchObject({ declares: false, dependency: "burn-flex" });
    const absent = planFix(
      { path: "Cargo.toml", text: '[dependencies]\nburn = { version = "0.21.0", features = ["wgpu"] }\n' },
      {
        target: { crate: "burn-store", feature: "memmap" },
      },
    );
    expect(absent).toMatchObject({
      kind: "no-fix",
      reason: "no feature of this burn version reaches `burn-store/memmap`",
    });
    const table = planFix(
      {
        path: "Cargo.toml",
        text: '[dependencies.burn]\nversion = "0.21.0"\ndefault-features = false\nfeatures = ["flex", "dispatch"]\n',
      },
      { target: CS },
    );
    expect(table.kind).toBe("no-fix");
  });

  it("is not offered when the resolver does not confirm it (a feature the crate does not have)", () => {
    const ghost = { crate: "burn-flex", feature: "no-such-feature" };
    const plan = planFix({ path: "Cargo.toml", text: `[dependencies]\n${BURN}\n` }, { target: ghost });
    expect(plan.kind !== "invalid-toml" && plan.diagnosis.verdict).toBe("off");
    expect(plan.kind).toBe("no-fix");
  });

  it("verifies the line as declared: default features left on, or another version, are refused", () => {
    const before = `[dependencies]\n${BURN}\n`;
    const decl = { key: "burn-flex", version: "=0.21.0", features: ["critical-section"] };
    const on = (after: Manifest) => diagnose(after, { target: CS }).verdict === "on";
    const check = (line: string) =>
      verifyDeclaration(
        before,
        { text: `${before}${line}\n`, start: before.length, end: before.length },
        decl,
        { target: null },
        on,
        CS,
      );
    expect(check(LINE)).toBeNull();
    expect(check(LINE.replace("default-features = false, ", ""))).toBe("`burn-flex` is not declared as intended");
    expect(check(LINE.replace("=0.21.0", "0.21.0"))).toBe("`burn-flex` is not declared as intended");
    expect(check(LINE.replace('["critical-section"]', "[]"))).toBe("`burn-flex` is not declared as intended");
  });
});
