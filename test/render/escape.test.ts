import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { code, fence, text } from "../../src/render/escape.js";

describe("escaping user text", () => {
  it("code spans survive backticks", () => {
    expect(code("a`b")).toBe("``a`b``");
    expect(code("`x`")).toBe("`` `x` ``");
  });
  it("fences are longer than any backtick run inside", () => {
    const body = "```\n@admin <img src=x onerror=alert(1)>\n````";
    const f = fence(body, "diff");
    expect(f.startsWith("`````diff\n")).toBe(true);
    expect(f.endsWith("\n`````")).toBe(true);
  });
  it("plain text: no mention, no HTML, no Markdown", () => {
    expect(text("@octocat <b>hi</b> *x* [l](u)")).toBe("@\u200boctocat &lt;b&gt;hi&lt;/b&gt; \\*x\\* \\[l\\](u)");
  });
  it("property: a fence can never be closed from inside", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("`", "~", "a", "\n", " ") }), (s) => {
        const f = fence(s);
        const open = /^`+/.exec(f)![0];
        const inner = f.slice(open.length, f.length - open.length);
        // No line inside may start with a backtick run as long as the opening fence.
        for (const line of inner.split("\n")) expect(line.trimStart().startsWith(open)).toBe(false);
      }),
    );
  });
});
