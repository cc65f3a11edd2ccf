import { describe, expect, it } from "@jest/globals";
import { load } from "js-yaml";
import { analyze } from "../../src/analyze.js";
import { loadCatalog } from "../../src/panics/catalog.js";
import { detect } from "../../src/panics/detect.js";
import { renderIssueComment } from "../../src/render/issue.js";
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
}
const data = load(fixture("family/cases.yml")) as { cases: Case[]; quoted: Array<{ name: string; text: string }> };

describe("the feature-gate family, printed", () => {
  it("has a printed case for every family message kind", () => {
    const families = new Set(loadCatalog().entries.filter((e) => e.family).map((e) => e.family));
    const covered = new Set(data.cases.map((c) => loadCatalog().entries.find((e) => e.id === c.id)?.family));
    expect([...families].filter((f) => !covered.has(f))).toEqual([]);
  });

  it.each(data.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const a = analyze({ text: c.text });
    expect(a.primary?.id).toBe(c.id);
    const body = renderIssueComment(a)!;
    if (c.link) expect(body).toContain(`(https://github.com/tracel-ai/burn/blob/${c.link})`);
    if (c.add) {
      const plan = a.manifest?.plan;
      expect(plan?.kind).toBe("fixed");
      if (plan?.kind !== "fixed") return;
      expect(plan.change.added).toEqual(c.add);
      expect(plan.change.dependency).toBe(c.dependency);
      expect(body).toContain("**Fix**");
      expect(body).toMatch(/Verified on burn `[^`]+`'s feature graph/);
      expect(body).toContain(`\`${a.target.kind === "one" ? `${a.target.target.crate}/${a.target.target.feature}` : "?"}\` resolves on`);
    }
    if (c.choose) {
      expect(a.target).toMatchObject({ kind: "choose", features: c.choose });
      expect(body).toContain("**Which backend?**");
      expect(body).not.toContain("**Fix**");
      // Each listed edit was verified on its own against the user's manifest.
      for (const choice of a.choices) expect(choice.plan.diagnosis.target.feature).toBe(choice.feature);
      expect(a.choices.length).toBeGreaterThan(0);
      expect(a.choices.map((x) => x.feature)).toEqual(c.choose.filter((f) => !(c.unreachable ?? []).includes(f)));
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
