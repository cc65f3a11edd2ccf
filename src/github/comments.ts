import { type Identity, authoredBy } from "./identity.js";
import { transient } from "./retry.js";
import { type Octokit, pageItems, type RepoRef } from "./types.js";

export interface Upserted {
  action: "created" | "updated" | "unchanged";
  id: number;
}

export interface Comment {
  id: number;
  body?: string;
  user?: { login?: string; type?: string } | null;
  performed_via_github_app?: { id?: number } | null;
}

type Where = RepoRef & { issue_number: number };

/**
 * `since`: the comment cannot be older than this (a reply to a command is written after the
 * command): GitHub then lists only comments updated since, so a reply on an issue with 3,000
 * comments costs one page, not thirty.
 */
export interface Find {
  since?: string;
}

/** Every comment of this app's carrying `marker`, oldest first (one paginated listing). */
async function listMarked(octokit: Octokit, who: Identity, where: Where, marker: string, find: Find = {}): Promise<Comment[]> {
  const mine: Comment[] = [];
  for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, { ...where, per_page: 100, ...(find.since ? { since: find.since } : {}) })) {
    mine.push(...pageItems<Comment>(page.data, "issue comments").filter((c) => authoredBy(who, c) && c.body?.startsWith(marker)));
  }
  return mine;
}

/**
 * This app's comment for `marker`. Two replicas racing on one issue without a shared lock can
 * both create one; the next touch keeps the oldest and deletes the rest of its own.
 */
export async function findMarked(octokit: Octokit, who: Identity, where: Where, marker: string, find: Find = {}): Promise<Comment | null> {
  const [first, ...extra] = await listMarked(octokit, who, where, marker, find);
  for (const c of extra) await octokit.rest.issues.deleteComment({ owner: where.owner, repo: where.repo, comment_id: c.id });
  return first ?? null;
}

/**
 * Creates or edits the app's one comment for `marker` (a prefix of the body's first line); an
 * identical body costs no write, so a redelivered webhook is a no-op. Creation is idempotent:
 * Octokit's own retry is off for it, and after a failed create the listing is read again, since
 * GitHub may have stored the comment before the error (a 502 after the write).
 */
export async function upsertComment(octokit: Octokit, who: Identity, where: Where, marker: string, body: string, existing?: Comment | null, find: Find = {}): Promise<Upserted> {
  if (!body.startsWith(marker)) throw new Error("comment body must start with its marker");
  const found = existing === undefined ? await findMarked(octokit, who, where, marker, find) : existing;
  if (found) {
    if (found.body === body) return { action: "unchanged", id: found.id };
    await octokit.rest.issues.updateComment({ owner: where.owner, repo: where.repo, comment_id: found.id, body });
    return { action: "updated", id: found.id };
  }
  const create = async () => (await octokit.rest.issues.createComment({ ...where, body, request: { retries: 0 } })).data.id;
  try {
    return { action: "created", id: await create() };
  } catch (e) {
    if (!transient(e)) throw e;
    const stored = await findMarked(octokit, who, where, marker, find);
    if (stored?.body === body) return { action: "created", id: stored.id };
    if (stored) return upsertComment(octokit, who, where, marker, body, stored, find);
    return { action: "created", id: await create() };
  }
}
