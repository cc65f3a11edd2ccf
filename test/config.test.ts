import { describe, expect, it } from "@jest/globals";
import { DEFAULTS, resolveConfig } from "../src/config.js";

describe("config", () => {
  it("no file → defaults", () => {
    expect(resolveConfig(null)).toEqual({ config: DEFAULTS, errors: [] });
  });
  it("merges valid keys over defaults", () => {
    const { config, errors } = resolveConfig({ issues: { label: "needs-autodiff" }, commands: { allowed: "collaborators" } });
    expect(errors).toEqual([]);
    expect(config.issues).toEqual({ ...DEFAULTS.issues, label: "needs-autodiff" });
    expect(config.commands.allowed).toBe("collaborators");
  });
  it("names each invalid key and keeps its default", () => {
    const { config, errors } = resolveConfig({ issues: { label: 5, enabled: false }, commands: { cooldown_seconds: -1 }, bogus: true });
    expect(errors).toEqual(expect.arrayContaining(["issues.label: must be string", "commands.cooldown_seconds: must be >= 0", "bogus: unknown key"]));
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
