// GitHub's GraphQL answers to a scan, read as data, and the page loop over them: what GitHub
// sends is taken; what it never sends (a null, a missing field, more than was asked, a body longer
// than it stores, a cursor again, pages without end) stops the scan with a clear error.
import { describe, expect, it } from "@jest/globals";
import { GraphqlUnavailable } from "../../src/github/blob-reads.js";
import { ISSUES_QUERY, listIssuesGraphql, readThreads, threadsQuery } from "../../src/github/scan-reads.js";
import type { Octokit } from "../../src/github/types.js";
import { commentBodies, issuePage, labelEvents, MAX_BODY_LENGTH } from "../../src/scan/issue-page.js";

const comment = (id: number, over: object = {}) => ({
  id: `IC_${id}`,
  fullDatabaseId: String(id),
  viewerDidAuthor: false,
  author: { __typename: "User" },
  ...over,
});

const node = (number: number, over: object = {}) => ({
  id: `I_${number}`,
  number,
  title: `Issue ${number}`,
  body: "thread 'main' panicked",
  state: "OPEN",
  updatedAt: "2026-06-01T00:00:00Z",
  locked: false,
  author: { __typename: "User", login: "someone" },
  labels: { totalCount: 1, nodes: [{ name: "bug" }] },
  comments: {
    totalCount: 3,
    nodes: [comment(11), comment(12, { viewerDidAuthor: true }), comment(13, { author: { __typename: "Bot" } })],
  },
  ...over,
});

const page = (nodes: unknown[], pageInfo: object = { hasNextPage: false, endCursor: null }) => ({
  repository: { issues: { pageInfo, nodes } },
});

describe("a page of issues", () => {
  it("reads an issue as REST lists it, and the comments that may be the bot's: the viewer's and any App's", () => {
    const { items, next } = issuePage(page([node(7, { author: { __typename: "Bot", login: "renovate" } })]));
    expect(next).toBeNull();
    expect(items[0]!.issue).toEqual({
      number: 7,
      title: "Issue 7",
      body: "thread 'main' panicked",
      state: "open",
      updated_at: "2026-06-01T00:00:00Z",
      locked: false,
      // REST's login for an App's account.
      user: { login: "renovate[bot]", type: "Bot" },
      labels: [{ name: "bug" }],
      comments: 3,
    });
    expect(items[0]!.thread).toEqual({
      nodeId: "I_7",
      candidates: [
        { nodeId: "IC_12", id: 12 },
        { nodeId: "IC_13", id: 13 },
      ],
      complete: true,
    });
  });

  it("says a thread longer than the comments read is not complete (it is read by REST)", () => {
    const long = node(8, { comments: { totalCount: 150, nodes: [comment(1)] } });
    expect(issuePage(page([long])).items[0]!.thread.complete).toBe(false);
  });

  it("refuses what GitHub never sends, naming it", () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /the answer is not an object/],
      [{ repository: { issues: null } }, /repository.issues is not an object/],
      [page([null]), /issues.nodes\[0\] is not an object/],
      [page([node(1, { title: null })]), /issues.nodes\[0\].title is not a string/],
      [page([node(1, { number: -1 })]), /number is not a count/],
      [page([node(1, { updatedAt: "yesterday" })]), /updatedAt is not a date/],
      [page([node(1, { state: "MERGED" })]), /state is "MERGED"/],
      [page([node(1, { labels: { totalCount: 2, nodes: [{ name: "a" }] } })]), /labels lists 1 of 2/],
      [
        page([node(1, { comments: { totalCount: 1, nodes: [comment(1), comment(2)] } })]),
        /fewer comments than it lists/,
      ],
      [
        page([
          node(1, {
            comments: { totalCount: 1, nodes: [comment(1, { fullDatabaseId: "1e3", viewerDidAuthor: true })] },
          }),
        ]),
        /not a comment id/,
      ],
      [
        page([node(1, { comments: { totalCount: 1, nodes: [comment(1, { viewerDidAuthor: null })] } })]),
        /viewerDidAuthor/,
      ],
      [
        page([node(1, { body: "x".repeat(MAX_BODY_LENGTH + 1) })]),
        /body is 131073 characters long, more than GitHub stores/,
      ],
      [page(Array.from({ length: 101 }, (_, i) => node(i + 1))), /101 items, more than the 100 asked for/],
      [page([], { hasNextPage: true, endCursor: null }), /endCursor is not a string/],
      [page([], { hasNextPage: "yes" }), /hasNextPage is not a boolean/],
    ];
    for (const [data, message] of cases) expect(() => issuePage(data)).toThrow(message);
  });
});

describe("comment bodies and label events", () => {
  it("takes a null as a comment deleted since, and refuses a node that is not the one asked for", () => {
    const ids = ["IC_1", "IC_2"];
    expect(commentBodies([{ id: "IC_1", body: "a" }, null], ids, "c0")).toEqual(new Map([["IC_1", "a"]]));
    expect(() => commentBodies([{ id: "IC_2", body: "a" }, null], ids, "c0")).toThrow(
      /c0\[0\] is not the comment asked for/,
    );
    expect(() => commentBodies([{ id: "IC_1", body: "a" }], ids, "c0")).toThrow(/has 1 of 2 comments/);
    expect(() => commentBodies([{ id: "IC_1", body: "x".repeat(MAX_BODY_LENGTH + 1) }, null], ids, "c0")).toThrow(
      /more than GitHub stores/,
    );
  });

  it("reads a label history oldest first, `unknown` past what was read", () => {
    const events = (totalCount: number) => ({
      timelineItems: {
        totalCount,
        nodes: [
          { __typename: "LabeledEvent", label: { name: "x" } },
          { __typename: "UnlabeledEvent", label: { name: "x" } },
        ],
      },
    });
    expect(labelEvents(events(2), "h0")).toEqual([
      { event: "labeled", label: { name: "x" } },
      { event: "unlabeled", label: { name: "x" } },
    ]);
    expect(labelEvents(events(300), "h0")).toBe("unknown");
    expect(() => labelEvents({ timelineItems: { totalCount: 1, nodes: [{ __typename: "X" }] } }, "h0")).toThrow(
      /not a label event/,
    );
  });
});

/** An Octokit whose `graphql` answers from `answer` (the page loop is under test, not HTTP). */
function octokitAnswering(answer: (variables: Record<string, unknown>) => unknown) {
  const sent: Array<Record<string, unknown>> = [];
  const octokit = {
    graphql: async (_q: string, variables: Record<string, unknown>) => {
      sent.push(variables);
      return answer(variables);
    },
  } as unknown as Octokit;
  return { octokit, sent };
}

const where = { owner: "acme", repo: "widgets", state: "open" as const, maxPages: 5 };

describe("the page loop", () => {
  it("follows the cursor and keeps an issue listed twice (it moved up while paging) once", async () => {
    const { octokit, sent } = octokitAnswering((v) =>
      v.after === null ? page([node(1), node(2)], { hasNextPage: true, endCursor: "c1" }) : page([node(2), node(3)]),
    );
    const listed = await listIssuesGraphql(octokit, where);
    expect(listed.issues.map((i) => i.number)).toEqual([1, 2, 3]);
    expect(sent.map((v) => v.after)).toEqual([null, "c1"]);
    expect(sent[0]).toMatchObject({ owner: "acme", name: "widgets", states: ["OPEN"], since: null });
  });

  it("stops on a cursor given twice, and after the page cap when every page says there is another", async () => {
    const again = octokitAnswering(() => page([node(1)], { hasNextPage: true, endCursor: "same" }));
    await expect(listIssuesGraphql(again.octokit, where)).rejects.toThrow(/gave cursor same twice/);
    expect(again.sent).toHaveLength(2);
    let n = 0;
    const forever = octokitAnswering(() => page([node(++n)], { hasNextPage: true, endCursor: `c${n}` }));
    await expect(listIssuesGraphql(forever.octokit, where)).rejects.toThrow(/more than 5 pages; stopped there/);
    expect(forever.sent).toHaveLength(5);
  });

  it("takes a repository GraphQL cannot see, or a refusal, as GraphQL unavailable (the REST path says why)", async () => {
    const hidden = octokitAnswering(() => ({ repository: null }));
    await expect(listIssuesGraphql(hidden.octokit, where)).rejects.toBeInstanceOf(GraphqlUnavailable);
    const refused = octokitAnswering(() => {
      throw Object.assign(new Error("Not Found"), { status: 404 });
    });
    await expect(listIssuesGraphql(refused.octokit, where)).rejects.toBeInstanceOf(GraphqlUnavailable);
  });
});

describe("the threads' query", () => {
  const head = (number: number, candidates: number) => ({
    number,
    label: number % 2 === 0 ? "burn: feature off" : null,
    thread: {
      nodeId: `I_${number}`,
      complete: true,
      candidates: Array.from({ length: candidates }, (_, i) => ({
        nodeId: `IC_${number}_${i}`,
        id: number * 1000 + i,
      })),
    },
  });

  it("asks for bodies in nodes(ids:) of 100 and at most 300 a query, and for label histories only where a label is owed", async () => {
    const { octokit, sent } = octokitAnswering((v) => {
      const out: Record<string, unknown> = {};
      for (const [k, ids] of Object.entries(v))
        out[k] = k.startsWith("c")
          ? (ids as string[]).map((id) => ({ id, body: `<!-- burn-triage:issue -->\n${id}` }))
          : { timelineItems: { totalCount: 0, nodes: [] } };
      return out;
    });
    const wants = Array.from({ length: 250 }, (_, i) => head(i + 1, 2));
    const seen = await readThreads(octokit, [...wants, head(999, 0)]);
    // 500 bodies: two queries; 125 histories: within them.
    expect(sent.map((v) => Object.keys(v).filter((k) => k.startsWith("c")).length)).toEqual([3, 2]);
    expect(sent.flatMap((v) => Object.keys(v).filter((k) => k.startsWith("h")))).toHaveLength(125);
    expect(seen.get(1)).toEqual({
      comments: [
        { id: 1000, body: "<!-- burn-triage:issue -->\nIC_1_0" },
        { id: 1001, body: "<!-- burn-triage:issue -->\nIC_1_1" },
      ],
    });
    expect(seen.get(2)?.labels).toEqual([]);
    // A thread with no candidate is known empty without a read.
    expect(seen.get(999)).toEqual({ comments: [] });
  });

  it("puts every id in a variable, never in the query's text", () => {
    const { query, variables } = threadsQuery([{ want: head(2, 1), ids: ['IC_x"}'] }]);
    expect(query).not.toContain("IC_x");
    expect(variables).toEqual({ c0: ['IC_x"}'], h0: "I_2" });
    expect(ISSUES_QUERY).toContain("$after");
  });
});
