// Every GraphQL query the bot sends, validated against GitHub's published schema
// (@octokit/graphql-schema), as every REST call is checked against the OpenAPI description. The
// queries are the ones a PR review really sent to the fake GitHub (blobs by id and by `SHA:path`,
// the previous review, the check runs).
import { afterAll, describe, expect, it } from "@jest/globals";
import { validate } from "@octokit/graphql-schema";
import app from "../../src/index.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { offlineProbot, webhook } from "../support/scenario.js";
import { workspaceRepo } from "../support/workspace.js";

let fake: FakeGitHub | undefined;
afterAll(() => fake?.close());

async function queriesSent(): Promise<string[]> {
  fake = await startFakeGitHub(workspaceRepo(20, { collectiveAt: 7 }));
  const probot = offlineProbot({ baseUrl: fake.apiUrl });
  probot.load(app);
  await probot.receive({ id: "pr-1", name: "pull_request", payload: webhook("pull_request.opened") });
  return fake.calls.filter((c) => c.path.endsWith("/graphql")).map((c) => (c.body as { query: string }).query);
}

describe("the bot's GraphQL queries", () => {
  it("a PR review sends them, blobs and the previous state in one query", async () => {
    const queries = await queriesSent();
    expect(queries).toHaveLength(1);
    expect(queries[0]).toContain("viewerLatestReview");
    expect(queries[0]).toContain("object(oid:");
  });

  it("each validates against GitHub's schema", async () => {
    const queries = await queriesSent();
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) expect(validate(q).map((e) => e.message)).toEqual([]);
  });
});
