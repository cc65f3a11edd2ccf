// Many files in few requests: GitHub's GraphQL API reads any number of blobs in one query
// (`object(oid:)` or `object(expression: "SHA:path")`), where the REST contents API reads one a
// call. A query is bounded by the bytes it asks for (the tree gives each blob's size up front) and
// by its number of objects; an event by its number of queries. What a bound leaves out is
// returned, never dropped, so the review can say it was not read.

import { asRead } from "./octokit.js";
import type { Octokit, RepoRef } from "./types.js";

/** Bytes asked for in one query, as the tree sizes them (GitHub answers a few MB in well under a second). */
export const MAX_QUERY_BYTES = 2_000_000;
/** Objects in one query: variables and aliases stay far below GitHub's query size limits. */
export const MAX_QUERY_OBJECTS = 1000;

/** One file to read: by blob id when the tree gave one, else by `SHA:path`. */
export interface BlobWant {
  key: string;
  oid?: string;
  expression?: string;
  /** The blob's size from the tree (0 when unknown). */
  size: number;
}

export type BlobResult =
  | { ok: true; text: string }
  | { ok: false; reason: "missing" | "directory" | "binary" | "too-large" };

/** A per-event budget of queries, shared by every read of one event. */
export interface QueryBudget {
  maxQueries: number;
  used: number;
}

/** GraphQL is not there or refuses us (GitHub Enterprise without it, a token without the scope): read by REST. */
export class GraphqlUnavailable extends Error {}

export interface BlobNode {
  text?: string | null;
  isBinary?: boolean | null;
  isTruncated?: boolean;
  byteSize?: number;
}

export const BLOB_FIELDS = "... on Blob { text isBinary isTruncated byteSize }";

/** Fields read beside the blobs in the same query (inside `repository`, and other roots), with their variables. */
export interface ExtraFields {
  fields: string;
  /** Roots beside `repository` (another repository's fields). */
  roots?: string;
  decls: string[];
  variables: Record<string, unknown>;
}

/** Several sets of fields in one query. */
export function mergeFields(...parts: ExtraFields[]): ExtraFields {
  return {
    fields: parts.map((p) => p.fields).join(" "),
    roots: parts.flatMap((p) => (p.roots ? [p.roots] : [])).join(" "),
    decls: parts.flatMap((p) => p.decls),
    variables: Object.assign({}, ...parts.map((p) => p.variables)),
  };
}

/** A partial answer's errors (GitHub answers `data` and `errors` together when some roots fail). */
const ERRORS = Symbol("errors");
export interface QueryError {
  type?: string;
  path?: Array<string | number>;
}
export const queryErrors = (data: Record<string, unknown>): QueryError[] =>
  (data as { [ERRORS]?: QueryError[] })[ERRORS] ?? [];

/** The query for one batch, the wants in it named f0, f1, … and passed as variables (never spliced into the text). */
export function blobQuery(
  repo: RepoRef,
  wants: readonly BlobWant[],
  extra: ExtraFields | null = null,
): { query: string; variables: Record<string, unknown> } {
  const variables: Record<string, unknown> = { owner: repo.owner, name: repo.repo, ...extra?.variables };
  const decls: string[] = ["$owner: String!", "$name: String!", ...(extra?.decls ?? [])];
  const fields = wants.map((w, i) => {
    if (w.oid !== undefined) {
      variables[`o${i}`] = w.oid;
      decls.push(`$o${i}: GitObjectID!`);
      return `f${i}: object(oid: $o${i}) { ${BLOB_FIELDS} }`;
    }
    variables[`e${i}`] = w.expression!;
    decls.push(`$e${i}: String!`);
    return `f${i}: object(expression: $e${i}) { ${BLOB_FIELDS} }`;
  });
  const inside = [...fields, ...(extra ? [extra.fields] : [])].join(" ");
  const roots = extra?.roots ? ` ${extra.roots}` : "";
  const query = `query(${decls.join(", ")}) { repository(owner: $owner, name: $name) { ${inside} }${roots} }`;
  return { query, variables };
}

/** Splits the wants into batches within the bytes and objects per query, in order. */
export function batches(wants: readonly BlobWant[], maxBytes = MAX_QUERY_BYTES, maxObjects = MAX_QUERY_OBJECTS) {
  const out: BlobWant[][] = [];
  let current: BlobWant[] = [];
  let bytes = 0;
  for (const w of wants) {
    if (current.length > 0 && (bytes + w.size > maxBytes || current.length >= maxObjects)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(w);
    bytes += w.size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export function blobResult(node: BlobNode | null | undefined): BlobResult {
  if (!node || node.byteSize === undefined) return { ok: false, reason: "missing" };
  if (node.isBinary) return { ok: false, reason: "binary" };
  // GitHub cuts a large blob's text: half a manifest would be judged as if it were whole.
  if (node.isTruncated || typeof node.text !== "string") return { ok: false, reason: "too-large" };
  return { ok: true, text: node.text };
}

function status(e: unknown): number | undefined {
  return (e as { status?: number }).status;
}

/**
 * One query. A refusal (no GraphQL endpoint, forbidden, a query the server rejects as a whole)
 * becomes GraphqlUnavailable; a partial answer keeps what it has; other failures pass through,
 * as a REST read's would.
 */
export async function runQuery(
  octokit: Octokit,
  query: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  try {
    return (await asRead(() => octokit.graphql(query, variables))) as Record<string, unknown>;
  } catch (e) {
    const partial = (e as { data?: Record<string, unknown> | null }).data;
    const errors = (e as { errors?: QueryError[] }).errors;
    if (errors?.some((x) => x.type === "RATE_LIMITED")) throw e;
    if (errors && partial) return Object.assign(partial, { [ERRORS]: errors });
    const s = status(e);
    if (errors || s === 400 || s === 401 || s === 403 || s === 404 || s === 410 || s === 422)
      throw new GraphqlUnavailable(`GitHub refused a GraphQL query (${s ?? "errors"})`, { cause: e });
    throw e;
  }
}

/**
 * Reads the wants in as few queries as the bounds allow. Wants beyond the event's query budget are
 * returned in `unread`, in order. `extra` fields ride along in the first query only; the first
 * query's whole answer is returned for them.
 */
export async function readBlobs(
  octokit: Octokit,
  repo: RepoRef,
  wants: readonly BlobWant[],
  budget: QueryBudget,
  extra: ExtraFields | null = null,
): Promise<{ results: Map<string, BlobResult>; unread: BlobWant[]; extra: Record<string, unknown> | null }> {
  const results = new Map<string, BlobResult>();
  const unread: BlobWant[] = [];
  let extraData: Record<string, unknown> | null = null;
  const groups = batches(wants);
  if (groups.length === 0 && extra) groups.push([]);
  for (const [n, group] of groups.entries()) {
    if (budget.used >= budget.maxQueries) {
      unread.push(...group);
      continue;
    }
    budget.used++;
    const { query, variables } = blobQuery(repo, group, n === 0 ? extra : null);
    const data = await runQuery(octokit, query, variables);
    const repository = (data.repository ?? null) as Record<string, BlobNode | null> | null;
    if (n === 0 && extra) extraData = data;
    for (const [i, w] of group.entries()) results.set(w.key, blobResult(repository?.[`f${i}`]));
  }
  return { results, unread, extra: extraData };
}
