import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { fixture } from "../helpers/fixtures.js";
import { deliver, until, withServers } from "../helpers/server.js";
import { type FakeIndex, startFakeIndex } from "../support/fake-index.js";
import { scenarioRepo, webhook } from "../support/scenario.js";

// The real server on a burn release newer than its bundled data: the feature graph from a
// crates.io index on loopback (the default index outside tests), the line from burn's source read
// at the release tag through the (fake) GitHub contents API.
let index: FakeIndex;
beforeAll(async () => {
  index = await startFakeIndex();
});
afterAll(() => index.close());

const repo = scenarioRepo();
repo.files!["v0.22.1:crates/burn-dispatch/src/backend.rs"] = fixture(
  "burn-src/v0.22.1/crates/burn-dispatch/src/backend.rs",
);

function issue(number: number) {
  const p = webhook("issues.opened");
  p.issue.number = number;
  p.issue.body = [
    "```",
    "thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.1/src/backend.rs:58:9:",
    "not implemented: Requires `autodiff` feature",
    "```",
    "```toml",
    "[dependencies]",
    'burn = { version = "0.22.1", default-features = false, features = ["std", "cuda"] }',
    "```",
  ].join("\n");
  return p;
}

describe("end to end: a release newer than the bundled data", () => {
  const stack = withServers(1, () => ({ CRATES_INDEX_URL: index.url }), repo);

  it("resolves on the release's own graph from the index and links the line read at its tag", async () => {
    expect((await deliver(stack.servers[0]!, "issues", issue(21))).status).toBe(200);
    await until(() => stack.fake.comments.length === 1);
    const body = stack.fake.comments[0]!.body;
    expect(body).toContain("(https://github.com/tracel-ai/burn/blob/v0.22.1/crates/burn-dispatch/src/backend.rs#L58)");
    expect(body).toContain("Verified on burn `0.22.1`</summary>\n\n<sub>Its feature graph from crates.io's index:");
    expect(body).toContain('features = ["std", "cuda", "autodiff"]');
    const reads = stack.fake.calls.filter((c) => c.path.includes("/contents/crates"));
    expect(reads.map((c) => c.path)).toEqual([
      "/repos/tracel-ai/burn/contents/crates%2Fburn-dispatch%2Fsrc%2Fbackend.rs?ref=v0.22.1",
    ]);
    const cold = index.requests.filter((r) => r.status === 200).length;
    expect(cold).toBeGreaterThan(20);

    // A second issue on the same release: the index is warm and the file is not read again.
    expect((await deliver(stack.servers[0]!, "issues", issue(22))).status).toBe(200);
    await until(() => stack.fake.comments.length === 2);
    expect(stack.fake.calls.filter((c) => c.path.includes("/contents/crates"))).toHaveLength(1);
    expect(index.requests.filter((r) => r.status === 200).length).toBe(cold);
  });
});
