// Issue 53: a property over generated manifests. Every release the answer says lacks a feature
// lacks it in the index; a refusal judged on main's snapshot is said of that commit, never of the
// release main's Cargo.toml calls itself; burn at a commit the data cannot read is never refused,
// never "on", never edited.
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { snapshot } from "../../src/cargo/index/registry.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { featureNames } from "../../src/cargo/judge/refusal.js";
import { mainSnapshotCommit } from "../../src/cargo/manifest/burn-version.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { why } from "../../src/render/why.js";

const tags = snapshot("tags");
const main = snapshot("main");
const releases = tags
  .versions("burn")
  .map((l) => l.vers)
  .filter((v) => /^0\.(?:1[6-9]|2\d)\./.test(v));
const names = [...new Set(tags.versions("burn").flatMap((l) => [...featureNames(l)]))].sort();
const HEAD = mainSnapshotCommit().slice(0, 7);

const source = fc.oneof(
  fc.constantFrom(...releases).map((v) => ({ kind: "release" as const, decl: `version = "=${v}"` })),
  fc.constant({ kind: "main" as const, decl: `git = "https://github.com/tracel-ai/burn", rev = "${HEAD}"` }),
  fc
    .stringMatching(/^[0-9a-f]{7}$/)
    .filter((r) => !HEAD.startsWith(r))
    .map((r) => ({ kind: "unknown" as const, decl: `git = "https://github.com/tracel-ai/burn", rev = "${r}"` })),
);

describe("claims against the index, over generated manifests", () => {
  it("a refused feature is absent from the release (or snapshot) it is said of; unknown commits claim nothing", () => {
    fc.assert(
      fc.property(
        source,
        fc.uniqueArray(fc.constantFrom(...names), { maxLength: 4 }),
        fc.boolean(),
        (src, feats, defaults) => {
          const text = `[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nburn = { ${src.decl}, default-features = ${defaults}, features = ${JSON.stringify(feats)} }\n`;
          const d = diagnose(parseManifest(text));
          if (src.kind === "unknown") {
            expect(d.verdict).toBe("unknown-commit");
            expect(d.fix).toBeNull();
            expect(why(d)).not.toMatch(/refuse|does turn/);
            return;
          }
          const registry = src.kind === "main" ? main : tags;
          for (const r of d.refused ?? []) {
            const line = registry.versions(r.crate).find((l) => l.vers === r.version);
            expect(line && !featureNames(line).has(r.feature)).toBe(true);
          }
          if (d.verdict === "refused" && src.kind === "main") {
            expect(why(d)).toContain(`main branch commit \`${HEAD}\``);
            expect(why(d)).not.toMatch(/asks `burn` \d/);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
