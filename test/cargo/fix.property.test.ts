import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { diagnose } from "../../src/cargo/diagnose.js";
import { planFix } from "../../src/cargo/fix.js";
import { parseManifest } from "../../src/cargo/manifest.js";
import { parsePlain } from "../../src/cargo/toml.js";

// Generated manifests in every dependency form, with comments, odd spacing, CRLF and non-ASCII
// text, run through planFix. The oracle is independent of the resolver: in burn 0.22 autodiff is
// on exactly when default features stay on (none of the generated features enables it), in
// 0.21 never; and any fix must parse with @iarna/toml and leave every other line alone.
const BACKENDS = ["std", "wgpu", "cuda", "ndarray", "fusion", "dataset", "metal"];

const textLine = fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => s.replace(/[\r\n\u2028\u2029\u0085]/g, " ").replace(/[\u0000-\u001f\u007f]/g, "?"));
const sp = fc.constantFrom("", " ", "  ", "\t");

interface Case {
  text: string;
  v: string;
  defaultsOff: boolean;
  member: boolean;
  root: string | null;
}

const caseArb = fc
  .record({
    eol: fc.constantFrom("\n", "\r\n"),
    comments: fc.array(textLine, { maxLength: 3 }),
    pkg: fc.boolean(),
    v: fc.constantFrom("0.22.0-pre.1", "0.22.0-pre.2", "0.21.0"),
    form: fc.constantFrom("string", "inline", "table", "dotted", "member"),
    defaultsOff: fc.boolean(),
    features: fc.subarray(BACKENDS, { maxLength: 4 }),
    multiline: fc.boolean(),
    trailingComma: fc.boolean(),
    literal: fc.boolean(),
    key: fc.constantFrom("burn", "nn"),
    spaceA: sp,
    spaceB: sp,
    others: fc.subarray(['serde = { version = "1", features = ["derive"] }', 'anyhow = "1"', "tokio.version = \"1\""], { maxLength: 3 }),
    after: fc.boolean(),
  })
  .map((g): Case => {
    const e = g.eol;
    const q = g.literal ? "'" : '"';
    const rename = g.key === "nn" ? `package = "burn", ` : "";
    const arr = g.multiline
      ? `[${e}${g.features.map((f, i) => `    ${q}${f}${q}${i < g.features.length - 1 || g.trailingComma ? "," : ""} # ${i}`).join(e)}${e}]`
      : `[${g.features.map((f) => `${q}${f}${q}`).join(", ")}${g.trailingComma && g.features.length > 0 ? "," : ""}]`;
    const feats = g.features.length > 0 || g.multiline ? arr : null;
    const df = g.defaultsOff ? "default-features = false" : null;
    const eq = `${g.spaceA}=${g.spaceB}`;
    let deps: string;
    let root: string | null = null;
    const form = g.form === "string" && (g.defaultsOff || feats || g.key === "nn") ? "inline" : g.form;
    switch (form) {
      case "string":
        deps = `[dependencies]${e}burn${eq}"${g.v}"`;
        break;
      case "inline":
        deps = `[dependencies]${e}${g.key}${eq}{ ${rename}version = "${g.v}"${df ? `, ${df}` : ""}${feats ? `, features = ${feats}` : ""} }`;
        break;
      case "table":
        deps = `[dependencies.${g.key}]${e}${g.key === "nn" ? `package = "burn"${e}` : ""}version${eq}"${g.v}"${df ? `${e}${df}` : ""}${feats ? `${e}features = ${feats}` : ""}`;
        break;
      case "dotted":
        deps = `[dependencies]${e}${g.key === "nn" ? `nn.package = "burn"${e}` : ""}${g.key}.version${eq}"${g.v}"${df ? `${e}${g.key}.${df}` : ""}${feats ? `${e}${g.key}.features = ${feats}` : ""}`;
        break;
      default:
        root = `[workspace]${e}members = ["m"]${e}${e}[workspace.dependencies]${e}${g.key} = { ${rename}version = "${g.v}"${df ? `, ${df}` : ""} }${e}`;
        deps = `[dependencies]${e}${g.key} = { workspace = true${feats ? `, features = ${feats}` : ""} }`;
    }
    const others = g.others.join(e);
    const body = [
      ...g.comments.map((c) => `# ${c}`),
      ...(g.pkg ? [`[package]`, `name = "p"`, `description = "${"ünï 🔥"}"`, ""] : []),
      g.after && others ? `[dependencies]${e}${others}${e}${deps.replace(/^\[dependencies\]\r?\n/, "")}` : deps,
      ...(!g.after && others ? (deps.startsWith("[dependencies]") ? [others] : ["[dev-dependencies]", others]) : []),
      "",
    ].join(e);
    return { text: body, v: g.v, defaultsOff: g.defaultsOff, member: form === "member", root };
  });

describe("planFix on generated manifests", () => {
  it("never returns an invalid or unverified edit", () => {
    let fixedCount = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const root = c.root ? { path: "Cargo.toml", text: c.root } : null;
        const plan = planFix({ path: c.member ? "m/Cargo.toml" : "Cargo.toml", text: c.text }, { root });
        const expectedOn = c.v.startsWith("0.22") && !c.defaultsOff;
        if (expectedOn) {
          expect(plan.kind).toBe("already-on");
          return;
        }
        expect(plan.kind).toBe("fixed");
        if (plan.kind !== "fixed") return;
        fixedCount++;
        const { before, after, suggestion } = plan.change;
        expect(() => parsePlain(after)).not.toThrow();
        const rootManifest = c.root ? parseManifest(c.root) : null;
        expect(diagnose(parseManifest(after), { root: rootManifest }).verdict).toBe("on");
        // Lines outside the suggestion are byte-identical, line endings included.
        const b = before.split("\n");
        const a = after.split("\n");
        const grown = a.length - b.length;
        expect(a.slice(0, suggestion.startLine - 1)).toEqual(b.slice(0, suggestion.startLine - 1));
        expect(a.slice(suggestion.endLine + grown)).toEqual(b.slice(suggestion.endLine));
        if (c.member) expect(c.root).not.toContain("autodiff");
      }),
      { numRuns: 2000 },
    );
    expect(fixedCount).toBeGreaterThan(500);
  });
});
