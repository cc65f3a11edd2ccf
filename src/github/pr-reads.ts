// The reads of one PR review, at a cost that does not grow with the workspace: the head's tree
// once (REST, recursive: every blob's id and size), then files in batched GraphQL queries
// (blob-reads.ts), or one REST contents call a file where GraphQL is not available. A file the
// PR does not touch is the same at both sides, so it is read once; a path the tree lacks is
// absent without a read. Whatever a bound leaves unread is kept, to be said in the review.

import {
  type BlobResult,
  type BlobWant,
  type ExtraFields,
  GraphqlUnavailable,
  type QueryBudget,
  readBlobs,
} from "./blob-reads.js";
import { readFile } from "./files.js";
import { type Octokit, pageItems, type RepoRef } from "./types.js";

/** GraphQL queries of file reads per PR event (each holds up to MAX_QUERY_BYTES). */
export const MAX_READ_QUERIES = 4;
/** Files read per PR event where GraphQL is not available (one REST call each). */
export const MAX_REST_READS = 60;

export type Side = "head" | "base";
export interface Want {
  path: string;
  side: Side;
}

export interface TreeEntry {
  sha?: string;
  size?: number;
}

export interface PrRefs {
  headSha: string;
  /** Where the base side is read: the merge base when it is known (GitHub's diff is against it). */
  baseSha: string;
  /** Every path the PR touches (both names of a rename); null when GitHub's list was cut short. */
  touched: ReadonlySet<string> | null;
}

/** GRAPHQL_READS=off reads by REST only (a GitHub Enterprise Server without GraphQL, or to compare). */
export function graphqlEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !/^(?:off|false|0|no)$/i.test(env.GRAPHQL_READS ?? "");
}

/** One recursive tree's blobs (id and size by path), and whether GitHub cut it short. */
export interface GitTree {
  entries: Map<string, TreeEntry>;
  truncated: boolean;
}

/** The recursive tree of a commit (one call). */
export async function readTree(octokit: Octokit, repo: RepoRef, sha: string): Promise<GitTree> {
  const { data } = await octokit.rest.git.getTree({ ...repo, tree_sha: sha, recursive: "true" });
  const items = pageItems<TreeEntry & { type?: string; path?: string }>((data as { tree?: unknown }).tree, "tree");
  const blobs = items.filter((e) => e.type === "blob" && e.path);
  const entries = new Map(blobs.map((e) => [e.path!, { sha: e.sha, size: e.size }]));
  return { entries, truncated: (data as { truncated?: boolean }).truncated === true };
}

export class PrReader {
  mode: "graphql" | "rest";
  readonly budget: QueryBudget = { maxQueries: MAX_READ_QUERIES, used: 0 };
  restReads = 0;
  /** Files a bound left unread, as `path` (head) or `path (base)`. */
  readonly unread: string[] = [];
  private readonly texts = new Map<string, string | null>();

  private constructor(
    private readonly octokit: Octokit,
    private readonly repo: RepoRef,
    private readonly refs: PrRefs,
    readonly tree: string[],
    private readonly entries: Map<string, TreeEntry>,
    readonly truncated: boolean,
    graphql: boolean,
  ) {
    this.mode = graphql ? "graphql" : "rest";
  }

  /** A reader over the head's tree: the one given (already read), else read now (one call). */
  static async open(
    octokit: Octokit,
    repo: RepoRef,
    refs: PrRefs,
    graphql = graphqlEnabled(),
    headTree?: GitTree,
  ): Promise<PrReader> {
    const t = headTree ?? (await readTree(octokit, repo, refs.headSha));
    return new PrReader(octokit, repo, refs, [...t.entries.keys()], t.entries, t.truncated, graphql);
  }

  /** Where a want is read: the head's copy for a file the PR does not touch. */
  private source(w: Want): Want {
    if (w.side === "base" && this.refs.touched !== null && !this.refs.touched.has(w.path))
      return { path: w.path, side: "head" };
    return w;
  }

  /** The text read for a want: undefined when not read (yet, or a bound stopped it), null when absent. */
  get(w: Want): string | null | undefined {
    const s = this.source(w);
    if (s.side === "head" && !this.entries.has(s.path) && !this.truncated) return null;
    return this.texts.get(`${s.side}:${s.path}`);
  }

  /**
   * Reads the wants not read yet (in the order given: a bound cuts the last ones). `extra` fields
   * ride in the first GraphQL query; their answer is returned, or null when read by REST.
   */
  async read(wants: readonly Want[], extra: ExtraFields | null = null): Promise<Record<string, unknown> | null> {
    const todo = new Map<string, Want>();
    for (const w of wants) {
      const s = this.source(w);
      if (this.get(s) === undefined) todo.set(`${s.side}:${s.path}`, s);
    }
    if (this.mode === "graphql") {
      try {
        return await this.readGraphql([...todo.values()], extra);
      } catch (e) {
        if (!(e instanceof GraphqlUnavailable)) throw e;
        this.mode = "rest";
      }
    }
    await this.readRest([...todo.values()]);
    return null;
  }

  private async readGraphql(todo: Want[], extra: ExtraFields | null): Promise<Record<string, unknown> | null> {
    // One want per blob: members with identical manifests are one object.
    const byKey = new Map<string, { want: BlobWant; paths: Want[] }>();
    for (const w of todo) {
      const e = w.side === "head" ? this.entries.get(w.path) : undefined;
      const ref = w.side === "head" ? this.refs.headSha : this.refs.baseSha;
      const key = e?.sha ? `oid:${e.sha}` : `${ref}:${w.path}`;
      const size = e?.size ?? this.entries.get(w.path)?.size ?? 0;
      const slot = byKey.get(key) ?? {
        want: e?.sha ? { key, oid: e.sha, size } : { key, expression: `${ref}:${w.path}`, size },
        paths: [],
      };
      slot.paths.push(w);
      byKey.set(key, slot);
    }
    const slots = [...byKey.values()];
    const {
      results,
      unread,
      extra: data,
    } = await readBlobs(
      this.octokit,
      this.repo,
      slots.map((s) => s.want),
      this.budget,
      extra,
    );
    const cut = new Set(unread.map((u) => u.key));
    for (const slot of slots) {
      if (cut.has(slot.want.key)) {
        for (const w of slot.paths) this.unread.push(label(w));
        continue;
      }
      const r = results.get(slot.want.key);
      for (const w of slot.paths) this.store(w, r);
    }
    return data;
  }

  private async readRest(todo: Want[]): Promise<void> {
    for (const w of todo) {
      if (this.restReads >= MAX_REST_READS) {
        this.unread.push(label(w));
        continue;
      }
      this.restReads++;
      const ref = w.side === "head" ? this.refs.headSha : this.refs.baseSha;
      this.store(w, await readFile(this.octokit, { ...this.repo, path: w.path, ref }));
    }
  }

  private store(w: Want, r: BlobResult | undefined): void {
    this.texts.set(`${w.side}:${w.path}`, r?.ok ? r.text : null);
    // Half a file is not judged as if whole, and not passed over in silence either.
    if (r && !r.ok && r.reason === "too-large") this.unread.push(`${label(w)} (too large)`);
  }
}

const label = (w: Want) => (w.side === "head" ? w.path : `${w.path} (base)`);
