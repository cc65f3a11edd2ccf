import { describe, expect, it } from "@jest/globals";
import { parseCommand } from "../src/answer/command.js";

describe("/explain-panic parsing", () => {
  it.each([
    ["/explain-panic", ""],
    ["please look\n/explain-panic", ""],
    ["  /explain-panic help", "help"],
    ["/explain-panic not implemented: Requires `autodiff` feature", "not implemented: Requires `autodiff` feature"],
  ])("%j", (body, args) => {
    expect(parseCommand(body)?.args).toBe(args);
  });
  it.each([
    ["mid-line", "can someone /explain-panic"],
    ["inside a fence", "```\n/explain-panic\n```"],
    ["inside a tilde fence", "~~~\n/explain-panic\n~~~"],
    ["in a quote", "> /explain-panic\nthanks"],
    ["a longer word", "/explain-panics"],
    ["indented code (4 spaces)", "    /explain-panic"],
    ["a fence never closed (Markdown keeps it open)", "```\nlog\n/explain-panic\nmore log"],
    ['a fence whose "closing" line has text after it (still open)', "```\nlog\n``` not a close\n/explain-panic"],
    ["an HTML comment", "<!--\n/explain-panic\n-->"],
    ["an HTML comment inside a paragraph", "see <!--\n/explain-panic\n--> here"],
    ["inline code across lines", "run `\n/explain-panic\n` please"],
    ["a nested quote", "> > /explain-panic"],
    ["a lazy quote continuation", "> quoted\n/explain-panic"],
  ])("ignores %s", (_n, body) => {
    expect(parseCommand(body)).toBeNull();
  });
  it("a command after a closed fence and in a list item is answered", () => {
    expect(parseCommand("```\nlog\n```\n/explain-panic")?.args).toBe("");
    expect(parseCommand("- /explain-panic help")?.help).toBe(true);
  });
  it("answers the same on Markdown built to hold a parser (deep quotes and lists, unclosed links, emphasis runs)", () => {
    const deep = `${"> ".repeat(30000)}/explain-panic`;
    expect(parseCommand(deep)).toBeNull();
    expect(parseCommand(`/explain-panic help\n${"- ".repeat(15000)}x\n${"  y\n".repeat(8000)}`)?.help).toBe(true);
    expect(parseCommand(`${"[a](".repeat(15000)}\n\n/explain-panic`)?.args).toBe("");
    expect(parseCommand(`*a ${"*a".repeat(30000)}\n/explain-panic x`)?.args).toBe("x");
  });
  it("a huge comment is read only up to GitHub's limit", () => {
    expect(parseCommand(`${"x".repeat(70000)}\n/explain-panic`)).toBeNull();
  });
  it("recognises help and keeps the rest of the comment", () => {
    const c = parseCommand("/explain-panic help")!;
    expect(c.help).toBe(true);
    const d = parseCommand("log:\n/explain-panic\nthread 'main' panicked")!;
    expect(d.rest).toBe("log:\nthread 'main' panicked");
  });
});
