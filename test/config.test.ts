import { describe, expect, it } from "@jest/globals";
import { DEFAULTS, resolveConfig } from "../src/config/config.js";

describe("config", () => {
  it("no file → defaults", () => {
    expect(resolveConfig(null)).toEqual({ config: DEFAULTS, errors: [] });
  });
  it("merges valid keys over defaults", () => {
    const { config, errors } = resolveConfig({
      issues: { label: "needs-autodiff" },
      commands: { allowed: "collaborators" },
    });
    expect(errors).toEqual([]);
    expect(config.issues).toEqual({ ...DEFAULTS.issues, label: "needs-autodiff" });
    expect(config.commands.allowed).toBe("collaborators");
  });
  it("takes a label name as GitHub does: empty for none, else up to 50 characters and not only spaces", () => {
    const { config, errors } = resolveConfig({
      labels: { feature_off: "   ", compile_error: "x".repeat(51), misuse: "" },
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^labels\.feature_off: must match pattern/),
        "labels.compile_error: must NOT have more than 50 characters",
      ]),
    );
    expect(config.labels.feature_off).toBe(DEFAULTS.labels.feature_off);
    expect(config.labels.misuse).toBe("");
    expect(resolveConfig({ labels: { feature_off: "needs: autodiff" } }).errors).toEqual([]);
  });

  it("names each invalid key and keeps its default", () => {
    const { config, errors } = resolveConfig({
      issues: { label: 5, enabled: false },
      commands: { cooldown_seconds: -1 },
      bogus: true,
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        "issues.label: must be string",
        "commands.cooldown_seconds: must be >= 0",
        "bogus: unknown key",
      ]),
    );
    expect(config.issues.label).toBe(DEFAULTS.issues.label);
    expect(config.issues.enabled).toBe(false);
    expect(config.commands.cooldown_seconds).toBe(DEFAULTS.commands.cooldown_seconds);
  });
  it("a non-mapping file is an error, not a crash", () => {
    expect(resolveConfig("just a string").errors).toHaveLength(1);
    expect(resolveConfig([1, 2]).config).toEqual(DEFAULTS);
  });
  it("does not mutate the defaults", () => {
    resolveConfig({ ignore: { users: ["x"] } });
    expect(DEFAULTS.ignore.users).toEqual([]);
  });
});

describe("labels per answer kind", () => {
  const plan = async (body: string, yaml?: string) => {
    const { planIssue } = await import("../src/answer/plan.js");
    const config = yaml ? resolveConfig((await import("js-yaml")).load(yaml)).config : DEFAULTS;
    const p = planIssue(
      {
        action: "opened",
        title: "t",
        body,
        author: { login: "u", type: "User" },
        locked: false,
        labels: [],
        senderIsBot: false,
      },
      config,
    );
    return p.kind === "answer" ? p.label : `(${p.kind})`;
  };
  const PANIC = "not implemented: Requires `autodiff` feature\n";
  const RUSTC =
    "error[E0433]: cannot find `train` in `burn`\n --> src/main.rs:1:11\n  |\n1 | use burn::train::Learner;\n  |           ^^^^^ could not find `train` in `burn`\n";
  const MISUSE =
    "thread 'main' panicked at /home/q/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/macros.rs:1387:17:\nAutodiff float tensor is on the wrong backend (expected Cuda).\n";

  it("by default: `burn: feature off` on feature-off panics and rustc errors, none on misuse", async () => {
    expect(await plan(PANIC)).toBe("burn: feature off");
    expect(await plan(RUSTC)).toBe("burn: feature off");
    expect(await plan(MISUSE)).toBeNull();
  });

  it("each kind's own label, and an empty one for none", async () => {
    const yaml = 'labels: { feature_off: "a", compile_error: "", misuse: "m" }\n';
    expect([await plan(PANIC, yaml), await plan(RUSTC, yaml), await plan(MISUSE, yaml)]).toEqual(["a", null, "m"]);
  });

  it("an older config's issues.label keeps working for both feature-off kinds", async () => {
    const yaml = "issues: { label: autodiff-feature }\n";
    expect([await plan(PANIC, yaml), await plan(RUSTC, yaml), await plan(MISUSE, yaml)]).toEqual([
      "autodiff-feature",
      "autodiff-feature",
      null,
    ]);
  });
});

describe("one schema", () => {
  it("gives every key but the legacy label a default, and fills a missing section with them", () => {
    expect(resolveConfig({ ignore: { users: ["x"] } }).config).toEqual({
      ...DEFAULTS,
      ignore: { ...DEFAULTS.ignore, users: ["x"] },
    });
    expect(DEFAULTS.issues.label).toBeUndefined();
    expect(Object.keys(DEFAULTS).sort()).toEqual(["commands", "ignore", "issues", "labels", "pull_requests"]);
  });

  it("schema.json and the README's table are what `npm run docs:config` writes from it", async () => {
    const { readFileSync } = await import("node:fs");
    const { schemaJson, withTable } = await import("../src/config/config-docs.js");
    const { projectRoot } = await import("./support/root.js");
    const root = projectRoot(import.meta.url);
    expect(readFileSync(`${root}schema.json`, "utf8")).toBe(schemaJson());
    const readme = readFileSync(`${root}README.md`, "utf8");
    expect(readme).toBe(withTable(readme));
  });
});
