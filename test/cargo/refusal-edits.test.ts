// An edit where one exists: a typo of a feature name gets the verified diff (said to be taken as
// a typo), three removed features on one line one edit, and a removal on two lines an edit on each.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { planFix } from "../../src/cargo/fix/fix.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { root } from "../helpers/fixtures.js";

const log = (name: string) => readFileSync(join(root, "fixtures/cargo", name), "utf8");
const comment = (build: string, manifest: string) =>
  renderIssueComment(analyze({ text: `\`\`\`\n${log(build)}\n\`\`\`\n\n\`\`\`toml\n${manifest}\`\`\`\n` }))!;

describe("an edit where one exists", () => {
  it("a typo with one near name: the diff, verified, and said to be taken as a typo", () => {
    const manifest =
      '[package]\nname = "myapp"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpuu"] }\n';
    const body = comment("refusal-typo-wgpuu-0.22-build.txt", manifest);
    // The edit says which name it takes: the history's fold does not ask again.
    expect(body).toContain("no release of `burn` has it.");
    expect(body).not.toContain("did you mean");
    expect(body).toContain(
      '+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu"] }',
    );
    expect(body).toContain("taken as a typo");
    expect(body).toContain("cargo accepts it");
  });

  it("a typo with one near name is renamed; with two (`rocn`: `rocm` or `doc`), none is guessed", () => {
    const plan = (f: string) =>
      planFix({
        path: "Cargo.toml",
        text: `[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["${f}"] }\n`,
      });
    const one = plan("metl");
    expect(one.kind === "fixed" ? one.change.resolves?.renamed : null).toEqual([
      { feature: "metl", to: "metal", others: [], typo: true },
    ]);
    expect(plan("rocn").kind).toBe("no-fix");
  });
});

describe("a feature removed from two lines of one file", () => {
  // The shape of a Renovate bump: burn declared in [dependencies] and in a target's table.
  const manifest =
    '[package]\nname = "myapp"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["std", "server"] }\n\n[target.\'cfg(unix)\'.dependencies]\nburn = { version = "0.22.0-pre.2", features = ["server", "wgpu"] }\n';

  it("each line is named, and one verified edit renames it on both", () => {
    const body = comment("refusal-server-0.22-build.txt", manifest);
    // Both lines in one sentence, burn's history said once.
    expect(body).toContain("Lines 5 and 8 ask `burn` 0.22.0-pre.2 for feature `server`");
    expect(body.split("`0.22.0-pre.1` removed it;").length).toBe(2);
    expect(body).toContain("**Fix** — `Cargo.toml`, lines 5–8:");
    expect(body).toContain('+burn = { version = "0.22.0-pre.2", features = ["std", "remote-websocket"] }');
    expect(body).toContain('+burn = { version = "0.22.0-pre.2", features = ["remote-websocket", "wgpu"] }');
    expect(body.split("would replace `server` as well").length).toBe(2);
  });

  it("three removed features on one line: one verified edit", () => {
    const plan = planFix({
      path: "Cargo.toml",
      text: '[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["dispatch", "server", "compilation-cache"] }\n',
    });
    expect(plan.kind).toBe("fixed");
    expect(plan.kind === "fixed" && plan.change.after).toContain('features = ["remote-websocket"]');
  });
});

describe("a removed feature in [dev-dependencies]", () => {
  // cargo resolves dev-dependencies for every build: `dispatch` there refuses the manifest, so the
  // edit that is said to get past cargo's refusal must change that line too.
  it("is refused, and the verified edit drops it there as well as renaming `server` in [dependencies]", () => {
    const plan = planFix({
      path: "Cargo.toml",
      text: '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["std", "server"] }\n\n[dev-dependencies]\nburn = { version = "0.22.0-pre.2", features = ["dispatch", "autodiff"] }\n',
    });
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(plan.diagnosis.refused?.map((r) => r.feature)).toEqual(["server", "dispatch"]);
    expect(plan.change.after).toContain(
      '[dev-dependencies]\nburn = { version = "0.22.0-pre.2", features = ["autodiff"] }',
    );
    expect(plan.change.resolves?.dropped).toEqual(["dispatch"]);
  });
});
