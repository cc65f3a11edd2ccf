// `burn-triage scan`: the bot's issue handling over a repository's backlog. Each listed issue is
// planned, gathered and decided by the same functions a webhook runs, under the repository's
// config, so the report says exactly what the bot would post. A report plans with `GitHubReads`
// (it has no method that writes); `--apply` converges each issue with the publisher a webhook
// uses: comment created, updated or retracted, the label owed, duplicates of its own removed.

import { answerIssue } from "../answer/answer.js";
import type { IssueAnswer } from "../answer/answer-schema.js";
import { type IssuesPayload, issueEvent, planIssue } from "../answer/plan.js";
import { answerOf, type Decision, type Desired } from "../answer/publish-plan.js";
import { issueMarker, renderAnswerComment, renderResolvedComment } from "../render/issue.js";
import type { ThreadHead } from "../scan/issue-page.js";
import { rowOf, type ScanReport, type ScanRow, type StaleAnswer } from "../scan/report.js";
import { digest, emptyListing, inputDigest, knownCurrent, type Listing, type ScanState } from "../scan/state.js";
import { gatherAnswer } from "./answer.js";
import { GraphqlUnavailable } from "./blob-reads.js";
import { configFields, configFromAnswer, loadConfig } from "./config.js";
import type { Coordination } from "./coordination.js";
import type { Deps } from "./deps.js";
import { repoManifests } from "./manifests.js";
import { convergeLocked, type GitHubReads, type GitHubWrites, issueTarget, plan, type Target } from "./publish.js";
import { listIssuesGraphql, readThreads, type ThreadSeen, type ThreadWant, threadReads } from "./scan-reads.js";
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
  /**
   * The backlog and the bot's comments read by GraphQL, 100 issues a query (GRAPHQL_READS=off:
   * by REST, a comment listing per thread that needs a look, as where GraphQL is refused).
   */
  graphql?: boolean;
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

interface Listed {
  issues: ListedIssue[];
  etag?: string;
  /** The start of each thread, when the listing came by GraphQL (null: by REST). */
  threads: Map<number, ThreadHead> | null;
  /** The first GraphQL page's answer, the config's two places in it. */
  first?: Record<string, unknown> | null;
}

/** The config from the first page's answer; by REST where that answer does not say. */
async function configOf(octokit: Octokit, log: Log, where: RepoRef, first: Record<string, unknown> | null) {
  const context = { octokit, log, repo: () => where };
  return ((first ? configFromAnswer(first, context) : null) ?? (await loadConfig(context))).config;
}

/** By GraphQL where allowed and not refused; by REST otherwise, with the same issues. */
async function listAll(octokit: Octokit, o: ScanOptions, log: Log): Promise<Listed> {
  if (o.graphql !== false) {
    try {
      // The config rides in the first page's query.
      const l = await listIssuesGraphql(octokit, o, configFields());
      return { issues: l.issues, threads: l.threads, first: l.first };
    } catch (e) {
      if (!(e instanceof GraphqlUnavailable)) throw e;
      log.warn({ error: e.message }, "GitHub refused the GraphQL listing; reading the backlog by REST");
    }
  }
  return { ...(await listIssues(octokit, o)), threads: null };
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
  /** Asked once, when something must be read by REST or written (a GraphQL report never asks). */
  mode: () => Promise<ScanMode>;
  /** Threads the batch read (GraphQL): their decisions need no read of their own. */
  batch: Map<number, ThreadSeen>;
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
  const listed = await listAll(octokit, o, log);
  const where = { owner: o.owner, repo: o.repo };
  let manifests: ReturnType<typeof repoManifests> | undefined;
  const run: Run = {
    octokit,
    deps,
    log,
    o,
    coordination: await deps.coordination(),
    config: await configOf(octokit, log, where, listed.first ?? null),
    // One read of the repository's manifests serves every issue that needs them.
    readRepository: () => (manifests ??= repoManifests(octokit, where, log)),
    state: { ...o.previous, issues: { ...o.previous.issues }, listings: { ...o.previous.listings } },
    mode: once(o.mode),
    batch: new Map(),
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
  const wanted: Wanted[] = [];
  for (const issue of listed.issues) wanted.push(await desiredFor(run, issue));
  if (listed.threads) run.batch = await readBatch(run, listed.issues, wanted, listed.threads);
  for (const [i, issue] of listed.issues.entries()) {
    o.progress?.(i, listed.issues.length);
    await scanIssue(run, issue, wanted[i]!);
    run.state.listings[key] = listing(false);
    o.save(run.state);
  }
  o.progress?.(listed.issues.length, listed.issues.length);
  // The bot's own writes move `updated_at` and so the first page's ETag: read it once more, so
  // the next run of an unchanged backlog is one free 304 instead of a full listing.
  // A GraphQL listing has no ETag: the first page is read once by REST, as after writes.
  const etag = run.writes > 0 || listed.threads ? await settledEtag(run, startedAt) : listed.etag;
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

interface Wanted {
  desired: Desired | null;
  answer: IssueAnswer | null;
}

/** A value asked for once, when first needed. */
function once<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}

/** The digest of the answer the issue wants (null: none, or a retraction). */
const answerDigest = (w: Wanted) => (w.desired?.kind === "answer" ? digest(answerOf(w.desired.body)) : null);

/**
 * The threads of the issues whose comment must be looked at (an answer or a retraction wanted,
 * not known current from the last run), read in batched queries. Where GitHub refuses them,
 * none: each is then read by REST as it is decided.
 */
async function readBatch(
  run: Run,
  issues: ListedIssue[],
  wanted: Wanted[],
  threads: Map<number, ThreadHead>,
): Promise<Map<number, ThreadSeen>> {
  const wants: ThreadWant[] = [];
  for (const [i, issue] of issues.entries()) {
    const w = wanted[i]!;
    const thread = threads.get(issue.number);
    if (!w.desired || !thread || knownCurrent(run.state, issue.number, inputDigest(issue), answerDigest(w))) continue;
    wants.push({ number: issue.number, thread, label: w.desired.kind === "answer" ? w.desired.label : null });
  }
  try {
    return await readThreads(run.octokit, wants);
  } catch (e) {
    if (!(e instanceof GraphqlUnavailable)) throw e;
    run.log.warn({ error: e.message }, "GitHub refused the GraphQL read of the bot's comments; reading them by REST");
    return new Map();
  }
}

/** What the bot would want on this issue: an answer, a retraction of an earlier one, or nothing. */
async function desiredFor(run: Run, issue: ListedIssue): Promise<Wanted> {
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

async function scanIssue(run: Run, issue: ListedIssue, wanted: Wanted): Promise<void> {
  const { o, state } = run;
  const n = String(issue.number);
  let input = inputDigest(issue);
  const { desired, answer: said } = wanted;
  const answer = answerDigest(wanted);
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
  if (o.apply) {
    // Written ahead: a run killed after the comment and before this save still knows the issue
    // was answered, so a later edit that removes the panic gets the advice retracted.
    seen(false, answer ?? state.issues[n]?.answer ?? null);
    o.save(state);
  }
  const decision = await decide(run, target, desired);
  record(run, issue, found, decision);
  // The label this run added is part of the issue's input from now on (the plan reads labels).
  const added = o.apply ? decision.steps.flatMap((s) => (s.op === "label" ? [{ name: s.name }] : [])) : [];
  if (added.length > 0) input = inputDigest({ ...issue, labels: [...(issue.labels ?? []), ...added] });
  // A retraction only planned keeps the issue's earlier answer, so that --apply still retracts it.
  const settled = o.apply || decision.steps.length === 0;
  seen(settled, desired.kind === "answer" ? answer : settled ? null : (state.issues[n]?.answer ?? null));
}

/**
 * The decision on one thread. From the batch where it read the thread: a report needs nothing
 * more, and --apply reads the thread again (live, under its lock) only where it will write.
 * Elsewhere, read and written as a webhook does.
 */
async function decide(run: Run, target: Target, desired: Desired): Promise<Decision> {
  const seen = run.batch.get(target.where.issue_number);
  if (seen) {
    const live = async () => (await run.mode()).gh;
    const planned = await plan(threadReads(seen, live), target, desired);
    if (!run.o.apply || planned.steps.length === 0) return planned;
  }
  const mode = await run.mode();
  if (!mode.apply) return plan(mode.gh, target, desired);
  const decision = await convergeLocked(run.coordination, mode.gh, target, desired);
  run.writes += decision.steps.length;
  return decision;
}

/** The report's row (or stale answer) for the decision taken or planned on one issue. */
function record(run: Run, issue: ListedIssue, found: ScanRow | null, d: Decision): void {
  const applied = run.o.apply;
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
