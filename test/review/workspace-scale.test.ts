// What makes a 1,000-member review cheap must not change what it says: the memo of an assessment,
// of a parse and of a resolution, and judging members without planning an edit for each.
import { describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { assess, decidePullRequest, type PrSnapshot } from "../../src/review/pull-request.js";
import { BASE_SHA, HEAD_SHA } from "../support/scenario.js";
import { workspaceRepo } from "../support/workspace.js";

function snapshotOf(n: number, collectiveAt: number): PrSnapshot {
  const repo = workspaceRepo(n, { collectiveAt });
  const s: PrSnapshot = {
    repo: { owner: "o", repo: "r" },
    headSha: HEAD_SHA,
    changed: repo.prFiles![12]!.map((f) => ({ path: f.filename, status: f.status, patch: f.patch })),
    head: {},
    base: {},
    tree: [],
    evidence: {},
    previous: { review: null, checkRuns: {} },
    notices: [],
    options: { checkRun: true, conclusion: "neutral", reviewBurnRepo: false },
  };
  for (const [k, text] of Object.entries(repo.files!)) {
    const [sha, path] = k.split(":") as [string, string];
    if (sha === HEAD_SHA) s.tree.push(path);
    (sha === BASE_SHA ? s.base : s.head)[path] = text;
  }
  return s;
}

const refusedPaths = (s: PrSnapshot) =>
  decidePullRequest(s)
    .problems.filter((p) => p.kind === "refused")
    .map((p) => p.path);

describe("a workspace review at scale", () => {
  it("names the one member that forwards a removed feature, whichever it is", () => {
    expect(refusedPaths(snapshotOf(12, 9))).toEqual(["crates/m0009/Cargo.toml"]);
    expect(refusedPaths(snapshotOf(12, 2))).toEqual(["crates/m0002/Cargo.toml"]);
  });

  it("an assessment is asked again of a snapshot that gained a manifest, not served from before", () => {
    const s = snapshotOf(6, 5);
    const member = "crates/m0005/Cargo.toml";
    const full = { head: s.head[member]!, base: s.base[member]! };
    delete s.head[member];
    delete s.base[member];
    const before = assess(s);
    expect(before.some((r) => r.kind === "refused")).toBe(false);
    s.head[member] = full.head;
    s.base[member] = full.base;
    expect(assess(s).some((r) => r.kind === "refused")).toBe(true);
  });

  it("a parse is kept per text: the root asked between members is parsed once", () => {
    const a = '[package]\nname = "a"\n';
    const b = '[package]\nname = "b"\n';
    const first = parseManifest(a);
    parseManifest(b);
    expect(parseManifest(a)).toBe(first);
  });

  it("members that differ only by name resolve alike; other features resolve apart", () => {
    const root = {
      path: "Cargo.toml",
      text: '[workspace]\nmembers = ["a", "b"]\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false }\n',
    };
    const member = (name: string, features: string) =>
      `[package]\nname = "${name}"\n\n[dependencies]\nburn = { workspace = true${features} }\n`;
    const plan = (text: string) => planFix({ path: "a/Cargo.toml", text }, { root });
    const one = plan(member("a", ""));
    const two = plan(member("b", ""));
    const train = plan(member("c", ', features = ["autodiff"]'));
    expect(one.kind !== "invalid-toml" && one.diagnosis.state).toEqual(
      two.kind !== "invalid-toml" && two.diagnosis.state,
    );
    expect(one.kind !== "invalid-toml" && one.diagnosis.state.on).toBe(false);
    expect(train.kind !== "invalid-toml" && train.diagnosis.state.on).toBe(true);
  });

  it("diagnosisOnly plans no edit for a manifest that is off, and still plans a refusal's", () => {
    const text = '[package]\nname = "a"\n\n[dependencies]\nburn = "0.21.0"\n';
    expect(planFix({ path: "Cargo.toml", text }).kind).toBe("fixed");
    expect(planFix({ path: "Cargo.toml", text }, { diagnosisOnly: true }).kind).toBe("no-fix");
    const refused =
      '[package]\nname = "a"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["collective"] }\n';
    expect(planFix({ path: "Cargo.toml", text: refused }, { diagnosisOnly: true }).kind).toBe("fixed");
  });
});
