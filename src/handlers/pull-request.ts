import type { Context } from "probot";
import { manifestFacts } from "../cargo/facts.js";
import type { ManifestFile } from "../cargo/fix.js";
import { loadConfig } from "../github/config.js";
import { type FileResult, readFile } from "../github/files.js";
import { crateNeedsGradients, treePaths } from "../github/gradients.js";
import { authoredBy } from "../github/identity.js";
import { type Octokit, pageItems, type RepoRef } from "../github/types.js";
import type { Deps } from "./deps.js";
import { CHECK_NAME, checkOutput, REVIEW_MARKER, renderReviewBody, renderSuperseded, suggestionComment } from "../render/review.js";
import { commentableLines, type ManifestReview, type RootChange, reviewManifest, reviewWorkspaceRoot } from "../review.js";

type PrContext = Context<"pull_request.opened" | "pull_request.synchronize" | "pull_request.reopened" | "pull_request.ready_for_review">;

/** GitHub lists at most 3000 files for a pull request. */
export const MAX_FILES = 3000;
export const MAX_MANIFESTS = 10;
/** Unchanged member manifests read when a PR changes the workspace root. */
export const MAX_MEMBER_READS = 4;

interface PrFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

async function listFiles(octokit: Octokit, where: RepoRef & { pull_number: number }): Promise<PrFile[]> {
  const files: PrFile[] = [];
  for await (const page of octokit.paginate.iterator(octokit.rest.pulls.listFiles, { ...where, per_page: 100 })) {
    files.push(...pageItems<PrFile>(page.data, "pull request files"));
    if (files.length >= MAX_FILES) break;
  }
  return files.slice(0, MAX_FILES);
}

function isManifest(path: string): boolean {
  return path === "Cargo.toml" || path.endsWith("/Cargo.toml");
}

function dirOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
}

export async function onPullRequest(context: PrContext, deps: Deps): Promise<void> {
  const pr = context.payload.pull_request;
  if (pr.draft || pr.state !== "open") return;
  const base = context.repo();
  const files = await listFiles(context.octokit, { ...base, pull_number: pr.number });
  const changed = files.filter((f) => isManifest(f.filename) && f.status !== "removed").slice(0, MAX_MANIFESTS);
  if (changed.length === 0) return;
  const { config } = await loadConfig(context);
  if (!config.pull_requests.enabled) return;
  // Head commits are read through the base repository: that works for forks (even deleted
  // ones) and needs no access to the fork. Each (path, ref) is read at most once.
  const repo = base;
  const reads = new Map<string, Promise<FileResult>>();
  const read = (path: string, ref: string) => {
    const key = `${ref}:${path}`;
    if (!reads.has(key)) reads.set(key, readFile(context.octokit, { ...repo, path, ref }));
    return reads.get(key)!;
  };
  const root = async (ref: string): Promise<ManifestFile | null> => {
    const f = await read("Cargo.toml", ref);
    return f.ok ? { path: "Cargo.toml", text: f.text } : null;
  };

  let tree: string[] | undefined;
  const paths = async () => {
    tree ??= await treePaths(context.octokit, repo, pr.head.sha);
    return tree;
  };
  // Turning autodiff off is fine for a crate that never asks for gradients.
  const needsGradients = async (manifestPath: string) => (await crateNeedsGradients(context.octokit, repo, pr.head.sha, dirOf(manifestPath), await paths())).needs;

  /** Members (not changed themselves) that inherit burn from the root, read at both refs. */
  const inheritingMembers = async () => {
    const candidates = (await paths()).filter((p) => p.endsWith("/Cargo.toml") && p.split("/").length <= 4 && !changed.some((f) => f.filename === p)).slice(0, MAX_MEMBER_READS);
    const members: RootChange["members"] = [];
    for (const path of candidates) {
      const h = await read(path, pr.head.sha);
      if (!h.ok || !manifestFacts(h.text).inheritsBurn) continue;
      const b = await read(path, pr.base.sha);
      members.push({ path, head: h.text, base: b.ok ? b.text : null });
    }
    return members;
  };

  const results: ManifestReview[] = [];
  const keep = async (r: ManifestReview, crateManifest: string) => {
    if ((r.kind === "regression" || r.kind === "regression-unfixable") && !(await needsGradients(crateManifest))) results.push({ kind: "fine", path: r.path, burn: true });
    else results.push(r);
  };
  for (const f of changed) {
    const h = await read(f.filename, pr.head.sha);
    if (!h.ok) {
      context.log.info({ ...base, path: f.filename, reason: h.reason }, "manifest skipped");
      continue;
    }
    const b = f.status === "added" ? null : await read(f.previous_filename ?? f.filename, pr.base.sha);
    const baseText = b?.ok ? b.text : null;
    const commentable = commentableLines(f.patch);
    const facts = manifestFacts(h.text);
    if (f.filename === "Cargo.toml" && facts.workspaceBurn) {
      const reviews = reviewWorkspaceRoot({ path: f.filename, base: baseText, head: h.text, members: await inheritingMembers(), commentable });
      for (const r of reviews) await keep(r, ("member" in r && r.member) || f.filename);
      if (reviews.length > 0) continue;
    }
    const member = f.filename !== "Cargo.toml" && facts.inheritsBurn;
    const review = reviewManifest({
      path: f.filename,
      base: baseText,
      head: h.text,
      baseRoot: member ? await root(pr.base.sha) : null,
      headRoot: member ? await root(pr.head.sha) : null,
      commentable,
    });
    await keep(review, f.filename);
  }

  const problems = results.filter((r) => r.kind !== "fine");
  if (config.pull_requests.check_run && results.some((r) => r.kind !== "fine" || r.burn)) {
    await context.octokit.rest.checks.create({
      ...base,
      name: CHECK_NAME,
      head_sha: pr.head.sha,
      status: "completed",
      conclusion: problems.length > 0 ? config.pull_requests.conclusion : "success",
      output: checkOutput(problems),
    });
  }
  await (await deps.coordination()).lock(`${base.owner}/${base.repo}#${pr.number}`, () => publishReview(context, deps, problems));
}

interface Review {
  id: number;
  body: string | null;
  user: { login?: string; type?: string } | null;
  commit_id: string | null;
}

async function publishReview(context: PrContext, deps: Deps, problems: ManifestReview[]): Promise<void> {
  const pr = context.payload.pull_request;
  const where = { ...context.repo(), pull_number: pr.number };
  const reviews = pageItems<Review>(await context.octokit.paginate(context.octokit.rest.pulls.listReviews, { ...where, per_page: 100 }), "reviews");
  const who = await deps.identity(context.octokit);
  const ours = reviews.filter((r) => authoredBy(who, r) && r.body?.startsWith(REVIEW_MARKER));
  const latest = ours.at(-1);
  if (problems.length === 0) {
    // Say the earlier problem is gone; stay silent when there never was one.
    if (latest && !latest.body?.includes("✅")) {
      await context.octokit.rest.pulls.updateReview({ ...where, review_id: latest.id, body: renderSuperseded(pr.head.sha, true) });
    }
    return;
  }
  if (latest?.commit_id === pr.head.sha) return; // a redelivery: this head is already reviewed
  const comments = problems.flatMap((r) => (r.kind === "regression" && r.inDiff ? [suggestionComment(r)] : []));
  await context.octokit.rest.pulls.createReview({ ...where, commit_id: pr.head.sha, event: "COMMENT", body: renderReviewBody(problems, pr.head.sha), comments });
  if (latest) await context.octokit.rest.pulls.updateReview({ ...where, review_id: latest.id, body: renderSuperseded(pr.head.sha, false) });
}
