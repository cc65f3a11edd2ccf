// Manifests pasted without a fence: found where a reader sees them, never twice, never in prose.
import { describe, expect, it } from "@jest/globals";
import { extractSnippets } from "../../src/cargo/manifest/extract.js";

const burn = 'burn = { version = "0.22.0-pre.2", default-features = false, features = ["wgpu"] }';

describe("unfenced manifests", () => {
  it("a manifest pasted as plain text, ended by the prose after it", () => {
    const text = `My Cargo.toml:\n\n[package]\nname = "x"\n\n[dependencies]\n${burn}\n\nAny idea what is wrong?\n`;
    expect(extractSnippets(text)).toEqual([
      { kind: "manifest", text: `[package]\nname = "x"\n\n[dependencies]\n${burn}\n`, wrapped: false, whole: true },
    ]);
  });

  it("a features array over several lines, comments and an indented code block", () => {
    const text = `Here:\n\n    [dependencies]\n    # the GPU one\n    burn = { version = "0.22.0-pre.2", features = [\n        "wgpu",\n        "train", # for the learner\n    ] }\n    serde = "1"\nthanks\n`;
    const [s] = extractSnippets(text);
    expect(s?.text).toBe(
      '    [dependencies]\n    # the GPU one\n    burn = { version = "0.22.0-pre.2", features = [\n        "wgpu",\n        "train", # for the learner\n    ] }\n    serde = "1"\n',
    );
    expect(s?.whole).toBe(false);
  });

  it("a `]` inside a string does not close the array early", () => {
    const text = `[dependencies]\nburn = { version = "0.22.0-pre.2", features = [\n  "a]b",\n  "wgpu",\n] }\n`;
    expect(extractSnippets(text)[0]?.text).toContain('  "wgpu",\n] }');
  });

  it("a fenced manifest is read once, from its fence", () => {
    const text = `\`\`\`toml\n[dependencies]\n${burn}\n\`\`\`\n`;
    expect(extractSnippets(text)).toHaveLength(1);
  });

  it("a fenced panic and an unfenced manifest: the manifest is found", () => {
    const text = `\`\`\`\nnot implemented: Requires \`autodiff\` feature\n\`\`\`\n\n[dependencies]\n${burn}\n`;
    expect(extractSnippets(text).map((s) => s.text)).toEqual([`[dependencies]\n${burn}\n`]);
  });

  it.each([
    ["a header followed by prose", "[dependencies]\nI added burn to it and it broke\n"],
    ["a header not of cargo's tables", "[notes]\nburn = 1\n"],
    ["a header inside a sentence", "Under [dependencies] I have burn = 0.22\n"],
    ["a table without burn", '[dependencies]\nserde = "1"\n'],
  ])("%s is no manifest", (_n, text) => {
    expect(extractSnippets(text)).toEqual([]);
  });

  it("a block that does not parse is dropped: its end was a guess, not the user's syntax", () => {
    const text = `[dependencies]\n${burn}\nfeatures = wgpu only, is that right?\n`;
    expect(extractSnippets(text)).toEqual([]);
    expect(extractSnippets(`\`\`\`toml\n[dependencies]\nburn = {\n\`\`\`\n`)).toHaveLength(1);
  });

  it("takes at most eight, in one pass over a long body", () => {
    const text = "[dependencies]\nburn = 1\nprose\n".repeat(5000);
    expect(extractSnippets(text)).toHaveLength(8);
  });
});
