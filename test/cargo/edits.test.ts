// The editor's cases as cargo-add keeps them: fixtures/edits/<case>/in.toml is a manifest, and
// out.toml is the whole file after the bot's verified edit (reviewed once by eye, then held).
// A byte that moves anywhere in the file fails the case.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { projectRoot } from "../support/root.js";

const dir = join(projectRoot(import.meta.url), "fixtures/edits");
const cases = readdirSync(dir).sort();

describe("the manifest editor, case by case", () => {
  it("has its cases", () => expect(cases.length).toBeGreaterThanOrEqual(6));

  it.each(cases)("%s", (name) => {
    const text = readFileSync(join(dir, name, "in.toml"), "utf8");
    const plan = planFix({ path: "Cargo.toml", text });
    expect(plan.kind).toBe("fixed");
    expect(plan.kind === "fixed" && plan.change.after).toBe(readFileSync(join(dir, name, "out.toml"), "utf8"));
  });
});
