// The fake GitHub's answers to a scan's GraphQL queries (the backlog's pages, comment bodies by
// id, an issue's label events), executed by the `graphql` package against GitHub's published
// schema (@octokit/graphql-schema): a field the schema lacks, a wrong argument or a variable of
// the wrong type is GitHub's error, and only the fields asked for are answered, with aliases and
// variables as GitHub resolves them.

import { schema as github } from "@octokit/graphql-schema";
import { buildClientSchema, GraphQLError, type GraphQLSchema, graphql, type IntrospectionQuery } from "graphql";
import type { Comment, FakeIssue } from "./fake-github.js";

let schema: GraphQLSchema | undefined;

export interface IssueData {
  issues: FakeIssue[];
  comments: Comment[];
  events: Array<{ issue: number; event: string; label: { name: string } }>;
  /** The login the request's token writes as (for `viewerDidAuthor`). */
  viewer: string;
  /** A file's blob at `REF:path` in this repository, or in the owner's `.github` (null: no such repository). */
  blob(expression: string, repository: "this" | "org"): object | null | "no-repository";
}

/** A scan's query: the issues listing, or root `nodes`/`node` lookups. */
export function isScanQuery(query: string): boolean {
  return /\bissues\(first:/.test(query) || /^\s*query\([^)]*\)\s*\{\s*\w+: nodes?\(/.test(query);
}

/** GraphQL names an App's account by its slug; REST adds `[bot]`. */
const actor = (u: { login: string; type: string } | null) =>
  u === null
    ? null
    : u.type === "Bot"
      ? { __typename: "Bot", login: u.login.replace(/\[bot\]$/, "") }
      : { __typename: "User", login: u.login };

const cursor = (n: number) => Buffer.from(`cursor:${n}`).toString("base64");
const offset = (c: unknown) => (typeof c === "string" ? Number(Buffer.from(c, "base64").toString().slice(7)) : 0);

function commentNode(c: Comment, d: IssueData) {
  return {
    __typename: "IssueComment",
    id: `IC_${c.id}`,
    fullDatabaseId: String(c.id),
    body: c.body,
    viewerDidAuthor: c.user.login === d.viewer,
    author: actor(c.user),
  };
}

function issueNode(i: FakeIssue, d: IssueData) {
  const comments = d.comments.filter((c) => c.issue === i.number);
  const events = d.events.filter((e) => e.issue === i.number && /^(un)?labeled$/.test(e.event));
  return {
    __typename: "Issue",
    id: `I_${i.number}`,
    number: i.number,
    title: i.title,
    body: i.body ?? "",
    state: i.state === "open" ? "OPEN" : "CLOSED",
    updatedAt: i.updated_at,
    locked: i.locked ?? false,
    author: actor(i.user),
    labels: ({ first }: { first: number }) => ({ totalCount: i.labels.length, nodes: i.labels.slice(0, first) }),
    comments: ({ first }: { first: number }) => ({
      totalCount: comments.length,
      nodes: comments.slice(0, first).map((c) => commentNode(c, d)),
    }),
    timelineItems: ({ first }: { first: number }) => ({
      totalCount: events.length,
      nodes: events.slice(0, first).map((e) => ({
        __typename: e.event === "labeled" ? "LabeledEvent" : "UnlabeledEvent",
        label: e.label,
      })),
    }),
  };
}

interface IssuesArgs {
  first: number;
  after?: string | null;
  filterBy?: { states?: string[] | null; since?: string | null } | null;
}

function issues(args: IssuesArgs, d: IssueData) {
  const states = args.filterBy?.states;
  const since = args.filterBy?.since;
  const all = d.issues
    .filter((i) => !i.pull_request)
    .filter((i) => !states || states.includes(i.state === "open" ? "OPEN" : "CLOSED"))
    .filter((i) => !since || Date.parse(i.updated_at) >= Date.parse(since))
    .sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at) || b.number - a.number);
  const from = offset(args.after);
  const page = all.slice(from, from + args.first);
  const more = from + args.first < all.length;
  return {
    pageInfo: { hasNextPage: more, endCursor: page.length > 0 ? cursor(from + page.length) : null },
    nodes: page.map((i) => issueNode(i, d)),
  };
}

function node(id: string, d: IssueData) {
  const comment = /^IC_(\d+)$/.exec(id);
  if (comment) {
    const c = d.comments.find((x) => x.id === Number(comment[1]));
    return c ? commentNode(c, d) : null;
  }
  const issue = /^I_(\d+)$/.exec(id);
  const i = issue ? d.issues.find((x) => x.number === Number(issue[1])) : undefined;
  return i ? issueNode(i, d) : null;
}

/** The answer GitHub would give, `errors` included. */
export async function answerScanQuery(
  query: string,
  variables: Record<string, unknown>,
  d: IssueData,
): Promise<{ data?: unknown; errors?: unknown[] }> {
  // The package types its JSON loosely; it is the introspection answer `buildClientSchema` takes.
  schema ??= buildClientSchema(github.json as unknown as IntrospectionQuery);
  const rootValue = {
    repository: ({ name }: { name: string }) => {
      const where = name === ".github" ? "org" : "this";
      if (where === "org" && d.blob("HEAD:", where) === "no-repository")
        throw new GraphQLError(`Could not resolve to a Repository with the name '${name}'.`, {
          extensions: { type: "NOT_FOUND" },
        });
      return {
        issues: (args: IssuesArgs) => issues(args, d),
        object: ({ expression }: { expression: string }) => d.blob(expression, where),
      };
    },
    nodes: ({ ids }: { ids: string[] }) => ids.map((id) => node(id, d)),
    node: ({ id }: { id: string }) => node(id, d),
  };
  const r = await graphql({ schema, source: query, variableValues: variables, rootValue });
  const errors = r.errors?.map((e) => ({ message: e.message, path: e.path, type: e.extensions?.type }));
  return { ...(r.data !== undefined ? { data: r.data } : {}), ...(errors ? { errors } : {}) };
}
