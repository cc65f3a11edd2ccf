import { describe, expect, it } from "@jest/globals";
import { commentHtml } from "../../web/src/answer.js";

describe("the page shows a comment as GitHub does", () => {
  it("renders the bot's own <details>, <summary> and <sub>, and hides its marker", () => {
    const html = commentHtml(
      "<!-- burn-triage:issue -->\n### Title\n\n<details><summary>Other ways out</summary>\n\n- one\n</details>\n\n<sub>burn `0.22.0`</sub>\n",
    );
    expect(html).toContain("<details><summary>Other ways out</summary>");
    expect(html).toContain("</details>");
    expect(html).toContain("<sub>burn <code>0.22.0</code></sub>");
    expect(html).not.toContain("burn-triage:issue");
  });
  it("shows any other HTML as text: attributes, other tags, a script", () => {
    for (const raw of [
      '<img src=x onerror="alert(1)">',
      "<details open>",
      '<a href="javascript:x">y</a>',
      "<script>x</script>",
    ]) {
      const html = commentHtml(`text ${raw} more\n\n${raw}\n`);
      expect(html).not.toMatch(/<(img|script|a |details open)/);
      expect(html).toContain("&lt;");
    }
  });
});
