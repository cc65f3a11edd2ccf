import { describe, expect, it } from "@jest/globals";
import { parseCommand } from "../src/command.js";

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
  ])("ignores %s", (_n, body) => {
    expect(parseCommand(body)).toBeNull();
  });
  it("recognises help and keeps the rest of the comment", () => {
    const c = parseCommand("/explain-panic help")!;
    expect(c.help).toBe(true);
    const d = parseCommand("log:\n/explain-panic\nthread 'main' panicked")!;
    expect(d.rest).toBe("log:\nthread 'main' panicked");
  });
});
