// `burn-triage scan`: the bot's issue handler over a repository's backlog. Each listed issue is
// planned, gathered and (with `apply`) published by the same functions a webhook runs, under the
// repository's config, so the report says exactly what the bot would post, and `--apply` posts
// it with the same marker, lock, upsert and identity rules.
import { Context } from "probot";
import { gatherAnswer, publishAnswer } from "../handlers/issues.js";
import type { Deps } from "../handlers/deps.js";
import { type IssuesPayload, issueEvent, planIssue } from "../plan.js";
import { ISSUE_MARKER_PREFIX, issueMarker, renderIssueComment } from "../render/issue.js";
import { rowOf, type ScanReport, type ScanRow } from "../scan/report.js";
import { digest, knownCurrent, type ScanState } from "../scan/state.js";
import { summarize } from "../summary.js";
import { loadConfig } from "./config.js";
import { findMarked } from "./comments.js";
import { repoManifests } from "./manifests.js";
import { listPages, type Log, type Octokit, type RepoRef } from "./types.js";

export interface ScanOptions extends RepoRef {
  /** `open`, or `all` for closed issues too. */
  state: "open" | "all";
  since?: string;
  apply: boolean;
  /** Kept between runs (`scan/state.ts`); saved after every issue, so an interrupted scan resumes. */
  previous: ScanState;
  save(state: ScanState): void;
  progress?(done: number, total: number): void;
}

type ListedIssue = IssuesPayload["issue"] & {
  number: number;
  updated_at: string;
  comments?: number;
  pull_request?: unknown;
  state?: string;
};

/** The listing, newest update first; on a rerun its first page is asked for conditionally. */
async function listIssues(
  octokit: Octokit,
  o: ScanOptions,
): Promise<{ issues: ListedIssue[]; etag?: string } | "not-modified"> {
  const query = {
    owner: o.owner,
    repo: o.repo,
    state: o.state,
    sort: "updated",
    direction: "desc",
    per_page: 100,
    ...(o.since ? { since: o.since } : {}),
  } as const;
  let etag: string | undefined;
  // Nothing changed and nothing left to write: the previous rows stand.
  const settled = !o.apply || o.previous.rows.every((r) => r.status === "current");
  if (o.previous.complete && o.previous.firstPageEtag && settled) {
    try {
      await octokit.request("GET /repos/{owner}/{repo}/issues", {
        ...query,
        headers: { "if-none-match": o.previous.firstPageEtag },
      });
    } catch (e) {
      // A 304 does not count against the rate limit: an unchanged backlog costs one free call.
      if ((e as { status?: number }).status === 304) return "not-modified";
      throw e;
    }
  }
  const issues: ListedIssue[] = [];
  async function* pages() {
    for await (const page of octokit.paginate.iterator(octokit.rest.issues.listForRepo, query)) {
      etag ??= (page.headers as { etag?: string }).etag;
      yield page;
    }
  }
  for await (const items of listPages<ListedIssue>(pages(), "issues"))
    issues.push(...items.filter((i) => !i.pull_request));
  return { issues, etag };
}

export async function scanRepository(octokit: Octokit, deps: Deps, log: Log, o: ScanOptions): Promise<ScanReport> {
  const repo = `${o.owner}/${o.repo}`;
  const listed = await listIssues(octokit, o);
  if (listed === "not-modified")
    return { repo, scanned: Object.keys(o.previous.issues).length, rows: o.previous.rows, writes: 0, unchanged: true };
  const where = { owner: o.owner, repo: o.repo };
  const config = (await loadConfig({ octokit, log, repo: () => where })).config;
  // One read of the repository's manifests serves every issue that needs them.
  let manifests: ReturnType<typeof repoManifests> | undefined;
  const readRepository = () => (manifests ??= repoManifests(octokit, where, log));
  const who = await deps.identity(octokit);

  const state: ScanState = { ...o.previous, complete: false, issues: { ...o.previous.issues } };
  const rows: ScanRow[] = [];
  let writes = 0;
  for (const [i, issue] of listed.issues.entries()) {
    o.progress?.(i, listed.issues.length);
    const payload = {
      action: "opened",
      issue,
      repository: { name: o.repo, owner: { login: o.owner }, full_name: repo },
      sender: issue.user,
    };
    const plan = planIssue(issueEvent(payload, { senderIsBot: false }), config);
    const context = new Context(
      { id: `scan-${repo}#${issue.number}`, name: "issues", payload } as never,
      octokit,
      log as never,
    ) as unknown as Context<"issues.opened">;
    const analysis = plan.kind === "answer" ? await gatherAnswer(context, deps, plan, readRepository) : null;
    const body = analysis && renderIssueComment(analysis, issueMarker(issue.updated_at));
    const answer = body ? digest(answerOf(body)) : null;
    let row = body && analysis ? rowOf(issue.number, issue.title, summarize(analysis), "current") : null;
    if (row && !knownCurrent(state, issue.number, issue.updated_at, answer)) {
      const mine = await findMarked(octokit, who, { ...where, issue_number: issue.number }, ISSUE_MARKER_PREFIX);
      row = { ...row, status: !mine ? "missing" : sameAnswer(mine.body, body!) ? "current" : "outdated" };
      if (o.apply && row.status !== "current" && plan.kind === "answer") {
        const applied = await publishAnswer(context, deps, { body: body!, label: plan.label, finding: row.found.id });
        row = { ...row, applied };
        if (applied === "created" || applied === "updated") writes++;
      }
    }
    if (row) rows.push(row);
    const current = row === null || row.status === "current" || row.applied !== undefined;
    state.issues[String(issue.number)] = { updated_at: issue.updated_at, answer, current };
    o.save({ ...state, rows: rows.map(afterwards) });
  }
  o.progress?.(listed.issues.length, listed.issues.length);
  const done: ScanState = { ...state, rows: rows.map(afterwards), complete: true, firstPageEtag: listed.etag };
  o.save(done);
  return { repo, scanned: listed.issues.length, rows, writes, unchanged: false };
}

/** A row as the repository stands after the run: what was written is current. */
function afterwards(row: ScanRow): ScanRow {
  const { applied, ...rest } = row;
  return applied === undefined || applied === "stale" ? rest : { ...rest, status: "current" };
}

/** A comment's answer: everything after its marker line (which carries the issue's updated_at). */
function answerOf(body: string): string {
  return body.slice(body.indexOf("\n") + 1);
}

/**
 * The comment says what the bot would say now. The marker's timestamp is not compared: every
 * comment (the bot's own included) moves the issue's `updated_at`, so it would never match.
 */
function sameAnswer(existing: string | undefined, body: string): boolean {
  return existing !== undefined && answerOf(existing) === answerOf(body);
}
