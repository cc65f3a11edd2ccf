import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { broughtBy, lockPackages, MAX_LOCK_PACKAGES } from "../../src/cargo/manifest/lockfile.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { fixture } from "../helpers/fixtures.js";

// Real cargo's lock (scripts/lock-fixtures.mjs): myapp declares burn 0.20.1; yolo-burn brings
// burn 0.22.0-pre.2 and, through burn-core, burn-dispatch.
const LOCK = fixture("cargo/lock-two-burns.lock");

describe("who brings a crate into the build, from Cargo.lock", () => {
  it("walks up from the crate to the lock's root, as cargo tree -i does", () => {
    expect(broughtBy(lockPackages(LOCK), "burn-dispatch", "0.22.0-pre.1")).toEqual([
      "myapp 0.1.0",
      "yolo-burn 0.3.2",
      "burn 0.22.0-pre.2",
      "burn-core 0.22.0-pre.2",
      "burn-dispatch 0.22.0-pre.2",
    ]);
    // Not in the lock, or only older than asked: nothing is said.
    expect(broughtBy(lockPackages(LOCK), "burn-train")).toBeNull();
    expect(broughtBy(lockPackages(LOCK), "burn-dispatch", "0.23.0")).toBeNull();
  });

  it("a cut-off paste, and a lock far longer than any project's, are read in bounds", () => {
    expect(lockPackages(LOCK.slice(0, LOCK.indexOf('name = "myapp"')))).toHaveLength(4);
    const huge = Array.from(
      { length: MAX_LOCK_PACKAGES + 50 },
      (_, i) => `[[package]]\nname = "c${i}"\nversion = "1.0.0"\ndependencies = ["c${i + 1}"]\n`,
    ).join("\n");
    expect(lockPackages(huge)).toHaveLength(MAX_LOCK_PACKAGES);
    expect(broughtBy(lockPackages(huge), "c19999")?.length).toBe(MAX_LOCK_PACKAGES);
    // One crate every other package depends on: each dependent is listed once, not copied per add.
    const star = `[[package]]\nname = "hub"\nversion = "1.0.0"\n${Array.from({ length: 19_000 }, (_, i) => `[[package]]\nname = "d${i}"\nversion = "1.0.0"\ndependencies = ["hub"]\n`).join("")}`;
    expect(broughtBy(lockPackages(star), "hub")).toEqual(["d0 1.0.0", "hub 1.0.0"]);
  });

  it("the comment names the chain where the Cargo.toml shown is set aside", () => {
    const text = `It panics:\n\n\`\`\`\nthread 'main' panicked at 'not implemented: Requires \`autodiff\` feature'\n\`\`\`\n\n\`\`\`toml\n[package]\nname = "myapp"\n\n[dependencies]\nburn = "0.20.1"\nyolo-burn = "0.3"\n\`\`\`\n\nCargo.lock:\n\n\`\`\`\n${LOCK}\`\`\`\n`;
    const body = renderIssueComment(analyze({ text }))!;
    expect(body).toContain(
      "your Cargo.lock shows which (as `cargo tree -i burn-dispatch` would): `myapp 0.1.0` → `yolo-burn 0.3.2` → `burn 0.22.0-pre.2` → `burn-core 0.22.0-pre.2` → `burn-dispatch 0.22.0-pre.2`.",
    );
    expect(body).not.toContain("**Fix**");
  });
});
