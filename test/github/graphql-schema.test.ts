// Every GraphQL query the bot sends, validated against GitHub's published schema
// (@octokit/graphql-schema), as every REST call is checked against the OpenAPI description. The
// queries are the ones a PR review really sent to the fake GitHub (blobs by id and by `SHA:path`,
// the previous review, the check runs, the config in the repository and in the owner's `.github`).
import { afterAll, describe, expect, it } from "@jest/globals";
import { validate } from "@octokit/graphql-schema";
import { configFields } from "../../src/github/config.js";
import { ISSUES_QUERY, issuesQuery, threadsQuery } from "../../src/github/scan-reads.js";
import app from "../../src/index.js";
import { type FakeGitHub, type FakeRepo, startFakeGitHub } from "../support/fake-github.js";
import { offlineProbot } from "../support/scenario.js";
import { burnPrRepo, prOpened, workspaceRepo } from "../support/workspace.js";

const fakes: FakeGitHub[] = [];
afterAll(() => Promise.all(fakes.map((f) => f.close())));

async function queriesSent(repo: FakeRepo = workspaceRepo(20, { collectiveAt: 7 })): Promise<string[]> {
  const fake = await startFakeGitHub(repo);
  fakes.push(fake);
  const probot = offlineProbot({ baseUrl: fake.apiUrl });
  probot.load(app);
  await probot.receive({ id: "pr-1", name: "pull_request", payload: prOpened(repo) });
  return fake.calls.filter((c) => c.path.endsWith("/graphql")).map((c) => (c.body as { query: string }).query);
}

describe("the bot's GraphQL queries", () => {
  it("a PR review sends them, blobs and the previous state in one query", async () => {
    const queries = await queriesSent();
    expect(queries).toHaveLength(1);
    expect(queries[0]).toContain("viewerLatestReview");
    expect(queries[0]).toContain("object(oid:");
    // The config: the repository's, and the owner's `.github` as a second root.
    expect(queries[0]).toMatch(
      /config: object\(expression: \$config\).*org: repository\(owner: \$owner, name: \$orgRepo\)/,
    );
  });

  it("each validates against GitHub's schema", async () => {
    const queries = [...(await queriesSent()), ...(await queriesSent(burnPrRepo({ reviewBurnRepo: true })))];
    expect(queries.length).toBeGreaterThan(2);
    for (const q of queries) expect(validate(q).map((e) => e.message)).toEqual([]);
  });
});

describe("scan's GraphQL queries", () => {
  // Those `scan` sends: the backlog's pages, and the bodies of the bot's comments with label
  // histories (the fake GitHub executes both against the same schema in test/e2e/scan-graphql).
  const thread = (n: number) => ({
    number: n,
    label: "burn: feature off",
    thread: { nodeId: `I_${n}`, complete: true, candidates: [] },
  });
  const queries = [
    ISSUES_QUERY,
    // The first page, with the config's two places.
    issuesQuery(configFields()),
    threadsQuery([{ want: thread(1), ids: Array.from({ length: 150 }, (_, i) => `IC_${i}`) }]).query,
  ];

  it("each validates against GitHub's schema", () => {
    expect(queries[1]).toMatch(
      /config: object\(expression: \$config\).*org: repository\(owner: \$owner, name: \$orgRepo\)/s,
    );
    expect(queries[2]).toContain("c1: nodes(ids: $c1)");
    expect(queries[2]).toContain("timelineItems(itemTypes: [LABELED_EVENT, UNLABELED_EVENT]");
    for (const q of queries) expect(validate(q).map((e) => e.message)).toEqual([]);
  });
});
