// A small in-memory GitHub REST API on loopback, for the offline demo, the end-to-end tests and
// the benchmark. It records every call, serves files per ref, keeps comments, reviews, labels
// and check runs, and can inject faults (status codes, retry-after, latency) per route.

import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerScanQuery, isScanQuery } from "./fake-graphql.js";

export interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** When the request arrived (ms since the epoch). */
  at: number;
  /** Bytes of the response body sent. */
  bytes?: number;
}

export interface Fault {
  method?: string;
  /** Substring of the path (without /api/v3). */
  path: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** How many times to fail before answering normally. */
  times: number;
  delayMs?: number;
  /** Do the work first, then answer with the fault (GitHub stored it, the answer was lost). */
  after?: boolean;
  /** Answer 200 with this raw text (e.g. JSON cut short) instead of `status` and `body`. */
  raw?: string;
  /** Only requests whose body (as JSON) contains this: one GraphQL query among others. */
  bodyIncludes?: string;
}

export interface PrFile {
  filename: string;
  status: string;
  patch?: string;
  previous_filename?: string;
}

export interface FakeRepo {
  /** `path` for the default branch, `sha:path` for a ref. */
  files?: Record<string, string>;
  prFiles?: Record<number, PrFile[]>;
  /** What `GET /repos/o/r/issues` lists (issues and pull requests, as GitHub mixes them). */
  issues?: FakeIssue[];
  /** The merge base the compare API names for `base...head` (by default the base itself: the base did not move on). */
  mergeBase?: string;
  /** Commits whose recursive tree GitHub cuts short (`truncated: true`, half the entries). */
  truncatedTrees?: string[];
  /**
   * The owner's `.github` repository's config as GraphQL reads it: a text, or null when there is
   * no such repository. Unset: the same files as this repository (as the REST routes serve every repository).
   */
  orgConfig?: string | null;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  updated_at: string;
  user: { login: string; type: string };
  labels: Array<{ name: string }>;
  locked?: boolean;
  comments?: number;
  pull_request?: object;
}

/** A personal access token's owner, as `GET /user` answers it (tokens `ghp_fake_…`). */
export const FAKE_USER = { login: "maintainer", type: "User" };

export interface Comment {
  id: number;
  body: string;
  created_at?: string;
  user: { login: string; type: string };
  performed_via_github_app?: { id: number; slug: string } | null;
  issue: number;
  updated_at?: string;
}

interface Review {
  id: number;
  body: string;
  commit_id: string;
  user: { login: string; type: string };
  comments: unknown[];
  pull: number;
}

export interface FakeGitHub {
  url: string;
  /** Base URL the app should use (`${url}/api/v3`). */
  apiUrl: string;
  host: string;
  calls: Call[];
  comments: Comment[];
  reviews: Review[];
  checkRuns: Array<{ id: number; head_sha?: string; name?: string; conclusion?: string }>;
  labels: Array<{ issue: number; labels: string[] }>;
  /** Label history per issue, as `GET /repos/o/r/issues/N/events` serves it. */
  events: Array<{ issue: number; event: string; label: { name: string } }>;
  /** A person takes a label off an issue (its history records it). */
  unlabel(issue: number, name: string): void;
  reactions: Array<{ comment: number; content: string }>;
  /** App manifests posted to the registration page (GitHub App from a manifest). */
  manifests: unknown[];
  /** What the manifest code exchange answers; set it before a registration. */
  registration: AppRegistration;
  faults: Fault[];
  repo: FakeRepo;
  /**
   * GitHub's current copy of what webhooks were about (issues, pull requests and issue comments
   * by number or id), as a retry re-reads it; `observe` records a delivered payload's.
   */
  current: { issues: Map<number, unknown>; pulls: Map<number, unknown>; comments: Map<number, unknown> };
  observe(payload: unknown): void;
  /** Delay added to every response. */
  latencyMs: number;
  /** GraphQL's Blob.text is cut past this many bytes (isTruncated), as GitHub cuts large blobs. */
  blobTextLimit: number;
  writes(): Call[];
  close(): Promise<void>;
}

export interface AppRegistration {
  id: number;
  slug: string;
  pem: string;
  webhookSecret: string;
}

/** The app the fake answers `GET /app` with; the e2e servers run as APP_ID 1. */
export const FAKE_APP = { id: 1, slug: "burn-triage" };
const BOT = { login: `${FAKE_APP.slug}[bot]`, type: "Bot" };
const ACTIONS = { user: { login: "github-actions[bot]", type: "Bot" }, app: { id: 15368, slug: "github-actions" } };

/** Who a write is from: the app's installation tokens write as the app, any other token as GitHub Actions. */
function author(req: IncomingMessage): {
  user: { login: string; type: string };
  app: { id: number; slug: string } | null;
} {
  const auth = req.headers.authorization ?? "";
  if (/^token ghp_fake_/.test(auth)) return { user: FAKE_USER, app: null };
  return /^token ghs_fake_/.test(auth) ? { user: BOT, app: FAKE_APP } : ACTIONS;
}
/** Git's blob id of a text (what a tree entry's `sha` is). */
export function blobId(text: string): string {
  const bytes = Buffer.from(text);
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}
const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };
const SHA_PREFIX = /^[0-9a-f]{40}:/;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startFakeGitHub(repo: FakeRepo = {}, port = 0): Promise<FakeGitHub> {
  let nextId = 1000;
  const fake: FakeGitHub = {
    url: "",
    apiUrl: "",
    host: "",
    calls: [],
    comments: [],
    reviews: [],
    checkRuns: [],
    labels: [],
    events: [],
    unlabel(number, name) {
      const issue = repo.issues?.find((i) => i.number === number);
      if (!issue) return;
      issue.labels = issue.labels.filter((l) => l.name !== name);
      fake.events.push({ issue: number, event: "unlabeled", label: { name } });
      touch(number);
    },
    reactions: [],
    manifests: [],
    registration: { id: 4242, slug: "burn-triage", pem: "", webhookSecret: "" },
    faults: [],
    current: { issues: new Map(), pulls: new Map(), comments: new Map() },
    observe(payload) {
      const p = payload as { issue?: { number: number }; pull_request?: { number: number }; comment?: { id: number } };
      if (p.issue) fake.current.issues.set(p.issue.number, p.issue);
      if (p.pull_request) fake.current.pulls.set(p.pull_request.number, p.pull_request);
      if (p.comment) fake.current.comments.set(p.comment.id, p.comment);
    },
    repo,
    latencyMs: 0,
    blobTextLimit: Number.POSITIVE_INFINITY,
    // A GraphQL query reads (the bot sends no mutation).
    writes: () =>
      fake.calls.filter(
        (c) => c.method !== "GET" && !c.path.includes("/access_tokens") && !c.path.endsWith("/graphql"),
      ),
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };

  const file = (path: string, ref: string | null) => repo.files?.[ref ? `${ref}:${path}` : path] ?? repo.files?.[path];

  type Send = (status: number, data?: unknown, headers?: Record<string, string>) => void;
  interface Ctx {
    method: string;
    body: unknown;
    url: URL;
    req: IncomingMessage;
    send: Send;
  }
  /** PATCH a comment / PUT a review: both replace the body of one item by id. */
  const editBody = (items: Array<{ id: number; body: string }>, id: number, c: Ctx) => {
    const item = items.find((x) => x.id === id);
    if (!item) return c.send(404, { message: "Not Found" });
    item.body = (c.body as { body: string }).body;
    c.send(200, item);
  };
  const R = (tail: string) => new RegExp(`^/repos/[^/]+/[^/]+/${tail}$`);
  const routes: Array<[string | null, RegExp, (m: RegExpExecArray, c: Ctx) => void]> = [
    // Registering a GitHub App from a manifest: the browser posts the form, GitHub redirects back
    // with a code, the app exchanges the code for its credentials.
    [
      "POST",
      /^(?:\/organizations\/[^/]+)?\/settings\/apps\/new$/,
      (_m, c) => {
        const text = typeof c.body === "string" ? c.body : "";
        const manifest = JSON.parse(new URLSearchParams(text).get("manifest") ?? "null") as {
          redirect_url?: string;
        } | null;
        fake.manifests.push(manifest);
        if (!manifest?.redirect_url) return c.send(422, { message: "manifest without redirect_url" });
        c.send(302, "", { location: `${manifest.redirect_url}?code=fake-manifest-code`, "content-type": "text/plain" });
      },
    ],
    [
      "POST",
      /^\/app-manifests\/([^/]+)\/conversions$/,
      (m, c) => {
        if (m[1] !== "fake-manifest-code") return c.send(404, { message: "Not Found" });
        const r = fake.registration;
        c.send(201, {
          id: r.id,
          slug: r.slug,
          client_id: "Iv1.fake",
          client_secret: "fake-client-secret",
          webhook_secret: r.webhookSecret,
          pem: r.pem,
          html_url: `${fake.url}/apps/${r.slug}`,
        });
      },
    ],
    [
      "GET",
      /^\/apps\/[^/]+\/installations\/new$/,
      (_m, c) =>
        c.send(200, "<!doctype html><title>Install</title><h1>Install burn-triage</h1>", {
          "content-type": "text/html",
        }),
    ],
    ["GET", /^\/app$/, (_m, c) => c.send(200, { ...FAKE_APP, name: "burn-triage" })],
    // As GitHub answers an installation token (the workflow's GITHUB_TOKEN among them).
    [
      "GET",
      /^\/user$/,
      (_m, c) =>
        /^token ghp_fake_/.test(c.req.headers.authorization ?? "")
          ? c.send(200, FAKE_USER)
          : c.send(403, { message: "Resource not accessible by integration" }),
    ],
    ["GET", R("issues"), (_m, c) => listIssues(c)],
    [
      "POST",
      /^\/app\/installations\/(\d+)\/access_tokens$/,
      (m, c) => c.send(201, { token: `ghs_fake_${m[1]}`, expires_at: "2099-01-01T00:00:00Z", permissions: {} }),
    ],
    ["GET", R("contents/(.+)"), (m, c) => contents(decodeURIComponent(m[1]!), c)],
    ["GET", R("issues/(\\d+)"), (m, c) => current(fake.current.issues.get(Number(m[1])), c)],
    ["GET", R("pulls/(\\d+)"), (m, c) => current(fake.current.pulls.get(Number(m[1])), c)],
    ["GET", R("issues/comments/(\\d+)"), (m, c) => current(fake.current.comments.get(Number(m[1])), c)],
    [
      null,
      R("issues/(\\d+)/comments"),
      (m, c) => {
        const issue = Number(m[1]);
        if (c.method === "GET") {
          // As GitHub lists them: oldest first, `since` by update time, in pages.
          const since = c.url.searchParams.get("since");
          const listed = fake.comments.filter(
            (x) => x.issue === issue && (!since || Date.parse(x.updated_at ?? "") >= Date.parse(since)),
          );
          return paged(listed, c);
        }
        const by = author(c.req);
        const comment = {
          id: nextId++,
          body: (c.body as { body: string }).body,
          user: by.user,
          performed_via_github_app: by.app,
          issue,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        };
        fake.comments.push(comment);
        touch(issue);
        c.send(201, comment);
      },
    ],
    [
      "PATCH",
      R("issues/comments/(\\d+)"),
      (m, c) => {
        editBody(fake.comments, Number(m[1]), c);
        const edited = fake.comments.find((x) => x.id === Number(m[1]));
        if (edited) touch(edited.issue);
      },
    ],
    [
      "DELETE",
      R("issues/comments/(\\d+)"),
      (m, c) => {
        const i = fake.comments.findIndex((x) => x.id === Number(m[1]));
        if (i < 0) return c.send(404, { message: "Not Found" });
        fake.comments.splice(i, 1);
        c.send(204);
      },
    ],
    [
      "POST",
      R("issues/comments/(\\d+)/reactions"),
      (m, c) => {
        fake.reactions.push({ comment: Number(m[1]), content: (c.body as { content: string }).content });
        c.send(201, { id: nextId++ });
      },
    ],
    [
      "POST",
      R("issues/(\\d+)/labels"),
      (m, c) => {
        const number = Number(m[1]);
        const names = (c.body as { labels: string[] }).labels;
        fake.labels.push({ issue: number, labels: names });
        const issue = repo.issues?.find((i) => i.number === number);
        // An issue known only from a webhook's payload keeps its labels in its events alone.
        const on = (name: string) =>
          fake.events.filter((e) => e.issue === number && e.label.name === name).at(-1)?.event === "labeled";
        for (const name of names) {
          if (!on(name)) fake.events.push({ issue: number, event: "labeled", label: { name } });
          if (issue && !issue.labels.some((l) => l.name === name)) issue.labels.push({ name });
        }
        if (issue) touch(number);
        c.send(200, issue?.labels ?? []);
      },
    ],
    [
      "GET",
      R("issues/(\\d+)/events"),
      (m, c) =>
        c.send(
          200,
          fake.events.filter((e) => e.issue === Number(m[1])),
        ),
    ],
    ["GET", R("pulls/(\\d+)/files"), (m, c) => paged(repo.prFiles?.[Number(m[1])] ?? [], c)],
    [
      null,
      R("pulls/(\\d+)/reviews"),
      (m, c) => {
        const pull = Number(m[1]);
        if (c.method === "GET")
          return c.send(
            200,
            fake.reviews.filter((r) => r.pull === pull),
          );
        const b = c.body as { body: string; commit_id: string; comments?: unknown[] };
        const review = {
          id: nextId++,
          body: b.body,
          commit_id: b.commit_id,
          user: author(c.req).user,
          comments: b.comments ?? [],
          pull,
        };
        fake.reviews.push(review);
        c.send(200, review);
      },
    ],
    ["PUT", R("pulls/\\d+/reviews/(\\d+)"), (m, c) => editBody(fake.reviews, Number(m[1]), c)],
    [
      "POST",
      R("check-runs"),
      (_m, c) => {
        const run = { ...(c.body as object), id: nextId++ };
        fake.checkRuns.push(run);
        c.send(201, run);
      },
    ],
    [
      "PATCH",
      R("check-runs/(\\d+)"),
      (m, c) => {
        const run = fake.checkRuns.find((r) => r.id === Number(m[1]));
        if (!run) return c.send(404, { message: "Not Found" });
        Object.assign(run, c.body);
        c.send(200, run);
      },
    ],
    [
      "GET",
      R("commits/([0-9a-f]+)/check-runs"),
      (m, c) => {
        const name = c.url.searchParams.get("check_name");
        const runs = fake.checkRuns.filter((r) => r.head_sha === m[1] && (!name || r.name === name));
        c.send(200, { total_count: runs.length, check_runs: runs });
      },
    ],
    [
      "GET",
      R("compare/([0-9a-f]+)\\.\\.\\.([0-9a-f]+)"),
      (m, c) => {
        // As GitHub compares `base...head`: the merge base, and the PR's files (300 at most).
        const files = Object.values(repo.prFiles ?? {})[0] ?? [];
        c.send(200, {
          status: "diverged",
          base_commit: { sha: m[1] },
          merge_base_commit: { sha: repo.mergeBase ?? m[1] },
          ahead_by: 1,
          behind_by: 0,
          total_commits: 1,
          commits: [],
          files: files.slice(0, 300),
        });
      },
    ],
    [
      "GET",
      R("git/trees/([0-9a-f]+)"),
      (m, c) => {
        const sha = m[1]!;
        const paths = Object.keys(repo.files ?? {})
          .filter((k) => k.startsWith(`${sha}:`) || !SHA_PREFIX.test(k))
          .map((k) => k.replace(SHA_PREFIX, ""));
        const tree = [...new Set(paths)].map((p) => {
          const text = file(p, sha)!;
          return { path: p, type: "blob", sha: blobId(text), size: Buffer.byteLength(text) };
        });
        const truncated = repo.truncatedTrees?.includes(sha) === true;
        c.send(200, { sha, truncated, tree: truncated ? tree.slice(0, Math.ceil(tree.length / 2)) : tree });
      },
    ],
    [
      "POST",
      /^(?:\/api)?\/graphql$/,
      (_m, c) => {
        const { query, variables = {} } = c.body as { query: string; variables?: Record<string, unknown> };
        if (!isScanQuery(query)) return c.send(200, graphql(c));
        const data = { issues: repo.issues ?? [], comments: fake.comments, events: fake.events };
        const blob = (expression: string, where: "this" | "org") => {
          if (where === "org" && repo.orgConfig === null) return "no-repository" as const;
          const [ref, ...rest] = expression.split(":");
          const text =
            where === "org" && typeof repo.orgConfig === "string" ? repo.orgConfig : file(rest.join(":"), ref!);
          const node = blobNode(text);
          return node && { __typename: "Blob", ...node };
        };
        answerScanQuery(query, variables, { ...data, blob, viewer: author(c.req).user.login })
          .then((r) => c.send(200, r))
          .catch((e) => c.send(500, { message: String(e) }));
      },
    ],
  ];

  /** Blobs by id, as the tree names them (every file at every ref). */
  const blobs = () => new Map(Object.values(repo.files ?? {}).map((t) => [blobId(t), t]));
  const blobNode = (text: string | undefined) => {
    if (text === undefined) return null;
    const byteSize = Buffer.byteLength(text);
    const cut = byteSize > fake.blobTextLimit;
    return { text: cut ? text.slice(0, fake.blobTextLimit) : text, isBinary: false, isTruncated: cut, byteSize };
  };
  /**
   * The queries the bot sends, answered field by field: blobs by id or `SHA:path`, the viewer's
   * latest review of a pull request, a commit's check runs. Anything else is an error, as GitHub
   * answers a field it does not know.
   */
  const graphql = (c: Ctx) => {
    const { query, variables = {} } = c.body as { query: string; variables?: Record<string, unknown> };
    const repository: Record<string, unknown> = {};
    const store = blobs();
    for (const m of query.matchAll(/(\w+): object\(oid: \$(\w+)\) \{ \.\.\. on Blob/g))
      repository[m[1]!] = blobNode(store.get(String(variables[m[2]!])));
    for (const m of query.matchAll(/(\w+): object\(expression: \$(\w+)\)/g)) {
      const [ref, ...rest] = String(variables[m[2]!]).split(":");
      repository[m[1]!] = blobNode(file(rest.join(":"), ref!));
    }
    const pr = /(\w+): pullRequest\(number: \$(\w+)\) \{ viewerLatestReview/.exec(query);
    if (pr) {
      const login = author(c.req).user.login;
      const own = fake.reviews.filter((r) => r.pull === Number(variables[pr[2]!]) && r.user.login === login).at(-1);
      repository[pr[1]!] = {
        viewerLatestReview: own ? { databaseId: own.id, body: own.body, commit: { oid: own.commit_id } } : null,
      };
    }
    const commit = /(\w+): object\(oid: \$(\w+)\) \{ \.\.\. on Commit \{ checkSuites/.exec(query);
    if (commit) {
      const runs = fake.checkRuns.filter((r) => r.head_sha === variables[commit[2]!]);
      const nodes = runs.map((r) => ({ databaseId: r.id, name: r.name }));
      repository[commit[1]!] = { checkSuites: { nodes: [{ checkRuns: { nodes } }] } };
    }
    if (!/repository\(owner: \$owner, name: \$name\)/.test(query))
      return { data: null, errors: [{ message: "fake GitHub answers only the bot's repository queries" }] };
    // The owner's `.github` repository beside it (the config's second place).
    const org = /(\w+): repository\(owner: \$owner, name: \$\w+\) \{ (\w+): object\(expression: \$(\w+)\)/.exec(query);
    if (org && repo.orgConfig === null)
      return {
        data: { repository, [org[1]!]: null },
        errors: [
          { type: "NOT_FOUND", path: [org[1]], message: "Could not resolve to a Repository with the name '.github'." },
        ],
      };
    if (org) {
      const [ref, ...rest] = String(variables[org[3]!]).split(":");
      const text = repo.orgConfig ?? file(rest.join(":"), ref!);
      return { data: { repository, [org[1]!]: { [org[2]!]: blobNode(text) } } };
    }
    return { data: { repository } };
  };

  /** GitHub moves an issue's `updated_at` on every comment written to it. */
  const touch = (number: number) => {
    const issue = repo.issues?.find((i) => i.number === number);
    if (issue)
      issue.updated_at = new Date(Math.max(Date.now(), Date.parse(issue.updated_at) + 1000))
        .toISOString()
        .replace(/\.\d+Z$/, "Z");
  };
  /** state, since, sort=updated (newest first), per_page, page; an ETag per page, 304 on a match. */
  const listIssues = (c: Ctx) => {
    const q = c.url.searchParams;
    const state = q.get("state") ?? "open";
    const since = q.get("since");
    const per = Math.min(100, Number(q.get("per_page") ?? 30));
    const page = Math.max(1, Number(q.get("page") ?? 1));
    const all = (repo.issues ?? [])
      .filter((i) => state === "all" || i.state === state)
      .filter((i) => !since || Date.parse(i.updated_at) >= Date.parse(since))
      .sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at) || b.number - a.number);
    const items = all.slice((page - 1) * per, page * per);
    const etag = `"${createHash("sha1").update(JSON.stringify(items)).digest("hex")}"`;
    if (c.req.headers["if-none-match"] === etag) return c.send(304, undefined, { etag });
    const last = Math.max(1, Math.ceil(all.length / per));
    const link = (p: number, rel: string) => {
      const u = new URL(c.url.toString().replace("http://fake", fake.url));
      u.pathname = `/api/v3${u.pathname.replace(/^\/api\/v3/, "")}`;
      u.searchParams.set("page", String(p));
      return `<${u}>; rel="${rel}"`;
    };
    const links = [
      ...(page < last ? [link(page + 1, "next"), link(last, "last")] : []),
      ...(page > 1 ? [link(1, "first"), link(page - 1, "prev")] : []),
    ];
    c.send(200, items, { etag, ...(links.length > 0 ? { link: links.join(", ") } : {}) });
  };
  /** A list in pages of `per_page` (30 by default, 100 at most), with GitHub's Link header. */
  const paged = (all: unknown[], c: Ctx) => {
    const per = Math.min(100, Number(c.url.searchParams.get("per_page") ?? 30));
    const page = Math.max(1, Number(c.url.searchParams.get("page") ?? 1));
    const last = Math.max(1, Math.ceil(all.length / per));
    const link = (p: number, rel: string) => {
      const u = new URL(`${fake.apiUrl}${c.url.pathname.replace(/^\/api\/v3/, "")}${c.url.search}`);
      u.searchParams.set("page", String(p));
      return `<${u}>; rel="${rel}"`;
    };
    const links = page < last ? [link(page + 1, "next"), link(last, "last")] : [];
    c.send(200, all.slice((page - 1) * per, page * per), links.length > 0 ? { link: links.join(", ") } : {});
  };
  const current = (item: unknown, c: Ctx) =>
    item === undefined ? c.send(404, { message: "Not Found" }) : c.send(200, item);
  const contents = (p: string, c: Ctx) => {
    const text = file(p, c.url.searchParams.get("ref"));
    if (text === undefined) {
      const prefix = `${p}/`;
      const below = Object.keys(repo.files ?? {})
        .map((k) => k.replace(SHA_PREFIX, ""))
        .filter((k) => k.startsWith(prefix) && k.slice(prefix.length).includes("/"));
      const dirs = new Set(below.map((k) => k.slice(prefix.length).split("/")[0]!));
      if (dirs.size > 0)
        return c.send(
          200,
          [...dirs].map((name) => ({ type: "dir", name, path: `${p}/${name}` })),
        );
      return c.send(404, { message: "Not Found" });
    }
    if ((c.req.headers.accept ?? "").includes("raw"))
      return c.send(200, text, { "content-type": "text/plain; charset=utf-8" });
    c.send(200, {
      type: "file",
      encoding: "base64",
      name: p.split("/").at(-1),
      path: p,
      size: Buffer.byteLength(text),
      content: Buffer.from(text).toString("base64"),
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname.replace(/^\/api\/v3/, "");
    const method = req.method ?? "GET";
    const body = await readBody(req);
    const call: Call = { method, path: path + url.search, body, at: Date.now() };
    fake.calls.push(call);
    const send = (status: number, data?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...JSON_TYPE, ...headers });
      const text = data === undefined ? "" : typeof data === "string" ? data : JSON.stringify(data);
      call.bytes = Buffer.byteLength(text);
      res.end(text);
    };
    // Delays never keep the process alive on their own: the listening server does that.
    if (fake.latencyMs > 0) await new Promise((r) => setTimeout(r, fake.latencyMs).unref());
    const fault = fake.faults.find(
      (f) =>
        f.times > 0 &&
        path.includes(f.path) &&
        (!f.method || f.method === method) &&
        (f.bodyIncludes === undefined || JSON.stringify(body ?? null).includes(f.bodyIncludes)),
    );
    const route = () => {
      for (const [verb, pattern, answer] of routes) {
        const m = pattern.exec(path);
        if (m && (verb === null || verb === method))
          return answer(m, { method, body, url, req, send: fault?.after ? () => {} : send }) ?? true;
      }
      return false;
    };
    if (fault) {
      fault.times--;
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs).unref());
      if (fault.after) route();
      if (fault.raw !== undefined) {
        res.writeHead(200, JSON_TYPE);
        return res.end(fault.raw);
      }
      return send(fault.status, fault.body ?? { message: `fault ${fault.status}` }, fault.headers);
    }
    if (route()) return;
    return send(404, { message: `fake GitHub has no route for ${method} ${path}` });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      res.writeHead(500, JSON_TYPE);
      res.end(JSON.stringify({ message: String(e) }));
    });
  });
  // The app runs in this process too: a long CPU-bound review must not find its connection closed.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  const { port: bound } = server.address() as AddressInfo;
  fake.host = `127.0.0.1:${bound}`;
  fake.url = `http://${fake.host}`;
  fake.apiUrl = `${fake.url}/api/v3`;
  return fake;
}
