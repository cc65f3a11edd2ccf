import { describe, expect, it } from "@jest/globals";
import { load } from "js-yaml";
import { analyze } from "../../src/answer/analyze.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { loadCatalog } from "../../src/panics/catalog.js";
import { detect } from "../../src/panics/detect.js";
import { analyzePanic } from "../helpers/analysis.js";
import { fixture } from "../helpers/fixtures.js";

interface Case {
  name: string;
  id: string;
  text: string;
  add?: string[];
  dependency?: string;
  choose?: string[];
  unreachable?: string[];
  none?: boolean;
  link?: string;
  /** The fix declares the crate: this is the line it adds. */
  declares?: string;
  /** Choices whose edit declares the crate rather than adding a feature. */
  declared?: string[];
}
const data = load(fixture("family/cases.yml")) as { cases: Case[]; quoted: Array<{ name: string; text: string }> };

describe("the feature-gate family, printed", () => {
  it("has a printed case for every family message kind", () => {
    const families = new Set(
      loadCatalog()
        .entries.filter((e) => e.family)
        .map((e) => e.family),
    );
    const covered = new Set(data.cases.map((c) => loadCatalog().entries.find((e) => e.id === c.id)?.family));
    expect([...families].filter((f) => !covered.has(f))).toEqual([]);
  });

  it.each(data.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const a = analyzePanic({ text: c.text });
    expect(a.primary?.id).toBe(c.id);
    const body = renderIssueComment(a)!;
    if (c.link) expect(body).toContain(`(https://github.com/tracel-ai/burn/blob/${c.link})`);
    if (c.add) {
      const plan = a.manifest?.plan;
      expect(plan?.kind).toBe("fixed");
      if (plan?.kind !== "fixed") return;
      expect(plan.change.added).toEqual(c.add);
      expect(plan.change.dependency).toBe(c.dependency);
      expect(plan.change.declares).toBe(c.declares !== undefined);
      if (c.declares) expect(plan.change.diff).toContain(`\n+${c.declares}\n`);
      expect(body).toContain("**Fix**");
      expect(body).toMatch(/Verified on burn `[^`]+`<\/summary>\n\n<sub>Its feature graph/);
      expect(body).toContain(
        `\`${a.target.kind === "one" ? `${a.target.target.crate}/${a.target.target.feature}` : "?"}\` resolves on`,
      );
    }
    if (c.choose) {
      expect(a.target).toMatchObject({ kind: "choose", features: c.choose });
      expect(body).toContain("**Which backend?**");
      expect(body).not.toContain("**Fix**");
      // Each listed edit was verified on its own against the user's manifest.
      for (const choice of a.choices) expect(choice.plan.diagnosis.target.feature).toBe(choice.feature);
      expect(a.choices.length).toBeGreaterThan(0);
      expect(a.choices.map((x) => x.feature)).toEqual(c.choose.filter((f) => !(c.unreachable ?? []).includes(f)));
      expect(a.choices.filter((x) => x.plan.change.declares).map((x) => x.feature)).toEqual(c.declared ?? []);
    }
    if (c.none) {
      expect(body).not.toContain("**Fix**");
      expect(body).toContain("No Cargo.toml change to this build fixes it");
    }
  });
});

describe("the feature-gate family, quoted", () => {
  it.each(data.quoted.map((q) => [q.name, q.text] as const))("%s → silence", (_name, text) => {
    expect(detect(text)).toEqual([]);
    expect(renderIssueComment(analyze({ text }))).toBeNull();
  });
});

describe("every BURN_DEVICE message, printed at its own line", () => {
  // From the catalog's own sites at the newest tag: each backend's panic, with a manifest that
  // has neither defaults nor that backend; the edit must turn exactly that backend on.
  const oracle = JSON.parse(fixture("burn-data/family-enablers.json")) as Record<
    string,
    { targets: Record<string, { alone: string[] }> }
  >;
  const entries = loadCatalog().entries.filter((e) => e.family === "dispatch-burn-device-env");
  it("has all 11", () =>
    expect(entries.map((e) => e.backend).sort()).toEqual([
      "cpu",
      "cuda",
      "flex",
      "metal",
      "ndarray",
      "remote",
      "rocm",
      "tch",
      "vulkan",
      "webgpu",
      "wgpu",
    ]));
  it.each(entries.map((e) => [e.backend!, e] as const))("%s", (backend, e) => {
    const site = e.sites.filter((s) => s.ref === "v0.22.0-pre.2")[0]!;
    const text = `thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/${site.file.replace(/^crates\/burn-dispatch\//, "")}:${site.line}:25:\n${e.message}\n\n\`\`\`toml\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }\n\`\`\`\n`;
    const a = analyzePanic({ text });
    expect(a.primary?.id).toBe(e.id);
    expect(a.link).toMatchObject({ ref: "v0.22.0-pre.2", line: site.line, verified: true });
    expect(a.target).toMatchObject({ kind: "one", target: { crate: "burn-dispatch", feature: backend } });
    const plan = a.manifest!.plan;
    expect(plan.kind).toBe("fixed");
    if (plan.kind !== "fixed") return;
    expect(plan.change.added).toHaveLength(1);
    expect(oracle["v0.22.0-pre.2"]!.targets[`burn-dispatch/${backend}`]!.alone).toContain(plan.change.added[0]);
  });
});
