import { authoredBy, type Identity } from "./identity.js";
import { listPages, type Octokit, pagesNewestFirst, type RepoRef } from "./types.js";

export interface Comment {
  id: number;
  body?: string;
  user?: { login?: string; type?: string } | null;
  performed_via_github_app?: { id?: number } | null;
  created_at?: string;
}

type Where = RepoRef & { issue_number: number };

/**
 * `since`: the comment cannot be older than this (a reply to a command is written after the
 * command): GitHub then lists only comments updated since, so a reply on an issue with 3,000
 * comments costs one page, not thirty.
 */
export interface Find {
  since?: string;
  /** Where this comment's id was kept by an earlier delivery (see `rememberedIn`). */
  memo?: Memo;
}

export interface Memo {
  recall(): Promise<number | null>;
  remember(id: number): Promise<void>;
}

/** An issue with more comments than one page holds is searched by a remembered id first. */
export const REMEMBER_ABOVE_COMMENTS = 100;
const MEMO_TTL_S = 90 * 24 * 3600;

/**
 * A memo in the coordination cache (Redis when shared). Used only on long issues: there a GET of
 * the remembered id replaces a listing of thirty pages. Short issues are listed (one page), which
 * also lets racing replicas without a shared store converge to one comment.
 */
export function rememberedIn(
  cache: { cacheGet(k: string): Promise<string | null>; cacheSet(k: string, v: string, ttl: number): Promise<void> },
  where: Where,
  marker: string,
): Memo {
  const key = `comment:${where.owner}/${where.repo}#${where.issue_number}:${marker}`;
  return {
    recall: async () => {
      const id = Number(await cache.cacheGet(key).catch(() => null));
      return Number.isSafeInteger(id) && id > 0 ? id : null;
    },
    remember: (id) => cache.cacheSet(key, String(id), MEMO_TTL_S).catch(() => undefined),
  };
}

/** The remembered comment, when it still exists, is this app's, on this issue, with this marker. */
async function recalled(
  octokit: Octokit,
  who: Identity,
  where: Where,
  marker: string,
  memo: Memo,
): Promise<Comment | null> {
  const id = await memo.recall();
  if (id === null) return null;
  try {
    const { data } = await octokit.rest.issues.getComment({ owner: where.owner, repo: where.repo, comment_id: id });
    const c = data as Comment & { issue_url?: string };
    const here = typeof c.issue_url === "string" && c.issue_url.endsWith(`/issues/${where.issue_number}`);
    return here && authoredBy(who, c) && c.body?.startsWith(marker) ? c : null;
  } catch (e) {
    if ((e as { status?: number }).status === 404) return null;
    throw e;
  }
}

/** Every comment of this app's carrying `marker`, oldest first (one paginated listing). */
async function listMarked(
  octokit: Octokit,
  who: Identity,
  where: Where,
  marker: string,
  find: Find = {},
): Promise<Comment[]> {
  if (find.since) return listMarkedSince(octokit, who, where, marker, find.since);
  const mine: Comment[] = [];
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, { ...where, per_page: 100 });
  for await (const page of listPages<Comment>(pages, "issue comments")) {
    mine.push(...page.filter((c) => authoredBy(who, c) && c.body?.startsWith(marker)));
  }
  return mine;
}

/**
 * A reply written after `since` (a command's time): GitHub lists only comments updated since,
 * and the pages are read newest first, stopping at the first page that begins before `since`,
 * so a reply on an issue of 3,000 comments costs two reads even where `since` is not honoured.
 */
async function listMarkedSince(
  octokit: Octokit,
  who: Identity,
  where: Where,
  marker: string,
  since: string,
): Promise<Comment[]> {
  const mine: Comment[] = [];
  const pages = pagesNewestFirst<Comment>(
    (page) => octokit.rest.issues.listComments({ ...where, per_page: 100, since, ...(page ? { page } : {}) }),
    "issue comments",
  );
  for await (const page of pages) {
    mine.unshift(...page.filter((c) => authoredBy(who, c) && c.body?.startsWith(marker)));
    const first = page[0]?.created_at;
    if (first !== undefined && Date.parse(first) < Date.parse(since)) break;
  }
  return mine;
}

/**
 * This app's comments for `marker`, oldest first: read only (which of them stays is the
 * publisher's decision, `publish-plan.ts`). A remembered id that still holds the comment saves
 * the listing.
 */
export async function findMarked(
  octokit: Octokit,
  who: Identity,
  where: Where,
  marker: string,
  find: Find = {},
): Promise<Comment[]> {
  if (find.memo) {
    const hit = await recalled(octokit, who, where, marker, find.memo);
    if (hit) return [hit];
  }
  const mine = await listMarked(octokit, who, where, marker, find);
  if (mine[0]) await find.memo?.remember(mine[0].id);
  return mine;
}
