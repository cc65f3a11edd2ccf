// The bot's previous review of a PR and its check runs at the head. By GraphQL they ride in the
// first read query (`viewerLatestReview` is the token's own latest review: nobody else's reviews
// are paged through, however many there are); by REST, the reviews newest page first and one
// check-run listing for the app.

import { checkName, markedReviewState } from "../render/review.js";
import type { PreviousReview, PrSnapshot } from "../review/pull-request.js";
import { reviewRules } from "../review/rules.js";
import type { ExtraFields } from "./blob-reads.js";
import { authoredBy, type Identity } from "./identity.js";
import { type Octokit, pageItems, pagesNewestFirst, type RepoRef } from "./types.js";

interface PrRef {
  number: number;
  head: { sha: string };
}

/** The fields (inside `repository`) that read the previous state in the same query as the files. */
export function previousStateFields(pr: PrRef, who: Identity): ExtraFields {
  const byApp = who.appId !== null ? ", filterBy: {appId: $app}" : "";
  return {
    fields:
      "pr: pullRequest(number: $pr) { viewerLatestReview { databaseId body commit { oid } } } " +
      `head: object(oid: $head) { ... on Commit { checkSuites(first: 50${byApp}) { nodes { ` +
      "checkRuns(first: 50, filterBy: {checkType: LATEST}) { nodes { databaseId name } } } } } }",
    decls: ["$pr: Int!", "$head: GitObjectID!", ...(who.appId !== null ? ["$app: Int!"] : [])],
    variables: { pr: pr.number, head: pr.head.sha, ...(who.appId !== null ? { app: who.appId } : {}) },
  };
}

interface Answer {
  pr?: { viewerLatestReview?: { databaseId?: number; body?: string; commit?: { oid?: string } | null } | null } | null;
  head?: { checkSuites?: { nodes?: Array<{ checkRuns?: { nodes?: Array<{ databaseId?: number; name?: string }> } }> } };
}

/** The previous state from the answer to `previousStateFields`. */
export function previousStateFrom(data: Record<string, unknown> | null): PrSnapshot["previous"] {
  const a = (data ?? {}) as Answer;
  const r = a.pr?.viewerLatestReview;
  const marked = r?.databaseId !== undefined ? markedReviewState(r.body ?? null) : null;
  const review: PreviousReview | null =
    r && marked
      ? { id: r.databaseId!, sha: marked.sha ?? r.commit?.oid ?? null, state: marked.state, rules: marked.rules }
      : null;
  const runs = (a.head?.checkSuites?.nodes ?? []).flatMap((s) => s.checkRuns?.nodes ?? []);
  const checkRuns: Record<string, number | null> = {};
  for (const rule of reviewRules()) {
    // The newest run of that name (ids grow with time).
    const ids = runs.filter((x) => x.name === checkName(rule) && x.databaseId !== undefined).map((x) => x.databaseId!);
    checkRuns[rule.id] = ids.length > 0 ? Math.max(...ids) : null;
  }
  return { review, checkRuns };
}

interface Review {
  id: number;
  body: string | null;
  user: { login?: string } | null;
  commit_id: string | null;
}

/** By REST: the bot's latest marked review (newest page first) and each rule's check run at the head. */
export async function previousStateRest(
  octokit: Octokit,
  repo: RepoRef,
  pr: PrRef,
  who: Identity,
): Promise<PrSnapshot["previous"]> {
  let review: PreviousReview | null = null;
  const pages = pagesNewestFirst<Review>(
    (page) =>
      octokit.rest.pulls.listReviews({ ...repo, pull_number: pr.number, per_page: 100, ...(page ? { page } : {}) }),
    "reviews",
  );
  search: for await (const page of pages)
    for (const r of [...page].reverse()) {
      const marked = authoredBy(who, r) ? markedReviewState(r.body) : null;
      if (!marked) continue;
      review = { id: r.id, sha: marked.sha ?? r.commit_id, state: marked.state, rules: marked.rules };
      break search;
    }
  const checkRuns: Record<string, number | null> = {};
  for (const rule of reviewRules()) {
    const { data } = await octokit.rest.checks.listForRef({
      ...repo,
      ref: pr.head.sha,
      check_name: checkName(rule),
      ...(who.appId !== null ? { app_id: who.appId } : {}),
    });
    const runs = pageItems<{ id: number }>((data as { check_runs?: unknown }).check_runs, "check runs");
    checkRuns[rule.id] = runs[0]?.id ?? null;
  }
  return { review, checkRuns };
}
