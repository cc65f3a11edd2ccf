// GitHub's GraphQL answers for a scan, read as data: a page of issues (bodies, labels, and who
// wrote the first comments of each thread), the bodies of the comments that may be the bot's, and
// an issue's label history. Nothing here trusts the answer's shape: a field missing, a null where
// GitHub never sends one, more items than asked for, or a body longer than GitHub stores is a
// MalformedAnswer naming what was wrong, never a guess (a guess here is a second comment).

/** Issues asked for per page (GitHub's most), and comments seen per issue in the same query. */
export const ISSUES_PER_PAGE = 100;
export const COMMENTS_PER_ISSUE = 100;
/** GitHub allows at most 100 labels on an issue. */
export const LABELS_PER_ISSUE = 100;
/** Label events read per issue; an issue with more has an `unknown` history (as by REST). */
export const LABEL_EVENTS_PER_ISSUE = 100;
/**
 * GitHub stores at most 65,536 characters in an issue's or a comment's body: even if every one
 * were outside the BMP (two UTF-16 units), no body of GitHub's is longer than this.
 */
export const MAX_BODY_LENGTH = 2 * 65_536;

/** An issue as the REST listing gives it: what the plan and the scan state read. */
export interface PageIssue {
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  updated_at: string;
  locked: boolean;
  user: { login: string; type: string };
  labels: Array<{ name: string }>;
  comments: number;
}

/** The start of an issue's thread: which comments may be the bot's (their bodies not read yet). */
export interface ThreadHead {
  /** The issue's node id (its label history is read by it). */
  nodeId: string;
  /**
   * Comments by the token's owner (`viewerDidAuthor`) or by any GitHub App (a `Bot` author):
   * the comments a scan counts as the bot's when their body carries the marker, as
   * `authoredBy` with `anyApp` decides by REST. Oldest first.
   */
  candidates: Array<{ nodeId: string; id: number }>;
  /** Every comment of the thread was seen (none past the first COMMENTS_PER_ISSUE). */
  complete: boolean;
}

export interface IssuePage {
  items: Array<{ issue: PageIssue; thread: ThreadHead }>;
  /** The cursor of the next page, or null at the last. */
  next: string | null;
}

/**
 * GitHub answered, but not in a shape it ever answers: the scan stops, nothing is written from it
 * (no HTTP status: the request succeeded, and "GitHub answered 502" would send one looking there).
 */
export class MalformedAnswer extends Error {
  constructor(what: string) {
    super(`malformed GraphQL answer from GitHub: ${what}`);
  }
}

type Obj = Record<string, unknown>;

function obj(v: unknown, what: string): Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new MalformedAnswer(`${what} is not an object`);
  return v as Obj;
}

function list(v: unknown, what: string, max: number): unknown[] {
  if (!Array.isArray(v)) throw new MalformedAnswer(`${what} is not a list`);
  if (v.length > max) throw new MalformedAnswer(`${what} has ${v.length} items, more than the ${max} asked for`);
  return v;
}

function str(v: unknown, what: string): string {
  if (typeof v !== "string") throw new MalformedAnswer(`${what} is not a string`);
  return v;
}

function count(v: unknown, what: string): number {
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw new MalformedAnswer(`${what} is not a count`);
  return v as number;
}

export function body(v: unknown, what: string): string {
  const s = str(v, what);
  if (s.length > MAX_BODY_LENGTH)
    throw new MalformedAnswer(`${what} is ${s.length} characters long, more than GitHub stores`);
  return s;
}

/** A comment's id: `fullDatabaseId` (a BigInt, sent as a string: ids passed 2³¹ long ago). */
function commentId(v: unknown, what: string): number {
  const n = typeof v === "string" && /^[1-9]\d{0,15}$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new MalformedAnswer(`${what} is not a comment id`);
  return n;
}

/** REST names an App's account `<slug>[bot]`; GraphQL gives the slug alone. */
function user(v: unknown, what: string): PageIssue["user"] {
  // A deleted account: REST shows GitHub's `ghost` user.
  if (v === null) return { login: "ghost", type: "User" };
  const a = obj(v, what);
  const login = str(a.login, `${what}.login`);
  const type = str(a.__typename, `${what}.__typename`);
  if (type === "Bot") return { login: login.endsWith("[bot]") ? login : `${login}[bot]`, type };
  return { login, type: type === "Organization" ? "Organization" : "User" };
}

function thread(v: unknown, nodeId: string, what: string): ThreadHead {
  const c = obj(v, what);
  const total = count(c.totalCount, `${what}.totalCount`);
  const nodes = list(c.nodes, `${what}.nodes`, COMMENTS_PER_ISSUE);
  if (total < nodes.length) throw new MalformedAnswer(`${what} counts fewer comments than it lists`);
  const candidates: ThreadHead["candidates"] = [];
  for (const [i, n] of nodes.entries()) {
    const at = `${what}.nodes[${i}]`;
    const node = obj(n, at);
    const author = node.author === null ? null : obj(node.author, `${at}.author`);
    const mine = node.viewerDidAuthor === true || author?.__typename === "Bot";
    if (typeof node.viewerDidAuthor !== "boolean") throw new MalformedAnswer(`${at}.viewerDidAuthor is not a boolean`);
    if (mine) candidates.push({ nodeId: str(node.id, `${at}.id`), id: commentId(node.fullDatabaseId, `${at}.id`) });
  }
  return { nodeId, candidates, complete: total === nodes.length };
}

function issue(v: unknown, what: string): { issue: PageIssue; thread: ThreadHead } {
  const n = obj(v, what);
  const number = count(n.number, `${what}.number`);
  const state = str(n.state, `${what}.state`);
  if (state !== "OPEN" && state !== "CLOSED") throw new MalformedAnswer(`${what}.state is ${JSON.stringify(state)}`);
  const updatedAt = str(n.updatedAt, `${what}.updatedAt`);
  if (Number.isNaN(Date.parse(updatedAt))) throw new MalformedAnswer(`${what}.updatedAt is not a date`);
  if (typeof n.locked !== "boolean") throw new MalformedAnswer(`${what}.locked is not a boolean`);
  const labels = obj(n.labels, `${what}.labels`);
  const names = list(labels.nodes, `${what}.labels.nodes`, LABELS_PER_ISSUE).map((l, i) => ({
    name: str(obj(l, `${what}.labels.nodes[${i}]`).name, `${what}.labels.nodes[${i}].name`),
  }));
  if (count(labels.totalCount, `${what}.labels.totalCount`) !== names.length)
    throw new MalformedAnswer(`${what}.labels lists ${names.length} of ${String(labels.totalCount)}`);
  const head = thread(n.comments, str(n.id, `${what}.id`), `${what}.comments`);
  const text = body(n.body, `${what}.body`);
  return {
    issue: {
      number,
      title: str(n.title, `${what}.title`),
      body: text === "" ? null : text,
      state: state === "OPEN" ? "open" : "closed",
      updated_at: updatedAt,
      locked: n.locked,
      user: user(n.author, `${what}.author`),
      labels: names,
      comments: count(obj(n.comments, `${what}.comments`).totalCount, `${what}.comments.totalCount`),
    },
    thread: head,
  };
}

/** One page of `repository.issues` (the query's `data`). */
export function issuePage(data: unknown): IssuePage {
  const repository = obj(obj(data, "the answer").repository, "repository");
  const issues = obj(repository.issues, "repository.issues");
  const info = obj(issues.pageInfo, "issues.pageInfo");
  if (typeof info.hasNextPage !== "boolean") throw new MalformedAnswer("issues.pageInfo.hasNextPage is not a boolean");
  const next = info.hasNextPage ? str(info.endCursor, "issues.pageInfo.endCursor") : null;
  const nodes = list(issues.nodes, "issues.nodes", ISSUES_PER_PAGE);
  return { items: nodes.map((n, i) => issue(n, `issues.nodes[${i}]`)), next };
}

/**
 * The bodies in one `nodes(ids:)` answer, by node id. A null is a comment deleted since the page
 * was read: it is no longer there to keep or edit.
 */
export function commentBodies(v: unknown, ids: readonly string[], what: string): Map<string, string> {
  const nodes = list(v, what, ids.length);
  if (nodes.length !== ids.length) throw new MalformedAnswer(`${what} has ${nodes.length} of ${ids.length} comments`);
  const out = new Map<string, string>();
  for (const [i, n] of nodes.entries()) {
    if (n === null) continue;
    const node = obj(n, `${what}[${i}]`);
    if (node.id !== ids[i]) throw new MalformedAnswer(`${what}[${i}] is not the comment asked for`);
    out.set(ids[i]!, body(node.body, `${what}[${i}].body`));
  }
  return out;
}

export interface LabelEvent {
  event: "labeled" | "unlabeled";
  label: { name: string };
}

/** An issue's label events, oldest first, as REST's events listing gives them; `unknown` past the cap. */
export function labelEvents(v: unknown, what: string): LabelEvent[] | "unknown" {
  // The issue is gone (deleted or transferred since the page): nothing to decide a label on.
  if (v === null) return "unknown";
  const items = obj(obj(v, what).timelineItems, `${what}.timelineItems`);
  const nodes = list(items.nodes, `${what}.timelineItems.nodes`, LABEL_EVENTS_PER_ISSUE);
  if (count(items.totalCount, `${what}.timelineItems.totalCount`) > nodes.length) return "unknown";
  return nodes.map((n, i) => {
    const e = obj(n, `${what}.timelineItems.nodes[${i}]`);
    const kind = e.__typename === "LabeledEvent" ? "labeled" : e.__typename === "UnlabeledEvent" ? "unlabeled" : null;
    if (!kind) throw new MalformedAnswer(`${what}.timelineItems.nodes[${i}] is not a label event`);
    const label = obj(e.label, `${what}.timelineItems.nodes[${i}].label`);
    return { event: kind, label: { name: str(label.name, `${what}.timelineItems.nodes[${i}].label.name`) } };
  });
}
