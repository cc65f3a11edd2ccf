import { describe, expect, it } from "@jest/globals";
import { analyzePanic } from "./helpers/analysis.js";
import { fixture, issueCases } from "./helpers/fixtures.js";

describe("analyze: fixture issues end to end (pure)", () => {
  it.each(issueCases().filter(([, c]) => c.finding !== null))("%s", (file, c) => {
    const a = analyzePanic({ text: fixture(`issues/${file}`) });
    expect(a.primary?.id).toBe(c.finding);
    if (c.version) expect(a.version?.version).toBe(c.version);
    if (c.commit) expect(a.version?.commit).toBe(c.commit);
    if (c.source) expect(a.version?.source).toBe(c.source);
    if (c.line) expect(a.link?.line).toBe(c.line);
    if (c.ref) expect(a.link?.ref).toBe(c.ref);
    if (c.findings) expect(a.findings).toHaveLength(c.findings);
    if (c.fix !== undefined) expect(a.manifest?.plan.kind === "fixed").toBe(c.fix);
    if (c.verdict)
      expect(a.manifest?.plan.kind !== "invalid-toml" && a.manifest?.plan.diagnosis.verdict).toBe(c.verdict);
    if (c.origin) expect(a.manifest?.origin).toBe(c.origin);
    if (c.platform) expect(a.platform).toBe(c.platform);
  });

  it("links the exact line at the user's tag", () => {
    const a = analyzePanic({ text: fixture("issues/pos-registry-backtrace.md") });
    expect(a.link).toMatchObject({
      url: "https://github.com/tracel-ai/burn/blob/v0.22.0-pre.2/crates/burn-dispatch/src/backend.rs#L824",
      verified: true,
      cfg: '#[cfg(not(feature = "autodiff"))]',
    });
  });

  it("never proposes a manifest edit for misuse panics", () => {
    const a = analyzePanic({ text: fixture("issues/pos-misuse-wrong-backend.md") });
    expect(a.manifest).toBeNull();
  });

  it("uses repository manifests when the text has none", () => {
    const text =
      "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature";
    const a = analyzePanic({
      text,
      repoManifests: [
        {
          path: "trainer/Cargo.toml",
          text: '[package]\nname = "t"\n\n[dependencies]\nburn = { workspace = true, features = ["cuda"] }\n',
        },
      ],
      repoRoot: {
        path: "Cargo.toml",
        text: '[workspace]\nmembers = ["trainer"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false }\n',
      },
    });
    expect(a.manifest?.origin).toBe("repository");
    expect(a.manifest?.plan.kind === "fixed" && a.manifest.plan.change.after).toContain(
      'burn = { workspace = true, features = ["cuda", "autodiff"] }',
    );
  });

  it("says so when the version named is older than the message", () => {
    const a = analyzePanic({
      text: 'not implemented: Requires `autodiff` feature\n```toml\n[dependencies]\nburn = "0.21.0"\n```\n',
    });
    // The Cargo.toml shown selects that release: it did not build the code that panicked.
    expect(a.tooOld).toEqual({ named: "0.21.0", firstWith: "0.22.0-pre.1", manifest: true });
    expect(a.manifest).toBeNull();
    expect(a.link?.ref).toBe("v0.22.0-pre.2");
  });

  it("reports malformed TOML in the issue instead of guessing", () => {
    const text =
      'not implemented: Requires `autodiff` feature\n\n```toml\n[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["wgpu" }\n```\n';
    const a = analyzePanic({ text });
    expect(a.manifest?.plan).toMatchObject({ kind: "invalid-toml" });
    expect(a.manifest?.plan.kind === "invalid-toml" && a.manifest.plan.error.line).toBe(2);
  });
});
