// The crates.io sparse index over HTTP, for burn releases newer than the bundled snapshot.
// Conditional requests (ETag / If-None-Match) keep it cheap; a timeout or any failure for a
// crate falls back to the snapshot's lines for that crate, so the answer is never worse than
// offline.
//
// The index is untrusted input: anyone can publish a `burn-…` crate and name it in an issue, and a
// mirror can be slow or broken. So names are checked against cargo's rules before a URL is built,
// redirects are not followed, bodies are read with a byte cap, lines must have cargo's shape
// (registry.ts), and one event spends at most `eventBudgetMs` on the index in all.
import { LRUCache } from "lru-cache";
import { heldBytes, type IndexLine, IndexShapeError, indexPath, parseIndexFile, validCrateName } from "./index-file.js";
import { burnDependencies, MapRegistry, type Registry, recentRelease, snapshot } from "./registry.js";

export interface LiveIndexOptions {
  baseUrl?: string;
  timeoutMs?: number;
  /** Upper bound on crates fetched for one resolution (burn has about 40). */
  maxCrates?: number;
  fetch?: typeof fetch;
  fallback?: Registry;
  /** How long a fetched file is trusted without asking again. */
  freshMs?: number;
  /** After a failure (timeout, network error, 5xx), how long the index is not asked at all. */
  backoffMs?: number;
  /** An answer slower than this counts as a failure for the back-off (a dripping mirror). */
  slowMs?: number;
  /** All index reads of one event together; crates not read by then fall back. */
  eventBudgetMs?: number;
  /** Largest index file accepted (burn-core's is 134 KB). */
  maxBytes?: number;
  /** What the files kept between events may hold in memory, by heldBytes (CACHE_HELD_BYTES). */
  maxHeldBytes?: number;
}

/** Reads a body up to `max` bytes; a larger one is cancelled, not buffered. */
async function cappedText(res: Response, max: number): Promise<string> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new IndexShapeError(`index file larger than ${max} bytes`);
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new IndexShapeError(`index file larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

interface Cached {
  etag: string | null;
  lines: IndexLine[];
  at: number;
  /** What the lines hold in memory (heldBytes), counted against the cache's cap. */
  held: number;
}

/** The URL without `user:password@`, and those credentials as a Basic authorization header. */
export function withoutCredentials(raw: string): { url: string; authorization: string | null } {
  try {
    const u = new URL(raw);
    if (!u.username && !u.password) return { url: raw, authorization: null };
    const pair = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
    u.username = "";
    u.password = "";
    return { url: u.toString(), authorization: `Basic ${Buffer.from(pair).toString("base64")}` };
  } catch {
    return { url: raw, authorization: null };
  }
}

export interface LiveResult {
  registry: Registry;
  /** Files downloaded (200), revalidated (304), served from memory, and the bytes downloaded. */
  fetched: number;
  notModified: number;
  cached: number;
  bytes: number;
  fellBack: string[];
  /** Why each fallen-back crate fell back, for the log. */
  reasons: Record<string, string>;
}

interface Stats {
  fetched: number;
  notModified: number;
  cached: number;
  bytes: number;
}

const CONCURRENCY = 8;

/** Runs `work` over `items`, at most `limit` at a time, results in input order. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return out;
}

/**
 * Index files kept between events: by count, and by what their parsed lines hold in memory
 * (heldBytes), not by the bytes downloaded: parsed, burn-core's 198 KB file holds 330 KB, and a
 * cap of 64 MiB of files let 1,375 distinct `burn-*` crates grow RSS by 137 MiB. burn reaches
 * about 40 files, 3 MB downloaded, about 8 MB held.
 */
const CACHE_FILES = 256;
export const CACHE_HELD_BYTES = 32 * 1024 * 1024;

export class LiveIndex {
  private readonly cache: LRUCache<string, Cached>;
  /** `https://user:password@mirror`: the credentials go in a header, never in a URL or a log. */
  private readonly authorization: string | null;
  private readonly opts: Required<Omit<LiveIndexOptions, "fetch" | "maxHeldBytes">> & { fetch: typeof fetch };
  /** An index that just failed is not asked again before this time: events then cost nothing. */
  private downUntil = 0;

  constructor(opts: LiveIndexOptions = {}) {
    const { url, authorization } = withoutCredentials(opts.baseUrl ?? "https://index.crates.io");
    this.authorization = authorization;
    this.cache = new LRUCache<string, Cached>({
      max: CACHE_FILES,
      maxSize: opts.maxHeldBytes ?? CACHE_HELD_BYTES,
      sizeCalculation: (c) => Math.max(1, c.held),
    });
    this.opts = {
      baseUrl: url.replace(/\/+$/, ""),
      timeoutMs: opts.timeoutMs ?? 3000,
      maxCrates: opts.maxCrates ?? 60,
      fetch: opts.fetch ?? globalThis.fetch,
      fallback: opts.fallback ?? snapshot("tags"),
      freshMs: opts.freshMs ?? 10 * 60 * 1000,
      backoffMs: opts.backoffMs ?? 60 * 1000,
      slowMs: opts.slowMs ?? 1500,
      eventBudgetMs: opts.eventBudgetMs ?? 5000,
      maxBytes: opts.maxBytes ?? 4 * 1024 * 1024,
    };
  }

  /** What the cache holds: files, and what their lines hold in memory (heldBytes), against its cap. */
  held(): { files: number; bytes: number } {
    return { files: this.cache.size, bytes: this.cache.calculatedSize };
  }

  private backOff(): void {
    this.downUntil = Date.now() + this.opts.backoffMs;
  }

  private async file(name: string, stats: Stats, budget: AbortSignal): Promise<IndexLine[]> {
    if (!validCrateName(name)) throw new IndexShapeError(`not a crate name cargo accepts`);
    const hit = this.cache.get(name);
    if (hit && Date.now() - hit.at < this.opts.freshMs) {
      stats.cached++;
      return hit.lines;
    }
    // Down: the last good copy, however old, or the caller's fallback.
    if (Date.now() < this.downUntil) {
      if (hit) return hit.lines;
      throw new Error("crates.io index backing off after a failure");
    }
    const headers: Record<string, string> = { "user-agent": "burn-triage (https://github.com/apps/burn-triage)" };
    if (hit?.etag) headers["if-none-match"] = hit.etag;
    if (this.authorization) headers.authorization = this.authorization;
    const started = Date.now();
    const signal = AbortSignal.any([AbortSignal.timeout(this.opts.timeoutMs), budget]);
    let res: Response;
    let body: string;
    try {
      // A redirect is an answer from somewhere else: refused, not followed.
      res = await this.opts.fetch(`${this.opts.baseUrl}/${indexPath(name)}`, { headers, signal, redirect: "manual" });
      if (res.status === 304 && hit) {
        stats.notModified++;
        hit.at = Date.now();
        return hit.lines;
      }
      if (res.status === 404) return [];
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        if (res.status >= 500 || res.status === 429) this.backOff();
        throw new Error(`index answered ${res.status}`);
      }
      // The timeout covers the body too: a mirror that drips bytes is a mirror that failed.
      body = await cappedText(res, this.opts.maxBytes);
    } catch (e) {
      if (!(e instanceof IndexShapeError) && !/^index answered/.test((e as Error).message)) this.backOff();
      throw e;
    } finally {
      if (Date.now() - started > this.opts.slowMs) this.backOff();
    }
    stats.bytes += Buffer.byteLength(body);
    const lines = parseIndexFile(body, name);
    stats.fetched++;
    this.cache.set(name, { etag: res.headers.get("etag"), lines, at: Date.now(), held: heldBytes(lines) });
    return lines;
  }

  /** Fetches `roots` and every burn crate their releases since 0.16 reach, breadth first. */
  async registryFor(roots: string[]): Promise<LiveResult> {
    const files = new Map<string, IndexLine[]>();
    const stats: Stats = { fetched: 0, notModified: 0, cached: 0, bytes: 0 };
    const fellBack: string[] = [];
    const reasons: Record<string, string> = {};
    const budget = AbortSignal.timeout(this.opts.eventBudgetMs);
    const queued = new Set(roots.filter(validCrateName));
    let frontier = [...queued];
    while (frontier.length > 0 && files.size < this.opts.maxCrates) {
      const batch = frontier.slice(0, this.opts.maxCrates - files.size);
      const results = await pool(batch, CONCURRENCY, async (name) => {
        try {
          return [name, await this.file(name, stats, budget)] as const;
        } catch (e) {
          fellBack.push(name);
          reasons[name] = budget.aborted ? "the event's time for index reads ran out" : (e as Error).message;
          return [name, this.opts.fallback.versions(name)] as const;
        }
      });
      const next: string[] = [];
      for (const [name, lines] of results) {
        files.set(name, lines);
        for (const crate of burnDependencies(lines.filter(recentRelease), queued)) {
          queued.add(crate);
          next.push(crate);
        }
      }
      frontier = next;
    }
    const label =
      fellBack.length === 0
        ? "crates.io's index"
        : fellBack.length === files.size
          ? this.opts.fallback.label
          : `crates.io's index (the bundled data for ${fellBack.length === 1 ? fellBack[0] : `${fellBack.length} crates it did not serve`})`;
    return { registry: new MapRegistry(label, files, new Set(fellBack)), ...stats, fellBack, reasons };
  }
}
