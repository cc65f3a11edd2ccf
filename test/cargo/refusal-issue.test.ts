import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { triage } from "../../src/answer/plan.js";
import { detectCargoRefusal } from "../../src/cargo/judge/cargo-error.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { fixture, root } from "../helpers/fixtures.js";

// cargo's own refusal pasted in an issue (real cargo 1.95 output: scripts/cargo-refusal-fixtures.mjs).
const logs = readdirSync(join(root, "fixtures/cargo")).filter((f) => f.startsWith("refusal-"));
const issue = (log: string, manifest?: string) =>
  `After bumping burn:\n\n\`\`\`\n${fixture(`cargo/${log}`)}\`\`\`\n${manifest ? `\n\`\`\`toml\n${manifest}\`\`\`\n` : ""}`;
const comment = (text: string) => renderIssueComment(analyze({ text }));

describe("cargo's refusal in an issue", () => {
  it.each(logs)("%s is read as cargo printed it", (log) => {
    const found = detectCargoRefusal(fixture(`cargo/${log}`))!;
    expect(found).toMatchObject({ package: "myapp", crate: expect.stringMatching(/^burn/) });
    expect(found.versions).toHaveLength(1);
    expect(triage(issue(log))).toMatchObject({ answerable: true, kind: "compile" });
  });

  it("a removed feature: the release that removed it and what replaces it, said once", () => {
    const body = comment(issue("refusal-server-0.22-build.txt"))!;
    expect(body).toContain("### `burn` has no feature `server` at this release");
    expect(body).toContain("(it tried `burn` `0.22.0-pre.2`, for `^0.22.0-pre.2`)");
    expect(body).toContain("release `0.22.0-pre.1` removed it; `remote-websocket` or `remote-server` replace it");
    expect(body).toContain("Show the Cargo.toml");
    expect(body).not.toContain("**Fix**");
  });

  it("with the manifest: every feature cargo would refuse, cargo naming only the first", () => {
    const manifest =
      '[package]\nname = "myapp"\n\n[features]\ncache = ["burn/compilation-cache"]\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "server"] }\n';
    const body = comment(issue("refusal-server-0.22-build.txt", manifest))!;
    expect(body).toContain("Line 8 asks `burn` 0.22.0-pre.2 for feature `server`");
    expect(body).toContain("Your `[features]` entry `cache` asks `burn` 0.22.0-pre.2 for feature `compilation-cache`");
    expect(body).toContain("release `0.19.0` removed it");
    // The feature cargo named is said once, in the manifest's list.
    expect(body.split("`0.22.0-pre.1` removed it")).toHaveLength(2);
    // One edit past both, and nothing the reporter did not ask about (no autodiff added).
    expect(body).toContain(
      '+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "remote-websocket"] }',
    );
    expect(body).toContain("+cache = []");
    expect(body).toContain(
      "every feature it names exists at that release (cargo accepts it), and nothing else in the manifest changes",
    );
    expect(body).not.toContain('"autodiff"');
  });

  it("a feature the member inherits: the edit is in the workspace root's line, though cargo names the member", () => {
    const root =
      '[workspace]\nmembers = ["myapp"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "server"] }\n';
    const member = '[package]\nname = "myapp"\nversion = "0.1.0"\n\n[dependencies]\nburn = { workspace = true }\n';
    const text = `${issue("refusal-workspace-server-0.22-build.txt")}\nThe root:\n\`\`\`toml\n${root}\`\`\`\n\nmyapp/Cargo.toml:\n\`\`\`toml\n${member}\`\`\`\n`;
    const body = comment(text)!;
    expect(body).toContain(
      "Your workspace root's `burn` entry, which this manifest inherits, asks `burn` 0.22.0-pre.2 for feature `server`",
    );
    // Line 6 is the member's `workspace = true`; the root's entry is its line 5 (issue 53).
    expect(body).not.toContain("line 6");
    expect(body).toContain("(the workspace root, for every member that inherits it), line 5");
    expect(body).toContain(
      '```diff\n-burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "server"] }\n+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "remote-websocket"] }',
    );
    expect(body).not.toContain("I found no verified");
  });

  it("several missing features: cargo names the first it meets, the comment every one, with one edit past all", () => {
    const manifest =
      '[package]\nname = "myapp"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "dispatch", "server"] }\n';
    const body = comment(issue("refusal-several-0.22-build.txt", manifest))!;
    expect(body).toContain("### `burn` has no feature `dispatch` at this release");
    expect(body).toContain("asks `burn` 0.22.0-pre.2 for feature `server`");
    expect(body).toContain(
      '+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "remote-websocket"] }',
    );
  });

  it("forwarded through [features] (cargo names the dependency's feature), and a typo", () => {
    const fwd = comment(
      issue(
        "refusal-forwarded-cuda-jit-0.17-build.txt",
        '[features]\ngpu = ["burn/cuda-jit"]\n\n[dependencies]\nburn = { version = "0.17.1", default-features = false, features = ["std"] }\n',
      ),
    )!;
    expect(fwd).toContain("Your `[features]` entry `gpu` asks `burn` 0.17.1 for feature `cuda-jit`");
    expect(fwd).toContain("`cuda` replaces it");
    const typo = comment(issue("refusal-typo-wgpuu-0.22-build.txt"))!;
    expect(typo).toContain("no release of `burn` has it; did you mean `wgpu`?");
  });

  it("every removal in burn's feature history, at its release, is answered with that history", () => {
    const history = JSON.parse(readFileSync(join(root, "data/removed-features.json"), "utf8")) as {
      removed: Array<{ crate: string; feature: string; at: string | null; replacement: string[] | null }>;
    };
    const dated = history.removed.filter((r) => r.at);
    expect(dated.length).toBeGreaterThanOrEqual(15);
    for (const r of dated) {
      const body = comment(issue(`refusal-history-${r.crate}-${r.feature}-build.txt`))!;
      expect([r.feature, body]).toEqual([r.feature, expect.stringContaining(`release \`${r.at}\` removed it`)]);
      const instead =
        r.replacement === null
          ? "nothing replaces it"
          : r.replacement.length === 0
            ? "nothing is needed in its place"
            : `\`${r.replacement[0]}\``;
      expect([r.feature, body]).toEqual([r.feature, expect.stringContaining(instead)]);
    }
  });

  it("read wherever a terminal or an issue form wraps the sentence", () => {
    const log = fixture("cargo/refusal-several-0.22-build.txt");
    const sentence = /package `myapp` depends on[^\n]*does not have that feature\./.exec(log)![0];
    const spaces = [...sentence.matchAll(/ /g)].map((m) => m.index!);
    expect(spaces.length).toBeGreaterThan(10);
    for (const at of spaces) {
      const wrapped = log.replace(sentence, `${sentence.slice(0, at)}\n${sentence.slice(at + 1)}`);
      expect([at, detectCargoRefusal(wrapped)?.feature]).toEqual([at, "dispatch"]);
    }
  });

  it("silent on another crate's refusal and on prose that quotes the words", () => {
    const tokio =
      "error: failed to select a version for `tokio`.\n\npackage `myapp` depends on `tokio` with feature `rt-multi` but `tokio` does not have that feature.\n";
    expect(comment(tokio)).toBeNull();
    expect(comment("Why does cargo say a crate does not have that feature? I use burn.")).toBeNull();
  });
});
