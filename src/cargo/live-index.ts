// The crates.io sparse index over HTTP, for burn releases newer than the bundled snapshot.
// Conditional requests (ETag / If-None-Match) keep it cheap; a timeout or any failure for a
// crate falls back to the snapshot's lines for that crate, so the answer is never worse than
// offline.
import { type IndexLine, indexPath, MapRegistry, parseIndexFile, type Registry, snapshot } from "./registry.js";

export interface LiveIndexOptions {
  baseUrl?: string;
  timeoutMs?: number;
  /** Upper bound on crates fetched for one resolution (burn has about 40). */
  maxCrates?: number;
  fetch?: typeof fetch;
  fallback?: Registry;
  /** How long a fetched file is trusted without asking again. */
  freshMs?: number;
}

interface Cached {
  etag: string | null;
  lines: IndexLine[];
  at: number;
}

export interface LiveResult {
  registry: Registry;
  fetched: number;
  notModified: number;
  fellBack: string[];
}

export class LiveIndex {
  private readonly cache = new Map<string, Cached>();
  private readonly opts: Required<Omit<LiveIndexOptions, "fetch">> & { fetch: typeof fetch };

  constructor(opts: LiveIndexOptions = {}) {
    this.opts = {
      baseUrl: opts.baseUrl ?? "https://index.crates.io",
      timeoutMs: opts.timeoutMs ?? 3000,
      maxCrates: opts.maxCrates ?? 60,
      fetch: opts.fetch ?? globalThis.fetch,
      fallback: opts.fallback ?? snapshot("tags"),
      freshMs: opts.freshMs ?? 10 * 60 * 1000,
    };
  }

  private async file(name: string, stats: { fetched: number; notModified: number }): Promise<IndexLine[]> {
    const hit = this.cache.get(name);
    if (hit && Date.now() - hit.at < this.opts.freshMs) return hit.lines;
    const headers: Record<string, string> = { "user-agent": "burn-triage (https://github.com/apps/burn-triage)" };
    if (hit?.etag) headers["if-none-match"] = hit.etag;
    const res = await this.opts.fetch(`${this.opts.baseUrl}/${indexPath(name)}`, { headers, signal: AbortSignal.timeout(this.opts.timeoutMs) });
    if (res.status === 304 && hit) {
      stats.notModified++;
      hit.at = Date.now();
      return hit.lines;
    }
    if (res.status === 404) return [];
    if (!res.ok) throw new Error(`crates.io index answered ${res.status} for ${name}`);
    const lines = parseIndexFile(await res.text());
    stats.fetched++;
    this.cache.set(name, { etag: res.headers.get("etag"), lines, at: Date.now() });
    return lines;
  }

  /** Fetches `roots` and every burn crate they reach, breadth first. */
  async registryFor(roots: string[]): Promise<LiveResult> {
    const files = new Map<string, IndexLine[]>();
    const stats = { fetched: 0, notModified: 0 };
    const fellBack: string[] = [];
    let frontier = [...new Set(roots)];
    while (frontier.length > 0 && files.size < this.opts.maxCrates) {
      const batch = frontier.slice(0, this.opts.maxCrates - files.size);
      const results = await Promise.all(
        batch.map(async (name) => {
          try {
            return [name, await this.file(name, stats)] as const;
          } catch {
            fellBack.push(name);
            return [name, this.opts.fallback.versions(name)] as const;
          }
        }),
      );
      const next = new Set<string>();
      for (const [name, lines] of results) {
        files.set(name, lines);
        for (const l of lines) for (const d of l.deps) {
          const crate = d.package ?? d.name;
          if ((crate === "burn" || crate.startsWith("burn-")) && d.kind !== "dev" && !files.has(crate)) next.add(crate);
        }
      }
      frontier = [...next];
    }
    const label = fellBack.length > 0 ? `crates.io index (snapshot for ${fellBack.join(", ")})` : "crates.io index";
    return { registry: new MapRegistry(label, files), fetched: stats.fetched, notModified: stats.notModified, fellBack };
  }
}
