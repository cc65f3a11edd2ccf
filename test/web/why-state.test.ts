// The page's `why` says unknown where the data cannot tell, as the command line's does (reader finding 12).
import { describe, expect, it } from "@jest/globals";
import { fixture } from "../helpers/fixtures.js";
import { whyMarkdown } from "../../web/src/answer.js";

describe("the page's why", () => {
  it("a git rev the data cannot read: unknown, not off", () => {
    const md = whyMarkdown('[dependencies]\nburn = { git = "https://github.com/tracel-ai/burn", rev = "d16f7ba" }\n')!;
    expect(md.split("\n")[0]).toBe("**burn-dispatch/autodiff: unknown** (burn at a commit the data cannot read)");
  });

  it("a release it can read keeps its off", () => {
    const md = whyMarkdown(fixture("manifests/examples-style.toml"))!;
    expect(md).toMatch(/^\*\*burn-dispatch\/autodiff: off\*\*/);
  });

  it("says a verdict as the command line does, and never off twice (`off (off)`)", () => {
    const line = whyMarkdown(fixture("manifests/examples-style.toml"))!.split("\n")[0];
    expect(line).toBe("**burn-dispatch/autodiff: off**");
  });
});
