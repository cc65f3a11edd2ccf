import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { planFix } from "../../src/cargo/fix/fix.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { parsePlain } from "../../src/cargo/manifest/toml.js";

// Generated manifests in every dependency form, with comments, odd spacing, CRLF and non-ASCII
// text, run through planFix. The oracle is independent of the resolver: in burn 0.22 autodiff is
// on exactly when default features stay on (none of the generated features enables it), in
// 0.21 never; and any fix must parse with @iarna/toml and leave every other line alone.
const BACKENDS = ["std", "wgpu", "cuda", "ndarray", "fusion", "dataset", "metal"];

const textLine = fc
  .string({ unit: "grapheme", maxLength: 12 })
  .map((s) => s.replace(/[\r\n\u2028\u2029\u0085]/g, " ").replace(/[\u0000-\u001f\u007f]/g, "?"));
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
    layout: fc.constantFrom("one-line", "per-line", "several-per-line", "close-on-last", "empty-multiline"),
    itemComments: fc.boolean(),
    indent: fc.constantFrom("    ", "  ", "\t", "\t\t"),
    trailingComma: fc.boolean(),
    literal: fc.boolean(),
    key: fc.constantFrom("burn", "nn"),
    spaceA: sp,
    spaceB: sp,
    others: fc.subarray(['serde = { version = "1", features = ["derive"] }', 'anyhow = "1"', 'tokio.version = "1"'], {
      maxLength: 3,
    }),
    after: fc.boolean(),
  })
  .map((g): Case => {
    const e = g.eol;
    const q = g.literal ? "'" : '"';
    const rename = g.key === "nn" ? `package = "burn", ` : "";
    const item = (f: string, i: number, n: number) => `${q}${f}${q}${i < n - 1 || g.trailingComma ? "," : ""}`;
    const note = (i: number) => (g.itemComments ? ` # ${i}` : "");
    const fs = g.features;
    const layouts: Record<string, string> = {
      "one-line": `[${fs.map((f) => `${q}${f}${q}`).join(", ")}${g.trailingComma && fs.length > 0 ? "," : ""}]`,
      // burn's own examples: one per line, often without a trailing comma after the last.
      "per-line": `[${e}${fs.map((f, i) => `${g.indent}${item(f, i, fs.length)}${note(i)}`).join(e)}${e}]`,
      "several-per-line": `[${e}${g.indent}${fs
        .slice(0, 2)
        .map((f, i) => item(f, i, fs.length))
        .join(" ")}${
        fs.length > 2
          ? `${note(0)}${e}${g.indent}${fs
              .slice(2)
              .map((f, i) => item(f, i + 2, fs.length))
              .join(" ")}`
          : ""
      }${e}]`,
      "close-on-last": `[${fs.map((f, i) => `${i === 0 ? "" : `${e}${g.indent}`}${item(f, i, fs.length)}`).join("")}]`,
      "empty-multiline": `[${e}${g.itemComments ? `${g.indent}# nothing yet${e}` : ""}]`,
    };
    const layout = fs.length === 0 && g.layout !== "one-line" ? "empty-multiline" : g.layout;
    const arr = layouts[layout]!;
    const feats = fs.length > 0 || layout !== "one-line" ? arr : null;
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
  it("never returns an invalid or unverified edit, and never 'no fix' where one exists", () => {
    let fixedCount = 0;
    const noFix: string[] = [];
    fc.assert(
      fc.property(caseArb, (c) => {
        const root = c.root ? { path: "Cargo.toml", text: c.root } : null;
        const plan = planFix({ path: c.member ? "m/Cargo.toml" : "Cargo.toml", text: c.text }, { root });
        const expectedOn = c.v.startsWith("0.22") && !c.defaultsOff;
        if (expectedOn) {
          expect(plan.kind).toBe("already-on");
          return;
        }
        // Every generated manifest has a fix (the generator only uses burn versions and forms
        // where one exists): a no-fix here is an editor or verifier bug.
        if (plan.kind === "no-fix") noFix.push(`${plan.reason}\n${c.text}`);
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
    expect(noFix).toEqual([]);
    expect(fixedCount).toBeGreaterThan(500);
  });
});
