import { describe, expect, it } from "@jest/globals";
import { planText } from "../../src/answer/plan.js";
import { extractSnippets, shownText } from "../../src/cargo/manifest/extract.js";

const PANIC = [
  "```",
  "thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:",
  "not implemented: Requires `autodiff` feature",
  "```",
].join("\n");
const TEMPLATE = [
  "<!-- Paste your Cargo.toml here, e.g.",
  "```toml",
  "[dependencies]",
  'burn = { version = "0.22.0-pre.2", features = ["train"] }',
  "```",
  "-->",
].join("\n");

describe("what GitHub shows", () => {
  it("drops HTML comments, one line or many, but not inside fenced code or a comment left open", () => {
    expect(shownText("a <!-- hidden --> b <!-- x --> c")).toBe("a  b  c");
    expect(shownText(`before\n${TEMPLATE}\nafter`)).toBe("before\n\nafter");
    const fenced = "```html\n<!-- shown as code -->\n```";
    expect(shownText(fenced)).toBe(fenced);
    expect(shownText("a <!-- never closed\nb")).toBe("a <!-- never closed\nb");
    expect(shownText("no comment")).toBe("no comment");
  });

  it("an issue template's example manifest is not read as the reporter's", () => {
    const plan = planText("autodiff panic", `${TEMPLATE}\n\n${PANIC}\n`);
    expect(plan.kind).toBe("answer");
    if (plan.kind !== "answer") return;
    expect(plan.text).not.toContain('features = ["train"]');
    expect(extractSnippets(plan.text).filter((s) => s.kind === "manifest")).toEqual([]);
    // Without the rule the example is a manifest the answer would judge.
    expect(extractSnippets(`${TEMPLATE}\n${PANIC}`).some((s) => s.kind === "manifest")).toBe(true);
  });

  it("is linear: ten thousand openings that never close cost one pass", () => {
    const hostile = "<!-- ".repeat(10_000);
    expect(shownText(hostile)).toBe(hostile);
  });
});
