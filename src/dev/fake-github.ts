// A small in-memory GitHub REST API on loopback, for the offline demo, the end-to-end tests and
// the benchmark. It records every call, serves files per ref, keeps comments, reviews, labels
// and check runs, and can inject faults (status codes, retry-after, latency) per route.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Call {
  method: string;
  path: string;
  body?: unknown;
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
}

interface Comment {
  id: number;
  body: string;
  user: { login: string; type: string };
  issue: number;
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
  checkRuns: unknown[];
  labels: Array<{ issue: number; labels: string[] }>;
  reactions: Array<{ comment: number; content: string }>;
  faults: Fault[];
  repo: FakeRepo;
  /** Delay added to every response. */
  latencyMs: number;
  writes(): Call[];
  close(): Promise<void>;
}

const BOT = { login: "burn-triage[bot]", type: "Bot" };
const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

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
    reactions: [],
    faults: [],
    repo,
    latencyMs: 0,
    writes: () => fake.calls.filter((c) => c.method !== "GET" && !c.path.includes("/access_tokens")),
    close: () => new Promise((r) => server.close(() => r())),
  };

  const file = (path: string, ref: string | null) => repo.files?.[ref ? `${ref}:${path}` : path] ?? repo.files?.[path];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname.replace(/^\/api\/v3/, "");
    const method = req.method ?? "GET";
    const body = await readBody(req);
    fake.calls.push({ method, path: path + url.search, body });
    const send = (status: number, data?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...JSON_TYPE, ...headers });
      res.end(data === undefined ? "" : typeof data === "string" ? data : JSON.stringify(data));
    };
    if (fake.latencyMs > 0) await new Promise((r) => setTimeout(r, fake.latencyMs));
    const fault = fake.faults.find((f) => f.times > 0 && path.includes(f.path) && (!f.method || f.method === method));
    if (fault) {
      fault.times--;
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      return send(fault.status, fault.body ?? { message: `fault ${fault.status}` }, fault.headers);
    }
    let m: RegExpExecArray | null;
    if ((m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path)) && method === "POST") {
      return send(201, { token: `ghs_fake_${m[1]}`, expires_at: "2099-01-01T00:00:00Z", permissions: {} });
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/contents\/(.+)$/.exec(path)) && method === "GET") {
      const p = decodeURIComponent(m[1]!);
      const ref = url.searchParams.get("ref");
      const text = file(p, ref);
      if (text === undefined) {
        const prefix = `${p}/`;
        const dirs = new Set(
          Object.keys(repo.files ?? {})
            .map((k) => k.replace(/^[0-9a-f]{40}:/, ""))
            .filter((k) => k.startsWith(prefix))
            .map((k) => k.slice(prefix.length).split("/")[0]!)
            .filter((name) => Object.keys(repo.files ?? {}).some((k) => k.replace(/^[0-9a-f]{40}:/, "").startsWith(`${prefix}${name}/`))),
        );
        if (dirs.size > 0) return send(200, [...dirs].map((name) => ({ type: "dir", name, path: `${p}/${name}` })));
        return send(404, { message: "Not Found" });
      }
      if ((req.headers.accept ?? "").includes("raw")) return send(200, text, { "content-type": "text/plain; charset=utf-8" });
      return send(200, { type: "file", encoding: "base64", name: p.split("/").at(-1), path: p, size: Buffer.byteLength(text), content: Buffer.from(text).toString("base64") });
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path))) {
      const issue = Number(m[1]);
      if (method === "GET") return send(200, fake.comments.filter((c) => c.issue === issue));
      const c = { id: nextId++, body: (body as { body: string }).body, user: BOT, issue };
      fake.comments.push(c);
      return send(201, c);
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path)) && method === "PATCH") {
      const c = fake.comments.find((x) => x.id === Number(m![1]));
      if (!c) return send(404, { message: "Not Found" });
      c.body = (body as { body: string }).body;
      return send(200, c);
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)\/reactions$/.exec(path))) {
      fake.reactions.push({ comment: Number(m[1]), content: (body as { content: string }).content });
      return send(201, { id: nextId++ });
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/labels$/.exec(path))) {
      fake.labels.push({ issue: Number(m[1]), labels: (body as { labels: string[] }).labels });
      return send(200, []);
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/files$/.exec(path))) {
      return send(200, repo.prFiles?.[Number(m[1])] ?? []);
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/reviews$/.exec(path))) {
      const pull = Number(m[1]);
      if (method === "GET") return send(200, fake.reviews.filter((r) => r.pull === pull));
      const b = body as { body: string; commit_id: string; comments?: unknown[] };
      const r = { id: nextId++, body: b.body, commit_id: b.commit_id, user: BOT, comments: b.comments ?? [], pull };
      fake.reviews.push(r);
      return send(200, r);
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews\/(\d+)$/.exec(path)) && method === "PUT") {
      const r = fake.reviews.find((x) => x.id === Number(m![1]));
      if (!r) return send(404, { message: "Not Found" });
      r.body = (body as { body: string }).body;
      return send(200, r);
    }
    if (/^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(path) && method === "POST") {
      fake.checkRuns.push(body);
      return send(201, { id: nextId++ });
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/git\/trees\/([0-9a-f]+)$/.exec(path))) {
      const sha = m[1]!;
      const paths = Object.keys(repo.files ?? {})
        .filter((k) => k.startsWith(`${sha}:`) || !/^[0-9a-f]{40}:/.test(k))
        .map((k) => k.replace(/^[0-9a-f]{40}:/, ""));
      return send(200, { sha, truncated: false, tree: [...new Set(paths)].map((p) => ({ path: p, type: "blob" })) });
    }
    return send(404, { message: `fake GitHub has no route for ${method} ${path}` });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      res.writeHead(500, JSON_TYPE);
      res.end(JSON.stringify({ message: String(e) }));
    });
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  const { port: bound } = server.address() as AddressInfo;
  fake.host = `127.0.0.1:${bound}`;
  fake.url = `http://${fake.host}`;
  fake.apiUrl = `${fake.url}/api/v3`;
  return fake;
}
