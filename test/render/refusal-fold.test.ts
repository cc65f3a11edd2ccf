// A refusal comment's fold ("What burn's history says of each") tells each feature's story under
// the verdict said just above it: "Cargo would refuse this manifest…" once, and a line number only
// when the manifest read is the whole file.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { answerIssue } from "../../src/answer/answer.js";
import { renderAnswerComment } from "../../src/render/issue.js";
import { fixture } from "../helpers/fixtures.js";
import { issueTexts } from "../support/issue-texts.js";

const comment = (text: string) => renderAnswerComment(answerIssue(analyze({ text })))!;
const fold = (c: string) => c.slice(c.indexOf("<summary>What burn's history says of each</summary>"));
const count = (s: string, part: string) => s.split(part).length - 1;

describe("the refusal comment's history fold", () => {
  const withManifest = issueTexts().filter(([name]) => name.startsWith("cargo/") && name.endsWith("+ manifest"));

  it.each(withManifest)("%s: the verdict said once, each feature's history in the fold", (_name, text) => {
    const c = comment(text);
    expect(count(c, "Cargo would refuse this manifest")).toBe(1);
    expect(fold(c)).toMatch(/asks `burn` 0\.22\.0-pre\.2 for feature `\w+`, which it does not have: /);
    expect(fold(c)).not.toContain("Until it resolves");
  });

  it("a typo whose edit is shown is not asked about again in the fold ('did you mean'); without a manifest it is", () => {
    for (const [name, text] of withManifest.filter(([n]) => n.includes("typo"))) {
      expect([name, fold(comment(text))]).not.toEqual([name, expect.stringContaining("did you mean")]);
      expect(comment(text)).toContain("**Fix**");
    }
    expect(comment(fixture("cargo/refusal-typo-rocn-0.22-build.txt"))).toContain("did you mean `rocm` or `doc`?");
  });

  it("an excerpt of the manifest (one line, no table): the fold names the entry, not a line of the wrapper", () => {
    const c = comment(
      `After bumping burn:\n\n\`\`\`\n${fixture("cargo/refusal-server-0.22-build.txt")}\`\`\`\n\n\`\`\`toml\nburn = { version = "0.22.0-pre.2", features = ["wgpu", "server"] }\n\`\`\`\n`,
    );
    expect(fold(c)).toContain("Your `burn` entry asks `burn` 0.22.0-pre.2 for feature `server`");
    expect(c).not.toMatch(/\bLine \d/);
  });

  it("a feature refused on two lines of the manifest: the verdict names it once, the fold both lines", () => {
    const c = comment(
      `After Renovate's bump:\n\n\`\`\`\n${fixture("cargo/refusal-server-0.22-build.txt")}\`\`\`\n\n\`\`\`toml\n${fixture("repos/renovate-two-lines/head/Cargo.toml")}\`\`\`\n`,
    );
    expect(count(c, "has no `server`")).toBe(1);
    expect(fold(c)).toContain("Lines 7 and 16 ask `burn` 0.22.0-pre.2 for feature `server`");
  });
});
