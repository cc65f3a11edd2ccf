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

/** The app's own comment carrying `marker`, if any (one paginated listing). */
export async function findMarked(octokit: Octokit, where: RepoRef & { issue_number: number }, marker: string): Promise<Comment | null> {
  for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, { ...where, per_page: 100 })) {
    const mine = (page.data as Comment[]).find((c) => c.user?.type === "Bot" && c.body?.includes(marker));
    if (mine) return mine;
  }
  return null;
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
