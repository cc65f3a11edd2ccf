import { describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { extractSnippets } from "../../src/cargo/manifest/extract.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { lineIndex } from "../../src/cargo/manifest/toml.js";
import { guardToml, MAX_TOML_CHARS, MAX_TOML_DEPTH } from "../../src/cargo/manifest/toml-guard.js";
import { memberPath } from "../../src/cargo/manifest/workspace.js";
import { detect } from "../../src/panics/detect.js";

const burn = 'burn = { version = "0.22.0-pre.2", default-features = false }';
const panic =
  "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n";

describe("TOML is bounded before it is parsed", () => {
  it("a 5,000-deep array in the burn entry is an error at its position, not a stack overflow", () => {
    const text = `[dependencies]\nburn = { version = "0.22.0-pre.2", features = ${"[".repeat(5000)}${"]".repeat(5000)} }\n`;
    expect(() => parseManifest(text)).toThrow(/^2:\d+: nested more than 100 levels deep$/);
    const plan = planFix({ path: "Cargo.toml", text });
    expect(plan.kind).toBe("invalid-toml");
  });
  it("a 10,000-part dotted key likewise", () => {
    const text = `[dependencies]\nburn.${Array.from({ length: 10000 }, () => "a").join(".")} = 1\n`;
    expect(() => parseManifest(text)).toThrow(/^2:\d+: a dotted key with more than 100 parts$/);
  });
  it("brackets, dots and quotes inside strings and comments do not count", () => {
    const deep = "[".repeat(MAX_TOML_DEPTH + 5);
    expect(() =>
      guardToml(
        `a = "${deep}"\nb = '${deep}'\nc = """\n${deep}\n"""\nd = '''${deep}'''\n# ${deep}\ne = "${".".repeat(500)}"\n`,
      ),
    ).not.toThrow();
    expect(() => guardToml(`a = "\\"${deep}"\n`)).not.toThrow();
  });
  it("real nesting at the limit passes, one more fails", () => {
    expect(() => guardToml(`a = ${"[".repeat(MAX_TOML_DEPTH)}${"]".repeat(MAX_TOML_DEPTH)}\n`)).not.toThrow();
    expect(() => guardToml(`a = ${"[".repeat(MAX_TOML_DEPTH + 1)}${"]".repeat(MAX_TOML_DEPTH + 1)}\n`)).toThrow();
  });
  it("a manifest over the size cap is refused, with the reason", () => {
    const text = `[dependencies]\n${burn}\n${"# padding\n".repeat(MAX_TOML_CHARS / 10)}`;
    expect(() => parseManifest(text)).toThrow(/manifests over 65536 are not read/);
  });
  it("a UTF-8 byte-order mark is accepted, as cargo does, and edits keep it", () => {
    const text = `\uFEFF[dependencies]\n${burn}\n`;
    expect(parseManifest(text).dependencies[0]?.line).toBe(2);
    const plan = planFix({ path: "Cargo.toml", text });
    expect(plan.kind).toBe("fixed");
    expect(plan.kind === "fixed" && plan.change.after.startsWith("\uFEFF[dependencies]\n")).toBe(true);
  });
  it("line numbers for many offsets come from one index", () => {
    const at = lineIndex("a\nbb\n\nc");
    expect([0, 1, 2, 4, 5, 6, 99].map(at)).toEqual([1, 1, 2, 2, 3, 4, 4]);
  });
  it("4,000 dependencies under the cap still number every declaration right", () => {
    const deps = Array.from({ length: 4000 }, (_, i) => `d${i} = "1"`).join("\n");
    const m = parseManifest(`[dependencies]\n${deps}\n${burn}\n`);
    expect(m.dependencies.at(-1)).toMatchObject({ key: "burn", line: 4002 });
    expect(m.dependencies[1234]).toMatchObject({ key: "d1234", line: 1236 });
  });
});

describe("snippet extraction on adversarial bodies", () => {
  it.each([
    ["empty lines", ""],
    ["one-space lines", " "],
    ["+ lines", "+"],
  ])("a 64 KiB fence of %s yields no manifest and the panic still counts", (_n, line) => {
    const body = `${panic}\`\`\`\n${`${line}\n`.repeat(30000)}\`\`\`\n`;
    expect(extractSnippets(body)).toEqual([]);
    expect(extractSnippets(body.replace("```\n", "```diff\n"))).toEqual([]);
    expect(detect(body).map((f) => f.id)).toEqual(["dispatch-autodiff-stub"]);
  });
  it("a manifest after blank lines inside the fence is still found", () => {
    const body = `\`\`\`toml\n${"\n".repeat(500)}[dependencies]\n${burn}\n\`\`\`\n`;
    expect(extractSnippets(body)).toHaveLength(1);
  });
});

describe("workspace members stay inside the repository", () => {
  it.each([
    ["crates/*", "crates/*"],
    ["./crates/trainer/", "crates/trainer"],
    ["examples/../crates/x", "crates/x"],
  ])("%s → %s", (entry, path) => {
    expect(memberPath(entry)).toBe(path);
  });
  it.each(["..", "../*", "../../etc", "crates/../../x", "/abs", "C:/x", ".", "*", "a\\..\\b"])(
    "refuses %s",
    (entry) => {
      expect(memberPath(entry)).toBeNull();
    },
  );
});
