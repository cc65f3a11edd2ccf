// A scan's reads by GraphQL, at a cost that does not grow with the threads: the backlog in pages
// of 100 issues, each with its body, labels and who wrote its first 100 comments (one query a
// page); then, in as few queries as the bounds allow, the bodies of only the comments that may be
// the bot's on issues that want an answer, and the label history where the answer's label is
// owed. A thread longer than one page, or a query GitHub refuses (GraphqlUnavailable), is read by
// REST as before. Parsing and its checks are `scan/issue-page.ts`.

import type { LabelHistory } from "../answer/publish-plan.js";
import { labelHistoryOf } from "../answer/publish-plan.js";
import {
  COMMENTS_PER_ISSUE,
  commentBodies,
  ISSUES_PER_PAGE,
  issuePage,
  LABEL_EVENTS_PER_ISSUE,
  LABELS_PER_ISSUE,
  type LabelEvent,
  labelEvents,
  MalformedAnswer,
  type PageIssue,
  type ThreadHead,
} from "../scan/issue-page.js";
import { type ExtraFields, GraphqlUnavailable, runQuery } from "./blob-reads.js";
import type { Comment } from "./comments.js";
import type { GitHubReads } from "./publish.js";
import { type Octokit, PageCapError, type RepoRef } from "./types.js";

/** Comment bodies read in one query (three `nodes(ids:)` of 100); a body is 64 KiB at most. */
export const BODIES_PER_QUERY = 300;
/** Label histories read in one query. */
export const HISTORIES_PER_QUERY = 100;
const IDS_PER_NODES = 100;

const ISSUE_FIELDS = `pageInfo { hasNextPage endCursor }
      nodes {
        id number title body state updatedAt locked
        author { __typename login }
        labels(first: ${LABELS_PER_ISSUE}) { totalCount nodes { name } }
        comments(first: ${COMMENTS_PER_ISSUE}) { totalCount nodes { id fullDatabaseId viewerDidAuthor author { __typename } } }
      }`;

/** A page of the backlog; `extra` fields (the config) ride in the first. */
export function issuesQuery(extra: ExtraFields | null = null): string {
  const decls = ["$owner: String!", "$name: String!", "$states: [IssueState!]", "$since: DateTime", "$after: String"];
  return `query(${[...decls, ...(extra?.decls ?? [])].join(", ")}) {
  repository(owner: $owner, name: $name) {
    issues(first: ${ISSUES_PER_PAGE}, after: $after, orderBy: {field: UPDATED_AT, direction: DESC}, filterBy: {states: $states, since: $since}) {
      ${ISSUE_FIELDS}
    }${extra ? ` ${extra.fields}` : ""}
  }${extra?.roots ? ` ${extra.roots}` : ""}
}`;
}

export const ISSUES_QUERY = issuesQuery();

export interface Listed {
  issues: PageIssue[];
  threads: Map<number, ThreadHead>;
  /** The first page's whole answer (for the `extra` fields). */
  first: Record<string, unknown> | null;
}

/**
 * Every issue of the listing, newest update first, at most `maxPages` pages. A cursor GitHub
 * already gave, or more pages than the cap, ends it with an error that says so.
 */
export async function listIssuesGraphql(
  octokit: Octokit,
  o: RepoRef & { state: "open" | "all"; since?: string; maxPages: number },
  extra: ExtraFields | null = null,
): Promise<Listed> {
  const variables = {
    owner: o.owner,
    name: o.repo,
    states: o.state === "open" ? ["OPEN"] : null,
    since: o.since ?? null,
  };
  const out: Listed = { issues: [], threads: new Map(), first: null };
  const cursors = new Set<string>();
  let after: string | null = null;
  for (let read = 0; ; read++) {
    if (read >= o.maxPages) throw new PageCapError("issues", o.maxPages);
    const first = read === 0 && extra !== null;
    const data = await runQuery(octokit, first ? issuesQuery(extra) : ISSUES_QUERY, {
      ...variables,
      ...(first ? extra.variables : {}),
      after,
    });
    if (read === 0) out.first = data;
    // Not found, or not visible to the token: REST then says which, as it would have.
    if (data.repository === null) throw new GraphqlUnavailable("GitHub's GraphQL API shows no such repository");
    const page = issuePage(data);
    for (const { issue, thread } of page.items) {
      // An issue updated while the pages are read moves up and may be listed twice: once is kept.
      if (out.threads.has(issue.number)) continue;
      out.issues.push(issue);
      out.threads.set(issue.number, thread);
    }
    if (page.next === null) return out;
    if (cursors.has(page.next)) throw new MalformedAnswer(`the issues listing gave cursor ${page.next} twice`);
    cursors.add(page.next);
    after = page.next;
  }
}

/** What the scan needs of a thread, read in the batch: its bot-or-viewer comments, and a label's history. */
export interface ThreadWant {
  number: number;
  thread: ThreadHead;
  /** The label the answer wants and the issue lacks: its history decides whether it is owed. */
  label: string | null;
}

/** A thread as the batch read it: the candidate comments with their bodies, oldest first. */
export interface ThreadSeen {
  comments: Comment[];
  labels?: LabelEvent[] | "unknown";
}

interface Item {
  want: ThreadWant;
  ids: string[];
}

/** Splits the wants so that no query asks for more than BODIES_PER_QUERY bodies or HISTORIES_PER_QUERY histories. */
function batches(wants: readonly ThreadWant[]): Item[][] {
  const out: Item[][] = [];
  let current: Item[] = [];
  let bodies = 0;
  let histories = 0;
  for (const want of wants) {
    const ids = want.thread.candidates.map((c) => c.nodeId);
    const history = want.label ? 1 : 0;
    if (current.length > 0 && (bodies + ids.length > BODIES_PER_QUERY || histories + history > HISTORIES_PER_QUERY)) {
      out.push(current);
      current = [];
      bodies = 0;
      histories = 0;
    }
    current.push({ want, ids });
    bodies += ids.length;
    histories += history;
  }
  if (current.length > 0) out.push(current);
  return out;
}

const HISTORY_FIELDS = `... on Issue { timelineItems(itemTypes: [LABELED_EVENT, UNLABELED_EVENT], first: ${LABEL_EVENTS_PER_ISSUE}) { totalCount nodes { __typename ... on LabeledEvent { label { name } } ... on UnlabeledEvent { label { name } } } } }`;

/** One query: the comment ids in `nodes(ids:)` of 100, and `node(id:)` per label history; all as variables. */
export function threadsQuery(items: readonly Item[]): { query: string; variables: Record<string, unknown> } {
  const ids = items.flatMap((i) => i.ids);
  const variables: Record<string, unknown> = {};
  const decls: string[] = [];
  const fields: string[] = [];
  for (let k = 0; k * IDS_PER_NODES < ids.length; k++) {
    variables[`c${k}`] = ids.slice(k * IDS_PER_NODES, (k + 1) * IDS_PER_NODES);
    decls.push(`$c${k}: [ID!]!`);
    fields.push(`c${k}: nodes(ids: $c${k}) { ... on IssueComment { id body } }`);
  }
  for (const [k, item] of items.filter((i) => i.want.label).entries()) {
    variables[`h${k}`] = item.want.thread.nodeId;
    decls.push(`$h${k}: ID!`);
    fields.push(`h${k}: node(id: $h${k}) { ${HISTORY_FIELDS} }`);
  }
  return { query: `query(${decls.join(", ")}) { ${fields.join(" ")} }`, variables };
}

async function readBatch(octokit: Octokit, items: Item[], into: Map<number, ThreadSeen>): Promise<void> {
  const { query, variables } = threadsQuery(items);
  const data = await runQuery(octokit, query, variables);
  const bodies = new Map<string, string>();
  for (const key of Object.keys(variables).filter((k) => k.startsWith("c"))) {
    const ids = variables[key] as string[];
    for (const [id, text] of commentBodies(data[key], ids, key)) bodies.set(id, text);
  }
  let h = 0;
  for (const { want } of items) {
    const comments = want.thread.candidates.flatMap((c) => {
      const text = bodies.get(c.nodeId);
      return text === undefined ? [] : [{ id: c.id, body: text }];
    });
    const seen: ThreadSeen = { comments };
    if (want.label) {
      const key = `h${h++}`;
      seen.labels = labelEvents(data[key], key);
    }
    into.set(want.number, seen);
  }
}

/**
 * The threads that need a look, in as few queries as the bounds allow; a thread without a
 * candidate comment is known empty without one. Only complete threads are asked here.
 */
export async function readThreads(octokit: Octokit, wants: readonly ThreadWant[]): Promise<Map<number, ThreadSeen>> {
  const out = new Map<number, ThreadSeen>();
  const asked: ThreadWant[] = [];
  for (const w of wants) {
    if (!w.thread.complete) continue;
    if (w.thread.candidates.length === 0) out.set(w.number, { comments: [] });
    else asked.push(w);
  }
  for (const items of batches(asked)) await readBatch(octokit, items, out);
  return out;
}

/**
 * One thread's reads, answered from the batch: its marked comments, and the label history when
 * the batch read it (else from GitHub, `live`).
 */
export function threadReads(seen: ThreadSeen, live: () => Promise<GitHubReads>): GitHubReads {
  return {
    marked: async (_where, marker) => seen.comments.filter((c) => c.body?.startsWith(marker)),
    labelHistory: async (where, label): Promise<LabelHistory> => {
      if (seen.labels === undefined) return (await live()).labelHistory(where, label);
      return seen.labels === "unknown" ? "unknown" : labelHistoryOf(seen.labels, label);
    },
  };
}
