import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { github, newComment, noConfig, REPO } from "../helpers/nock.js";
import { makeProbot, payload } from "../helpers/probot.js";

// rustc's errors through the issues handler: a gated burn path gets the comment and the label;
// a compiler error about anything else costs no API call at all.
describe("issues handler: compile errors", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.restore());

  it("answers `could not find train in burn` with the verified edit, and labels it", async () => {
    let posted = "";
    const api = newComment(noConfig(github()), 9, (b) => (posted = b))
      .post(`${REPO}/issues/9/labels`, { labels: ["burn: feature off"] })
      .reply(200, []);
    await makeProbot().receive({ id: "c1", name: "issues", payload: payload("issues.opened.compile-error") });
    expect(api.pendingMocks()).toEqual([]);
    expect(posted).toContain("### `burn::train` is behind a cargo feature that is off");
    expect(posted).toContain("error[E0433]: cannot find `train` in `burn`");
    expect(posted).toContain("error[E0432]: unresolved import `burn::train`");
    expect(posted).toContain(
      '+burn = { version = "0.20.1", default-features = false, features = ["std", "wgpu", "dataset", "train"] }',
    );
    expect(posted).toContain("(https://github.com/tracel-ai/burn/blob/v0.20.1/crates/burn/src/lib.rs#L122)");
  });

  it("a rustc error about the user's own module or another crate: zero API calls", async () => {
    for (const body of [
      "```\nerror[E0433]: failed to resolve: could not find `model` in `guide`\n --> src/main.rs:4:12\n```",
      "```\nerror[E0432]: unresolved import `cubecl::wgpu`\n```",
      "```\nerror[E0432]: unresolved import `burn::trian`\n```",
    ]) {
      const p = payload("issues.opened.compile-error");
      p.issue.body = body;
      await makeProbot().receive({ id: `c-${body.length}`, name: "issues", payload: p });
    }
    expect(nock.pendingMocks()).toEqual([]);
  });
});
