import { describe, expect, it } from "@jest/globals";
import { detect } from "../../src/panics/detect.js";

const MESSAGE = "No backend feature enabled.";
const ids = (text: string) => detect(text).map((f) => f.id);

describe("a message quoted as documentation is not a report", () => {
  it.each([
    ["a block quote in bold, as the book's text", `Adds to the book:\n\n> **\`${MESSAGE}\`**\n\nLooks good to me.`],
    ["a block quote of the message alone", `The docs say:\n\n> ${MESSAGE}\n`],
    ["bold in prose", `We should document **${MESSAGE}** better.`],
    ["italics in prose", `The panic _${MESSAGE}_ needs a better wording.`],
    [
      "inline code in a bullet list of release notes",
      `## Release notes\n\n- Fixed \`${MESSAGE}\` appearing on builds without a backend.\n- Faster wgpu kernels.\n`,
    ],
  ])("%s", (_name, text) => {
    expect(ids(text)).toEqual([]);
  });
});

describe("a message the user pasted is still a report", () => {
  it.each([
    ["inline in prose", `Running my trainer prints internal error: entered unreachable code: ${MESSAGE} and exits.`],
    ["as inline code in prose", `My program dies with \`${MESSAGE}\` right at startup.`],
    ["on its own line", `It fails:\n\ninternal error: entered unreachable code: ${MESSAGE}\n`],
    ["in a code block inside a quote", `> \`\`\`\n> ${MESSAGE}\n> \`\`\`\n`],
    [
      "in a quote that holds the panic header",
      `> thread 'main' panicked at 'internal error: entered unreachable code: ${MESSAGE}'\n> note: run with \`RUST_BACKTRACE=1\`\n`,
    ],
    ["in a bullet list as prose, not code", `Steps:\n\n- run \`cargo run\`\n- it prints ${MESSAGE}\n`],
  ])("%s", (_name, text) => {
    expect(ids(text)).toEqual(["dispatch-no-backend-unreachable"]);
  });

  it("with its location, even when quoted or bold", () => {
    const panic = `thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/device.rs:591:18:\ninternal error: entered unreachable code: ${MESSAGE}`;
    expect(detect(`> **${panic}**`).map((f) => f.location?.line)).toEqual([591]);
  });
});
