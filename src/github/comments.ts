import type { Octokit, RepoRef } from "./types.js";

export interface Upserted {
  action: "created" | "updated" | "unchanged";
  id: number;
}

interface Comment {
  id: number;
  body?: string;
  user: { type: string } | null;
}

/** Every comment of the app's carrying `marker`, oldest first (one paginated listing). */
async function listMarked(octokit: Octokit, where: RepoRef & { issue_number: number }, marker: string): Promise<Comment[]> {
  const mine: Comment[] = [];
  for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, { ...where, per_page: 100 })) {
    mine.push(...(page.data as Comment[]).filter((c) => c.user?.type === "Bot" && c.body?.startsWith(marker)));
  }
  return mine;
}

/**
 * The app's comment for `marker`. Two replicas racing on one issue can both create one; the
 * next touch keeps the oldest and deletes the rest, so the conversation converges to one.
 */
export async function findMarked(octokit: Octokit, where: RepoRef & { issue_number: number }, marker: string): Promise<Comment | null> {
  const [first, ...extra] = await listMarked(octokit, where, marker);
  for (const c of extra) await octokit.rest.issues.deleteComment({ owner: where.owner, repo: where.repo, comment_id: c.id });
  return first ?? null;
}

/**
 * Creates or edits the app's one comment for `marker`; an identical body costs no write, so a
 * redelivered webhook is a no-op.
 */
export async function upsertComment(octokit: Octokit, where: RepoRef & { issue_number: number }, marker: string, body: string): Promise<Upserted> {
  if (!body.includes(marker)) throw new Error("comment body must carry its marker");
  const existing = await findMarked(octokit, where, marker);
  if (!existing) {
    const { data } = await octokit.rest.issues.createComment({ ...where, body });
    return { action: "created", id: data.id };
  }
  if (existing.body === body) return { action: "unchanged", id: existing.id };
  await octokit.rest.issues.updateComment({ owner: where.owner, repo: where.repo, comment_id: existing.id, body });
  return { action: "updated", id: existing.id };
}
