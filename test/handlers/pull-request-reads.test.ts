// The PR review's reads against the fake GitHub: a whole workspace in a constant number of calls
// by GraphQL, the REST fallback when GraphQL is refused, and what a bound leaves unread said.
import { afterEach, describe, expect, it } from "@jest/globals";
import app from "../../src/index.js";
import { type FakeGitHub, type FakeRepo, startFakeGitHub } from "../support/fake-github.js";
import { offlineProbot, webhook } from "../support/scenario.js";
import { memberName, workspaceRepo } from "../support/workspace.js";

let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  delete process.env.GRAPHQL_READS;
});

async function review(repo: FakeRepo, setup: (f: FakeGitHub) => void = () => {}) {
  fake = await startFakeGitHub(repo);
  setup(fake);
  const probot = offlineProbot({ baseUrl: fake.apiUrl });
  probot.load(app);
  await probot.receive({ id: "pr-1", name: "pull_request", payload: webhook("pull_request.opened") });
  // The installation token and the app's identity are asked once per process, not per event.
  const calls = fake.calls.filter((c) => !c.path.includes("/access_tokens") && c.path !== "/app");
  return { calls, fake };
}

const graphqlCalls = (calls: Array<{ path: string }>) => calls.filter((c) => c.path.endsWith("/graphql")).length;

describe("PR reads", () => {
  it("a 1,000-member root bump names the one member that forwards a removed feature, in 8 calls", async () => {
    const { calls, fake } = await review(workspaceRepo(1000, { collectiveAt: 777, edited: 3 }));
    expect(fake.reviews).toHaveLength(1);
    const body = fake.reviews[0]!.body;
    expect(body).toContain(`crates/${memberName(777)}/Cargo.toml`);
    for (const other of [1, 3, 776, 778, 1000]) expect(body).not.toContain(`crates/${memberName(other)}/`);
    expect(body).not.toContain("I did not read");
    // The file list, the config (repository, owner's .github), the tree, two GraphQL queries of
    // 1,000 objects at most, the check run, the review.
    expect(calls.length).toBeLessThanOrEqual(8);
    expect(graphqlCalls(calls)).toBe(2);
  });

  it("falls back to REST when GraphQL is refused, and says which files it did not read", async () => {
    const { calls, fake } = await review(workspaceRepo(100, { collectiveAt: 77 }), (f) =>
      f.faults.push({ path: "/graphql", status: 404, times: 1 }),
    );
    expect(graphqlCalls(calls)).toBe(1);
    const body = JSON.stringify(fake.checkRuns);
    expect(body).toContain("I did not read");
    expect(body).toContain("GraphQL API was not available");
  });

  it("a blob GitHub cuts short is not judged as if whole, and is named", async () => {
    const { fake } = await review(workspaceRepo(10, { collectiveAt: 7 }), (f) => {
      f.blobTextLimit = 120;
    });
    const said = [...fake.reviews.map((r) => r.body), ...fake.checkRuns.map((r) => JSON.stringify(r))].join("\n");
    expect(said).toContain("(too large)");
  });

  it("a PR with 3,000 reviews by others reads its own previous review in the same query", async () => {
    const repo = workspaceRepo(10, { collectiveAt: 7 });
    const quiet = await review(repo);
    const before = quiet.calls.length;
    await quiet.fake.close();
    const { calls } = await review(repo, (f) => {
      for (let i = 0; i < 3000; i++)
        f.reviews.push({
          id: 10_000 + i,
          body: `LGTM ${i}`,
          commit_id: "b".repeat(40),
          user: { login: `person${i}`, type: "User" },
          comments: [],
          pull: 12,
        });
    });
    expect(calls.length).toBeLessThanOrEqual(before + 2);
  });

  it("GRAPHQL_READS=off reads by REST only", async () => {
    process.env.GRAPHQL_READS = "off";
    const { calls, fake } = await review(workspaceRepo(10, { collectiveAt: 7 }));
    expect(graphqlCalls(calls)).toBe(0);
    expect(fake.reviews[0]!.body).toContain(`crates/${memberName(7)}/Cargo.toml`);
  });
});
