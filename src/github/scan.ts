// `burn-triage scan`: the bot's issue handling over a repository's backlog. Each listed issue is
// planned, gathered and decided by the same functions a webhook runs, under the repository's
// config, so the report says exactly what the bot would post. A report plans with `GitHubReads`
// (it has no method that writes); `--apply` converges each issue with the publisher a webhook
// uses: comment created, updated or retracted, the label owed, duplicates of its own removed.
import type { IssueAnswer } from "../answer/answer-schema.js";
import { type IssuesPayload, issueEvent, planIssue } from "../answer/plan.js";
import { answerOf, type Decision, type Desired } from "../answer/publish-plan.js";
import { answerIssue } from "../answer/answer.js";
import { issueMarker, renderAnswerComment, renderResolvedComment } from "../render/issue.js";
import { rowOf, type ScanReport, type ScanRow, type StaleAnswer } from "../scan/report.js";
import { digest, emptyListing, inputDigest, knownCurrent, type Listing, type ScanState } from "../scan/state.js";
import { gatherAnswer } from "./answer.js";
import { loadConfig } from "./config.js";
import type { Coordination } from "./coordination.js";
import type { Deps } from "./deps.js";
import { repoManifests } from "./manifests.js";
import { convergeLocked, type GitHubReads, type GitHubWrites, issueTarget, plan } from "./publish.js";
import { type Log, listPages, type Octokit, type RepoRef } from "./types.js";

/** A report reads; only `--apply` is handed a client that writes. */
export type ScanMode = { apply: false; gh: GitHubReads } | { apply: true; gh: GitHubWrites };

export interface ScanOptions extends RepoRef {
  apply: boolean;
  /** `open`, or `all` for closed issues too. */
  state: "open" | "all";
  since?: string;
  /** Asked for only when the listing changed: an unchanged backlog costs one request. */
  mode: () => Promise<ScanMode>;
  /** Kept between runs (`scan/state.ts`); saved after every issue, so an interrupted scan resumes. */
  previous: ScanState;
  save(state: ScanState): void;
  progress?(done: number, total: number): void;
  /** Listing pages read at most (100 issues each); more is an error that says how to raise it. */
  maxPages: number;
}

type ListedIssue = IssuesPayload["issue"] & {
  number: number;
  updated_at: string;
  comments?: number;
  pull_request?: unknown;
  state?: string;
};

const PER_PAGE = 100;

export function queryKey(o: Pick<ScanOptions, "state" | "since">): string {
  return JSON.stringify({ state: o.state, since: o.since ?? null });
}

function listQuery(o: ScanOptions) {
  return {
    owner: o.owner,
    repo: o.repo,
    state: o.state,
    sort: "updated",
    direction: "desc",
    per_page: PER_PAGE,
    ...(o.since ? { since: o.since } : {}),
  } as const;
}

/** Unchanged since the listing's last complete scan: one conditional request (a 304 is free). */
async function unchanged(octokit: Octokit, o: ScanOptions, listing: Listing): Promise<boolean> {
  const settled =
    listing.rows.every((r) => r.status === "current" && !r.labelOwed) && listing.stale.every((s) => s.retracted);
  if (!listing.complete || !listing.firstPageEtag || (o.apply && !settled)) return false;
  try {
    await octokit.request("GET /repos/{owner}/{repo}/issues", {
      ...listQuery(o),
      headers: { "if-none-match": listing.firstPageEtag },
    });
    return false;
  } catch (e) {
    if ((e as { status?: number }).status === 304) return true;
    throw e;
  }
}

/** The listing, newest update first, pull requests left out; at most `maxPages` pages. */
async function listIssues(octokit: Octokit, o: ScanOptions): Promise<{ issues: ListedIssue[]; etag?: string }> {
  let etag: string | undefined;
  async function* pages() {
    for await (const page of octokit.paginate.iterator(octokit.rest.issues.listForRepo, listQuery(o))) {
      etag ??= (page.headers as { etag?: string }).etag;
      yield page;
    }
  }
  const issues: ListedIssue[] = [];
  for await (const items of listPages<ListedIssue>(pages(), "issues", o.maxPages))
    issues.push(...items.filter((i) => !i.pull_request));
  return { issues, etag };
}

interface Run {
  octokit: Octokit;
  deps: Deps;
  log: Log;
  o: ScanOptions;
  coordination: Coordination;
  config: Awaited<ReturnType<typeof loadConfig>>["config"];
  readRepository: () => ReturnType<typeof repoManifests>;
  state: ScanState;
  mode: ScanMode;
  rows: ScanRow[];
  stale: StaleAnswer[];
  writes: number;
}

export async function scanRepository(octokit: Octokit, deps: Deps, log: Log, o: ScanOptions): Promise<ScanReport> {
  const repo = `${o.owner}/${o.repo}`;
  const key = queryKey(o);
  const before = o.previous.listings[key] ?? emptyListing();
  if (await unchanged(octokit, o, before))
    return {
      repo,
      scanned: before.scanned ?? 0,
      rows: before.rows,
      stale: before.stale,
      writes: 0,
      unchanged: true,
    };
  const startedAt = Date.now();
  const listed = await listIssues(octokit, o);
  const where = { owner: o.owner, repo: o.repo };
  let manifests: ReturnType<typeof repoManifests> | undefined;
  const run: Run = {
    octokit,
    deps,
    log,
    o,
    coordination: await deps.coordination(),
    config: (await loadConfig({ octokit, log, repo: () => where })).config,
    // One read of the repository's manifests serves every issue that needs them.
    readRepository: () => (manifests ??= repoManifests(octokit, where, log)),
    state: { ...o.previous, issues: { ...o.previous.issues }, listings: { ...o.previous.listings } },
    mode: await o.mode(),
    rows: [],
    stale: [],
    writes: 0,
  };
  const listing = (complete: boolean, firstPageEtag?: string): Listing => ({
    complete,
    ...(firstPageEtag ? { firstPageEtag } : {}),
    rows: run.rows.map(afterwards),
    stale: run.stale,
  });
  for (const [i, issue] of listed.issues.entries()) {
    o.progress?.(i, listed.issues.length);
    await scanIssue(run, issue);
    run.state.listings[key] = listing(false);
    o.save(run.state);
  }
  o.progress?.(listed.issues.length, listed.issues.length);
  // The bot's own writes move `updated_at` and so the first page's ETag: read it once more, so
  // the next run of an unchanged backlog is one free 304 instead of a full listing.
  const etag = run.writes > 0 ? await settledEtag(run, startedAt) : listed.etag;
  run.state.listings[key] = { ...listing(true, etag), scanned: listed.issues.length };
  o.save(run.state);
  return {
    repo,
    scanned: listed.issues.length,
    rows: run.rows,
    stale: run.stale,
    writes: run.writes,
    unchanged: false,
  };
}

/**
 * The first page after this run's writes, trusted as the listing's ETag only when every issue
 * updated since the run began is on it and still has the text this run answered (a person's edit
 * during the run must not hide behind the bot's own). Else none: the next run lists in full.
 */
async function settledEtag(run: Run, startedAt: number): Promise<string | undefined> {
  const page = await run.octokit.rest.issues.listForRepo({ ...listQuery(run.o), page: 1 });
  const items = page.data as unknown as ListedIssue[];
  const last = items.at(-1);
  if (items.length >= PER_PAGE && last && Date.parse(last.updated_at) >= startedAt - 1000) return undefined;
  for (const item of items) {
    if (item.pull_request) continue;
    const seen = run.state.issues[String(item.number)];
    if (!seen || seen.input !== inputDigest(item)) return undefined;
    seen.updated_at = item.updated_at;
  }
  return (page.headers as { etag?: string }).etag;
}

/** What the bot would want on this issue: an answer, a retraction of an earlier one, or nothing. */
async function desiredFor(
  run: Run,
  issue: ListedIssue,
): Promise<{ desired: Desired | null; answer: IssueAnswer | null }> {
  const { o, config } = run;
  const payload = {
    action: "opened",
    issue,
    repository: { name: o.repo, owner: { login: o.owner }, full_name: `${o.owner}/${o.repo}` },
  };
  const plan = planIssue(issueEvent(payload, { senderIsBot: false }), config);
  const marker = issueMarker(issue.updated_at);
  if (plan.kind === "answer") {
    const context = { octokit: run.octokit, log: run.log, repo: () => ({ owner: o.owner, repo: o.repo }) };
    const answer = answerIssue(await gatherAnswer(context, run.deps, plan, run.readRepository));
    const body = renderAnswerComment(answer, marker);
    return { desired: body ? { kind: "answer", body, label: plan.label } : null, answer };
  }
  // Answered before and no longer showing a panic: the advice is retracted, as an edit's webhook does.
  const seen = run.state.issues[String(issue.number)];
  const nothing = plan.kind === "ignore" && plan.reason === "nothing-to-answer";
  if (nothing && seen?.answer)
    return { desired: { kind: "retract", body: renderResolvedComment(marker) }, answer: null };
  return { desired: null, answer: null };
}

async function scanIssue(run: Run, issue: ListedIssue): Promise<void> {
  const { o, state } = run;
  const n = String(issue.number);
  let input = inputDigest(issue);
  const { desired, answer: said } = await desiredFor(run, issue);
  const answer = desired?.kind === "answer" ? digest(answerOf(desired.body)) : null;
  const found = said && desired?.kind === "answer" ? rowOf(issue.number, issue.title, said, "current") : null;
  const seen = (current: boolean, a = answer) => {
    state.issues[n] = { updated_at: issue.updated_at, input, answer: a, current };
  };
  if (!desired || knownCurrent(state, issue.number, input, answer)) {
    if (found) run.rows.push(found);
    return seen(true);
  }
  const target = {
    ...issueTarget(
      run.coordination,
      { owner: o.owner, repo: o.repo, issue_number: issue.number },
      issue.updated_at,
      issue.comments,
    ),
    answersOnly: true,
  };
  let decision: Decision;
  if (run.mode.apply) {
    // Written ahead: a run killed after the comment and before this save still knows the issue
    // was answered, so a later edit that removes the panic gets the advice retracted.
    seen(false, answer ?? state.issues[n]?.answer ?? null);
    o.save(state);
    decision = await convergeLocked(run.coordination, run.mode.gh, target, desired);
    run.writes += decision.steps.length;
  } else decision = await plan(run.mode.gh, target, desired);
  record(run, issue, found, decision);
  // The label this run added is part of the issue's input from now on (the plan reads labels).
  const added = run.mode.apply ? decision.steps.flatMap((s) => (s.op === "label" ? [{ name: s.name }] : [])) : [];
  if (added.length > 0) input = inputDigest({ ...issue, labels: [...(issue.labels ?? []), ...added] });
  // A retraction only planned keeps the issue's earlier answer, so that --apply still retracts it.
  const settled = run.mode.apply || decision.steps.length === 0;
  seen(settled, desired.kind === "answer" ? answer : settled ? null : (state.issues[n]?.answer ?? null));
}

/** The report's row (or stale answer) for the decision taken or planned on one issue. */
function record(run: Run, issue: ListedIssue, found: ScanRow | null, d: Decision): void {
  const applied = run.mode.apply;
  if (d.outcome === "retracted") {
    run.stale.push({ number: issue.number, title: issue.title, ...(applied ? { retracted: true } : {}) });
    return;
  }
  if (!found) return;
  const status = d.outcome === "created" ? "missing" : d.outcome === "updated" ? "outdated" : "current";
  const label = d.steps.find((s) => s.op === "label");
  run.rows.push({
    ...found,
    status,
    ...(label && !applied ? { labelOwed: label.name } : {}),
    ...(applied && d.outcome !== "none" ? { applied: d.outcome } : {}),
  });
}

/** A row as the repository stands after the run: what was written is current. */
function afterwards(row: ScanRow): ScanRow {
  const { applied, ...rest } = row;
  return applied === undefined || applied === "stale" ? rest : { ...rest, status: "current" };
}
