// Issue 53, places: a line number only for a whole file, never a member's line for the root,
// and burn's pull requests written so that GitHub links them to burn, not to the user's repository.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { snapshot } from "../../src/cargo/index/registry.js";
import { historyOf } from "../../src/cargo/judge/refusal.js";
import { cargoTreeOf } from "../../src/evidence/cargo-tree.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { historyText } from "../../src/render/why.js";
import { qualifyBurnRefs } from "../../src/util/links.js";

const STUB = "not implemented: Requires `autodiff` feature";
const BURN = 'burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu"] }';
// GitHub autolinks `#N` unless a word character, `/` or an owner/repo prefix is before it.
const BARE_REF = /(^|[^\w/&-])#\d+\b/;

const panic = (manifest: string) =>
  `Training panics:\n\n\`\`\`\nthread 'main' panicked at /home/me/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/backend.rs:210:9:\n${STUB}\n\`\`\`\n\nMy Cargo.toml:\n\n\`\`\`toml\n${manifest}\n\`\`\`\n`;

describe("a line number only for a whole file", () => {
  it("an excerpt that starts at [dependencies] gets the edit without a line of Cargo.toml", () => {
    const body = renderIssueComment(analyze({ text: panic(`[dependencies]\n${BURN}\nserde = "1"`) }))!;
    expect(body).toContain("**Fix**");
    expect(body).not.toMatch(/`Cargo\.toml`, line \d/);
  });

  it("a whole manifest gets its line", () => {
    const whole = `[package]\nname = "trainer"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${BURN}\n`;
    const body = renderIssueComment(analyze({ text: panic(whole) }))!;
    expect(body).toContain("`Cargo.toml`, line 7");
  });

  it("a refusal in an excerpt names the entry, not the excerpt's line", () => {
    const refused =
      '[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["wgpu", "record-item-custom-serde"] }';
    const body = renderIssueComment(analyze({ text: panic(refused) })) ?? "";
    expect(body).toContain("Cargo would refuse this manifest");
    expect(body).not.toMatch(/Line \d+ asks/);
    expect(body).toContain("Your `burn` entry asks");
  });

  it("a workspace answer never names the root with the member's line number", () => {
    const member = `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nburn = { workspace = true }\n`;
    const root = `[workspace]\nmembers = ["app"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", features = ["wgpu", "record-item-custom-serde"] }\n`;
    const body =
      renderIssueComment(analyze({ text: `${panic(member)}\nand the root:\n\n\`\`\`toml\n${root}\`\`\`\n` })) ?? "";
    expect(body).toContain("Your workspace root's `burn` entry");
    expect(body).not.toMatch(/inherited at line/);
  });
});

describe("burn's pull requests link to burn", () => {
  it("qualifies a bare #N and leaves qualified references, anchors and entities alone", () => {
    expect(qualifyBurnRefs("safetensors features (#4985)")).toBe("safetensors features (tracel-ai/burn#4985)");
    expect(qualifyBurnRefs("#12 first")).toBe("tracel-ai/burn#12 first");
    for (const kept of ["tracel-ai/burn#4985", "backend.rs#L12", "a#1", "&#39;"])
      expect(qualifyBurnRefs(kept)).toBe(kept);
  });

  it("every removal in burn's history is said without a bare #N", () => {
    const data = JSON.parse(readFileSync(join("data", "removed-features.json"), "utf8")) as {
      removed: Array<{ crate: string; feature: string }>;
    };
    const tags = snapshot("tags");
    const said = data.removed.map((r) => historyText(historyOf(r.crate, r.feature, "0.22.0-pre.2", tags), r.crate));
    expect(said.filter((s) => BARE_REF.test(s))).toEqual([]);
    expect(said.some((s) => s.includes("tracel-ai/burn#4985"))).toBe(true);
  });

  it("the catalog and the review rules write no bare #N into a comment", () => {
    for (const file of ["catalog-source.yml", "review-rules.yml"]) {
      const prose = readFileSync(join("data", file), "utf8")
        .split("\n")
        .filter((l) => !/^\s*#/.test(l));
      expect(prose.filter((l) => BARE_REF.test(l.replace(/"#[^"]*"/g, "")))).toEqual([]);
    }
  });
});

describe("evidence is what the reporter wrote", () => {
  it("an issue template's example manifest inside an HTML comment spanning lines is not the reporter's", () => {
    const text = readFileSync(join("fixtures", "proof", "template-comment-manifest.md"), "utf8");
    const a = analyze({ text });
    expect(a.kind).toBe("panic");
    if (a.kind !== "panic") return;
    expect(a.manifest?.origin ?? "none").not.toBe("issue");
    const body = renderIssueComment(a)!;
    expect(body).not.toContain('"ndarray"');
    expect(body).not.toContain("my-project");
  });

  it("a panic quoted only in a template's HTML comment is not a report", () => {
    const text = readFileSync(join("fixtures", "proof", "template-comment-panic.md"), "utf8");
    expect(analyze({ text }).kind).toBe("none");
  });
});

describe("a pasted cargo tree is evidence", () => {
  const text = readFileSync(join("fixtures", "proof", "cargo-tree-features.md"), "utf8");

  it("reads the root's version and the features cargo printed", () => {
    expect(cargoTreeOf(text)).toEqual({
      crate: "burn-dispatch",
      version: "0.22.0-pre.2",
      source: null,
      features: ["default", "std", "wgpu"],
      proof: "burn-dispatch v0.22.0-pre.2",
    });
    // Without -e features the tree shows no feature: none is claimed.
    expect(cargoTreeOf("burn-dispatch v0.22.0-pre.2\n└── burn-tensor v0.22.0-pre.2\n")?.features).toBeNull();
  });

  it("the answer uses its version and features instead of asking the reporter to run it", () => {
    const a = analyze({ text });
    expect(a.kind).toBe("panic");
    if (a.kind !== "panic") return;
    expect(a.version).toMatchObject({ version: "0.22.0-pre.2", source: "cargo-tree" });
    const body = renderIssueComment(a)!;
    expect(body).toContain(
      "Your `cargo tree` output shows `burn-dispatch v0.22.0-pre.2` with `default`, `std` and `wgpu`, and not `autodiff`",
    );
    expect(body).not.toMatch(/`cargo tree -i burn-dispatch` (shows|would)/);
  });
});
