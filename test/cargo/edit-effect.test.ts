// "Nothing else changes" is said of the manifest only: an edit that turns on crates says which,
// by the resolver's builds before and after it.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { planFix } from "../../src/cargo/fix/fix.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";

const manifest = (features: string[]) =>
  `[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = [${features.map((f) => JSON.stringify(f)).join(", ")}] }\n`;

function fixed(features: string[], target: { crate: string; feature: string }) {
  const plan = planFix({ path: "Cargo.toml", text: manifest(features) }, { target });
  if (plan.kind !== "fixed") throw new Error(`expected a fix, got ${plan.kind}`);
  return plan.change;
}

describe("what an edit turns on", () => {
  it("adding cuda to a wgpu build turns on burn-cuda; adding autodiff, burn-autodiff", () => {
    expect(fixed(["std", "wgpu"], { crate: "burn-dispatch", feature: "cuda" })).toMatchObject({
      added: ["cuda"],
      turnsOn: ["burn-cuda"],
    });
    expect(fixed(["std", "wgpu"], { crate: "burn-dispatch", feature: "autodiff" }).turnsOn).toEqual(["burn-autodiff"]);
  });

  it("the comment names them and does not say 'nothing else changes' of the build", () => {
    const text = [
      "```",
      "thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/device.rs:243:17:",
      "BURN_DEVICE=cuda requested, but the 'cuda' feature is not enabled.",
      "```",
      "```toml",
      manifest(["std", "wgpu"]),
      "```",
    ].join("\n");
    const body = renderIssueComment(analyze({ text }))!;
    expect(body).toContain("in the build it also turns on `burn-cuda`, a crate of that graph not in it before.");
    expect(body).not.toContain("and nothing else changes.");
  });
});
