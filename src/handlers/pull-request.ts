import type { Context } from "probot";
import type { ManifestFile } from "../cargo/fix.js";
import { loadConfig } from "../github/config.js";
import { readFile } from "../github/files.js";
import { crateNeedsGradients } from "../github/gradients.js";
import { withLock } from "../github/lock.js";
import type { Octokit, RepoRef } from "../github/types.js";
import { CHECK_NAME, REVIEW_MARKER, renderReviewBody, renderSuperseded, suggestionComment } from "../render/review.js";
import { commentableLines, type ManifestReview, reviewManifest } from "../review.js";

type PrContext = Context<"pull_request.opened" | "pull_request.synchronize" | "pull_request.reopened" | "pull_request.ready_for_review">;

/** GitHub lists at most 3000 files for a pull request. */
export const MAX_FILES = 3000;
export const MAX_MANIFESTS = 10;

interface PrFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

async function listFiles(octokit: Octokit, where: RepoRef & { pull_number: number }): Promise<PrFile[]> {
  const files: PrFile[] = [];
  for await (const page of octokit.paginate.iterator(octokit.rest.pulls.listFiles, { ...where, per_page: 100 })) {
    files.push(...(page.data as PrFile[]));
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

export async function onPullRequest(context: PrContext): Promise<void> {
  const pr = context.payload.pull_request;
  if (pr.draft || pr.state !== "open") return;
  const base = context.repo();
  const files = await listFiles(context.octokit, { ...base, pull_number: pr.number });
  const changed = files.filter((f) => isManifest(f.filename) && f.status !== "removed").slice(0, MAX_MANIFESTS);
  if (changed.length === 0) return;
  const { config } = await loadConfig(context);
  if (!config.pull_requests.enabled) return;
  if (!pr.head.repo?.owner) {
    context.log.warn({ ...base, pull_number: pr.number }, "head repository is gone; skipping review");
    return;
  }
  const head: RepoRef = { owner: pr.head.repo.owner.login, repo: pr.head.repo.name };

  const roots = new Map<string, ManifestFile | null>();
  const root = async (repo: RepoRef, ref: string) => {
    const key = `${repo.owner}/${repo.repo}@${ref}`;
    if (!roots.has(key)) {
      const f = await readFile(context.octokit, { ...repo, path: "Cargo.toml", ref });
      roots.set(key, f.ok ? { path: "Cargo.toml", text: f.text } : null);
    }
    return roots.get(key)!;
  };

  const results: ManifestReview[] = [];
  for (const f of changed) {
    const h = await readFile(context.octokit, { ...head, path: f.filename, ref: pr.head.sha });
    if (!h.ok) {
      context.log.info({ ...base, path: f.filename, reason: h.reason }, "manifest skipped");
      continue;
    }
    const b = f.status === "added" ? null : await readFile(context.octokit, { ...base, path: f.previous_filename ?? f.filename, ref: pr.base.sha });
    const member = f.filename !== "Cargo.toml" && /\bworkspace\s*=\s*true/.test(h.text);
    const review = reviewManifest({
      path: f.filename,
      base: b?.ok ? b.text : null,
      head: h.text,
      baseRoot: member ? await root(base, pr.base.sha) : null,
      headRoot: member ? await root(head, pr.head.sha) : null,
      commentable: commentableLines(f.patch),
    });
    if (review.kind === "regression" || review.kind === "regression-unfixable") {
      const grads = await crateNeedsGradients(context.octokit, head, pr.head.sha, dirOf(f.filename));
      // Turning autodiff off is fine for a crate that never asks for gradients.
      if (!grads.needs) {
        results.push({ kind: "fine", path: f.filename, burn: true });
        continue;
      }
    }
    results.push(review);
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
  await withLock(`${base.owner}/${base.repo}#${pr.number}`, () => publishReview(context, problems));
}

interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "warning" | "failure";
  message: string;
}

function checkOutput(problems: ManifestReview[]): { title: string; summary: string; annotations?: Annotation[] } {
  if (problems.length === 0) return { title: "autodiff unchanged", summary: "No Cargo.toml change in this PR turns `burn-dispatch/autodiff` off." };
  const annotations = problems.flatMap((r): Annotation[] => {
    if (r.kind === "regression") {
      const s = r.plan.change.suggestion;
      return [{ path: r.path, start_line: s.startLine, end_line: s.endLine, annotation_level: "warning", message: `autodiff is off after this change; add ${r.plan.change.added.map((a) => `"${a}"`).join(", ")} to \`${r.plan.change.dependency}\`'s features.` }];
    }
    if (r.kind === "invalid-toml") return [{ path: r.path, start_line: r.line, end_line: r.line, annotation_level: "failure", message: `Cargo.toml does not parse: ${r.message}` }];
    return [];
  });
  return { title: `${problems.length} manifest${problems.length > 1 ? "s" : ""} need attention`, summary: "See the review on this pull request.", annotations };
}

interface Review {
  id: number;
  body: string | null;
  user: { type: string } | null;
  commit_id: string | null;
}

async function publishReview(context: PrContext, problems: ManifestReview[]): Promise<void> {
  const pr = context.payload.pull_request;
  const where = { ...context.repo(), pull_number: pr.number };
  const reviews = (await context.octokit.paginate(context.octokit.rest.pulls.listReviews, { ...where, per_page: 100 })) as Review[];
  const ours = reviews.filter((r) => r.user?.type === "Bot" && r.body?.includes(REVIEW_MARKER));
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
