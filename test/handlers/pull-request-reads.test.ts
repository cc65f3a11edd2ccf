// The PR review's reads against the fake GitHub: a whole workspace in a constant number of calls
// by GraphQL, the REST fallback when GraphQL is refused, and what a bound leaves unread said.
import { afterEach, describe, expect, it } from "@jest/globals";
import app from "../../src/index.js";
import { type FakeGitHub, type FakeRepo, startFakeGitHub } from "../support/fake-github.js";
import { offlineProbot, webhook } from "../support/scenario.js";
import { BASE_TIP_SHA, burnPrRepo, memberName, prOpened, trimRepo, workspaceRepo } from "../support/workspace.js";

let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  delete process.env.GRAPHQL_READS;
});

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are plain JSON
async function review(repo: FakeRepo, setup: (f: FakeGitHub) => void = () => {}, payload: any = null) {
  fake = await startFakeGitHub(repo);
  setup(fake);
  const probot = offlineProbot({ baseUrl: fake.apiUrl });
  probot.load(app);
  await probot.receive({ id: "pr-1", name: "pull_request", payload: payload ?? webhook("pull_request.opened") });
  // The installation token and the app's identity are asked once per process, not per event.
  const calls = fake.calls.filter((c) => !c.path.includes("/access_tokens") && c.path !== "/app");
  return { calls, fake };
}

const graphqlCalls = (calls: Array<{ path: string }>) => calls.filter((c) => c.path.endsWith("/graphql")).length;

describe("PR reads", () => {
  it("a 1,000-member root bump names the one member that forwards a removed feature, in 8 calls", async () => {
    const repo = workspaceRepo(1000, { collectiveAt: 777, edited: 3 });
    const { calls, fake } = await review(repo, () => {}, prOpened(repo));
    expect(fake.reviews).toHaveLength(1);
    const body = fake.reviews[0]!.body;
    expect(body).toContain(`crates/${memberName(777)}/Cargo.toml`);
    for (const other of [1, 3, 776, 778, 1000]) expect(body).not.toContain(`crates/${memberName(other)}/`);
    expect(body).not.toContain("I did not read");
    // The comparison (merge base and files), the tree, two GraphQL queries of 1,000 objects at
    // most (the config and the previous state in the first), the check run, the review.
    expect(calls.length).toBeLessThanOrEqual(8);
    expect(graphqlCalls(calls)).toBe(2);
    expect(calls.filter((c) => c.path.includes("burn-triage.yml"))).toEqual([]);
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

const paths = (calls: Array<{ path: string }>) => calls.map((c) => c.path.replace(/\?.*/, ""));

describe("a PR of many files", () => {
  it("burn#4717 (628 files) as configured by default: the trees, one query, nothing posted", async () => {
    const repo = burnPrRepo();
    const { calls, fake } = await review(repo, () => {}, prOpened(repo));
    // The comparison, the head's tree, the merge base's tree, one query (config, previous state, manifests).
    expect(calls.length).toBeLessThanOrEqual(6);
    expect(paths(calls).filter((p) => p.includes("/pulls/12/files"))).toEqual([]);
    expect(paths(calls).filter((p) => p.includes("burn-triage.yml"))).toEqual([]);
    expect(fake.writes()).toEqual([]);
  });

  it("burn#4717 with review_burn_repo: true is reviewed in 6 calls, the config read in the first query", async () => {
    const repo = burnPrRepo({ reviewBurnRepo: true });
    const { calls, fake } = await review(repo, () => {}, prOpened(repo));
    expect(calls.length).toBeLessThanOrEqual(6);
    expect(paths(calls).filter((p) => p.includes("/pulls/12/files") || p.includes("/contents/"))).toEqual([]);
    // Reviewed: the check run the config asks for is written.
    expect(fake.checkRuns.length).toBeGreaterThan(0);
  });

  it.each([
    ["the compare API's files", 150],
    ["the trees", 320],
  ])("a base branch that moved on: only the PR's own change is reviewed (%s)", async (_how, fillers) => {
    const repo = trimRepo(fillers, { movedOn: true });
    const { fake } = await review(repo, () => {}, prOpened(repo, { sha: BASE_TIP_SHA }));
    // Against the base's tip the PR would seem to turn burn's default features off.
    expect(fake.reviews).toEqual([]);
    expect(fake.checkRuns.map((r) => r.conclusion)).toEqual(["success"]);
  });

  it("changes found from the trees: a suggestion sits on a line of the diff computed from both texts", async () => {
    const repo = trimRepo(320);
    const { calls, fake } = await review(repo, () => {}, prOpened(repo));
    expect(paths(calls).filter((p) => p.includes("/git/trees/"))).toHaveLength(2);
    expect(fake.reviews).toHaveLength(1);
    const comments = fake.reviews[0]!.comments as Array<{ path: string; line: number }>;
    expect(comments.map((c) => [c.path, c.line])).toEqual([["Cargo.toml", 7]]);
  });

  it("a computed line GitHub still refuses (422): the review is posted again, its suggestion in the body", async () => {
    const repo = trimRepo(320);
    const { fake } = await review(
      repo,
      (f) => f.faults.push({ method: "POST", path: "/pulls/12/reviews", status: 422, times: 1 }),
      prOpened(repo),
    );
    expect(fake.reviews).toHaveLength(1);
    expect(fake.reviews[0]!.comments).toEqual([]);
    expect(fake.reviews[0]!.body).toContain("```diff\n [dependencies]\n-burn = ");
  });

  it("a manifest renamed with edits is paired with its old self, as git pairs it", async () => {
    const repo = trimRepo(320, { renamedTo: "app" });
    const { fake } = await review(repo, () => {}, prOpened(repo));
    // Seen as added, the crate would have no base: nothing turned off, nothing said.
    expect(fake.reviews).toHaveLength(1);
    expect(fake.reviews[0]!.body).toContain("app/Cargo.toml");
  });

  it("a comparison GitHub refuses falls back to the file list", async () => {
    const repo = trimRepo(320);
    const { calls, fake } = await review(
      repo,
      (f) => f.faults.push({ path: "/compare/", status: 422, times: 1 }),
      prOpened(repo),
    );
    expect(paths(calls).filter((p) => p.endsWith("/pulls/12/files"))).toHaveLength(4);
    expect(fake.reviews).toHaveLength(1);
  });

  it("a tree GitHub truncated falls back to the file list", async () => {
    const repo = { ...trimRepo(320), truncatedTrees: ["a".repeat(40)] };
    const { calls, fake } = await review(repo, () => {}, prOpened(repo));
    expect(paths(calls).filter((p) => p.endsWith("/pulls/12/files"))).toHaveLength(4);
    expect(fake.reviews).toHaveLength(1);
    expect(fake.reviews[0]!.body).not.toContain("truncated");
  });
});

describe("the config in the first query", () => {
  const disabled = "pull_requests:\n  enabled: false\n";

  it("the owner's .github config applies when the repository has none", async () => {
    const repo = trimRepo(0);
    const { calls, fake } = await review(
      repo,
      (f) => {
        f.repo.orgConfig = disabled;
      },
      prOpened(repo),
    );
    expect(fake.writes()).toEqual([]);
    expect(paths(calls).filter((p) => p.includes("/contents/"))).toEqual([]);
  });

  it("the repository's config comes before the owner's", async () => {
    const repo = trimRepo(0);
    repo.files![".github/burn-triage.yml"] = "pull_requests:\n  check_run: false\n";
    const { fake } = await review(
      repo,
      (f) => {
        f.repo.orgConfig = disabled;
      },
      prOpened(repo),
    );
    expect(fake.reviews).toHaveLength(1);
    expect(fake.checkRuns).toEqual([]);
  });

  it("no .github repository (NOT_FOUND beside the answer) is no config: the defaults", async () => {
    const repo = trimRepo(0);
    const { calls, fake } = await review(
      repo,
      (f) => {
        f.repo.orgConfig = null;
      },
      prOpened(repo),
    );
    expect(fake.reviews).toHaveLength(1);
    expect(paths(calls).filter((p) => p.includes("/contents/"))).toEqual([]);
  });

  it("a config too large is refused and the defaults apply, as by REST", async () => {
    const repo = trimRepo(0);
    repo.files![".github/burn-triage.yml"] = `pull_requests:\n  enabled: false\n#${"x".repeat(20_000)}\n`;
    const { fake } = await review(repo, () => {}, prOpened(repo));
    expect(fake.reviews).toHaveLength(1);
  });
});
