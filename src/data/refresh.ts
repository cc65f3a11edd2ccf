// `npm run data:refresh`: brings the bundled data up to the releases burn has published since,
// from the sources of truth — crates.io's sparse index for every burn crate's feature graph
// (versions ≥ 0.16.0), and burn's source at each new release tag for the catalog's sites and the
// gated-path map (through the GitHub API, or from a local clone). It writes data/index/tags/,
// data/catalog-refreshed.yml and data/gated-refreshed.json (the import from burn-data never
// touches the latter two) and prints what changed. Nothing it writes is edited by hand.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { jsYaml } from "../util/lazy-modules.js";
import { type IndexLine, indexPath, parseIndexFile } from "../cargo/index/index-file.js";
import { burnDependencies, recentRelease } from "../cargo/index/registry.js";
import { type Entry, loadBaseCatalog, messageLiteral, type Ref, type Site, type SiteFix } from "../panics/catalog.js";
import { scanSource } from "../panics/source-scan.js";
import { compactGated, type GatedAtTag, gatesAt, newestGated } from "./refresh-gated.js";
import { removalsAt } from "./refresh-removals.js";

/** Where burn's files at a tag come from. */
export interface SourceReader {
  /** The commit a tag points to; null when the tag does not exist. */
  commit(tag: string): Promise<string | null>;
  /** The file at that tag; null when it is not there. */
  file(tag: string, path: string): Promise<string | null>;
}

/** A git clone with burn's tags (`git clone https://github.com/tracel-ai/burn`). */
export function gitSource(dir: string): SourceReader {
  const git = (args: string[]) => {
    try {
      return execFileSync("git", ["-C", dir, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 8 * 1024 * 1024 });
    } catch {
      return null;
    }
  };
  return {
    commit: async (tag) => git(["rev-parse", "--verify", "--quiet", `refs/tags/${tag}^{commit}`])?.trim() ?? null,
    file: async (tag, path) => git(["show", `refs/tags/${tag}:${path}`]),
  };
}

/** One directory per tag, each holding the repository's files at that tag (`DIR/v0.22.1/crates/…`). */
export function treeSource(dir: string): SourceReader {
  const base = resolve(dir);
  const inside = (...parts: string[]) => {
    const p = resolve(base, ...parts);
    return p.startsWith(base + sep) ? p : null;
  };
  return {
    commit: async (tag) => {
      const d = inside(tag);
      return d && existsSync(d) ? tag : null;
    },
    file: async (tag, path) => {
      const p = inside(tag, path);
      return p && existsSync(p) ? readFileSync(p, "utf8") : null;
    },
  };
}

/** burn on GitHub (or a GitHub Enterprise / fake API at `apiUrl`), with an optional token. */
export function githubSource(apiUrl: string, token?: string, fetchImpl: typeof fetch = fetch): SourceReader {
  const headers = (accept: string): Record<string, string> => ({ accept, "user-agent": "burn-triage data:refresh", ...(token ? { authorization: `Bearer ${token}` } : {}) });
  const get = async (path: string, accept: string) => {
    const res = await fetchImpl(`${apiUrl.replace(/\/+$/, "")}/repos/tracel-ai/burn/${path}`, { headers: headers(accept), signal: AbortSignal.timeout(30_000) });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`GitHub answered ${res.status} for ${path}`);
    return res;
  };
  return {
    commit: async (tag) => {
      const res = await get(`commits/${encodeURIComponent(tag)}`, "application/vnd.github+json");
      return res ? ((await res.json()) as { sha: string }).sha : null;
    },
    file: async (tag, path) => {
      const res = await get(`contents/${path.split("/").map(encodeURIComponent).join("/")}?ref=${encodeURIComponent(tag)}`, "application/vnd.github.raw");
      return res ? res.text() : null;
    },
  };
}

export interface RefreshOptions {
  indexUrl: string;
  source: SourceReader;
  dataDir: string;
  fetch?: typeof fetch;
}

export interface Report {
  /** Per crate: versions that were not in the bundled index before. */
  added: Record<string, string[]>;
  crates: number;
  /** New release tags, and per tag what was found for each catalog entry. */
  releases: Array<{
    ref: string;
    commit: string | null;
    found: Record<string, number>;
    missing: string[];
    /** The gated-path map at that tag (src/data/refresh-gated.ts). */
    gated?: GatedAtTag;
  }>;
}

/**
 * A GET of an index file, once more after a connection the server closed as it was reused
 * (`fetch failed`, ECONNRESET/EPIPE: a keep-alive socket dropped by the server's idle timer while a
 * round of reads was being parsed). The GET is idempotent; any other failure is the caller's.
 */
async function getOnce(f: typeof fetch, url: string): Promise<Response> {
  const init = () => ({ headers: { "user-agent": "burn-triage data:refresh" }, signal: AbortSignal.timeout(30_000) });
  try {
    return await f(url, init());
  } catch (e) {
    const code = (e as { cause?: { code?: string } }).cause?.code;
    if (!(e instanceof TypeError) || !["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"].includes(code ?? "")) throw e;
    return f(url, init());
  }
}

async function indexFile(url: string, name: string, f: typeof fetch): Promise<IndexLine[]> {
  const res = await getOnce(f, `${url.replace(/\/+$/, "")}/${indexPath(name)}`);
  if (res.status === 404) return [];
  if (!res.ok) throw new Error(`the index answered ${res.status} for ${name}`);
  return parseIndexFile(await res.text(), name);
}

/** `dir/rel`, refused unless it stays inside `dir` (names are validated before; this is the last word). */
function inside(dir: string, ...rel: string[]): string {
  const root = resolve(dir);
  const path = resolve(root, ...rel);
  if (!path.startsWith(root + sep)) throw new Error(`refusing to write outside ${dir}: ${rel.join("/")}`);
  return path;
}

/** Every burn crate the releases since 0.16 reach, breadth first from `burn`. */
async function readIndex(url: string, f: typeof fetch): Promise<Map<string, IndexLine[]>> {
  const files = new Map<string, IndexLine[]>();
  let frontier = ["burn"];
  const queued = new Set(frontier);
  while (frontier.length > 0) {
    const lines = await Promise.all(frontier.map((n) => indexFile(url, n, f)));
    const next: string[] = [];
    frontier.forEach((name, i) => {
      const kept = lines[i]!.filter(recentRelease);
      files.set(name, kept);
      for (const c of burnDependencies(kept, queued)) {
        queued.add(c);
        next.push(c);
      }
    });
    frontier = next;
  }
  return files;
}

/** The fix a scanned site implies: its own gate says which feature removes it; nothing else is assumed. */
function fixFromCfg(crate: string, cfg: string | null, previous: Site | undefined): SiteFix | null {
  const m = cfg && /^#\[cfg\(not\(feature = "([^"]+)"\)\)\]$/.exec(cfg);
  if (m) return { crate, features: [m[1]!] };
  return previous?.fix && previous.cfg === cfg ? previous.fix : null;
}

/** The sites of one entry at a new tag, scanned in the files its newest known sites live in. */
async function sitesAt(entry: Entry, ref: Ref, source: SourceReader): Promise<Site[]> {
  const known = entry.sites.filter((s) => s.ref.startsWith("v"));
  const newest = known.at(-1)?.ref;
  const last = known.filter((s) => s.ref === newest);
  const files = [...new Set((last.length > 0 ? last : entry.sites).map((s) => s.file))];
  const literal = messageLiteral(entry);
  const out: Site[] = [];
  for (const file of files) {
    const text = await source.file(ref.ref, file);
    if (text === null) continue;
    for (const s of scanSource(text, literal)) {
      const previous = last.find((p) => p.item === s.item) ?? last[0];
      out.push({
        ref: ref.ref,
        commit: ref.commit,
        version: ref.version,
        file,
        line: s.line,
        macro: s.macro ?? "literal",
        printed: previous?.printed ?? entry.message,
        cfg: s.cfg,
        item: s.item,
        in_macro_rules: false,
        fix: fixFromCfg(entry.crate, s.cfg, previous),
      });
    }
  }
  return out;
}

export async function refresh(opts: RefreshOptions): Promise<Report> {
  const f = opts.fetch ?? fetch;
  const files = await readIndex(opts.indexUrl, f);
  const added: Record<string, string[]> = {};
  for (const [name, lines] of files) {
    const path = inside(opts.dataDir, "index", "tags", indexPath(name));
    const before = existsSync(path) ? new Set(parseIndexFile(readFileSync(path, "utf8"), name).map((l) => l.vers)) : new Set<string>();
    const fresh = lines.filter((l) => !before.has(l.vers)).map((l) => l.vers);
    if (fresh.length > 0) added[name] = fresh;
    if (lines.length === 0) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  }

  const catalog = loadBaseCatalog(opts.dataDir);
  const knownVersions = new Set(catalog.refs.map((r) => r.version));
  const newVersions = (files.get("burn") ?? []).map((l) => l.vers).filter((v) => !knownVersions.has(v));
  const refs: Ref[] = [];
  const sites: Record<string, Site[]> = {};
  const wanted = newestGated(opts.dataDir);
  const releases: Report["releases"] = [];
  for (const version of newVersions) {
    const tag = `v${version}`;
    const commit = await opts.source.commit(tag);
    if (!commit) {
      releases.push({ ref: tag, commit: null, found: {}, missing: [] });
      continue;
    }
    const ref: Ref = { ref: tag, commit, version, date: "" };
    refs.push(ref);
    const found: Record<string, number> = {};
    const missing: string[] = [];
    for (const entry of catalog.entries) {
      const at = await sitesAt(entry, ref, opts.source);
      if (at.length > 0) {
        found[entry.id] = at.length;
        sites[entry.id] = [...(sites[entry.id] ?? []), ...at];
      } else if (entry.sites.some((s) => s.ref.startsWith("v"))) missing.push(entry.id);
    }
    const gated = wanted.paths.length + wanted.methods.length > 0 ? await gatesAt(tag, wanted, opts.source) : undefined;
    releases.push({ ref: tag, commit, found, missing, ...(gated ? { gated } : {}) });
  }
  const removed = removalsAt(files, new Set(newVersions));
  writeFileSync(
    inside(opts.dataDir, "removed-features-refreshed.json"),
    `${JSON.stringify({ generated_by: "npm run data:refresh (src/data/refresh-removals.ts); do not edit", removed }, null, 1)}\n`,
  );
  const out = { generated_by: "npm run data:refresh (src/data/refresh.ts); do not edit", refs, sites };
  writeFileSync(inside(opts.dataDir, "catalog-refreshed.yml"), jsYaml().dump(out, { lineWidth: 120, noRefs: true }));
  const read = releases.flatMap((r) => (r.commit && r.gated ? [{ ref: r.ref, version: r.ref.slice(1), commit: r.commit, at: r.gated }] : []));
  writeFileSync(inside(opts.dataDir, "gated-refreshed.json"), `${JSON.stringify(compactGated(read))}\n`);
  return { added, crates: files.size, releases };
}

export function formatReport(r: Report): string {
  const lines: string[] = [];
  const added = Object.entries(r.added);
  lines.push(`index: ${r.crates} burn crates read; ${added.length === 0 ? "no new versions" : `${added.reduce((n, [, v]) => n + v.length, 0)} new lines in ${added.length} crates`}`);
  for (const [name, versions] of added) lines.push(`  + ${name}: ${versions.join(", ")}`);
  if (r.releases.length === 0) lines.push("catalog: no release newer than the catalog");
  for (const rel of r.releases) {
    if (!rel.commit) {
      lines.push(`catalog: ${rel.ref}: tag not found in the source; its sites are left out`);
      continue;
    }
    const found = Object.entries(rel.found).map(([id, n]) => `${id} ×${n}`);
    lines.push(`catalog: ${rel.ref} (${rel.commit.slice(0, 12)}): ${found.length > 0 ? found.join(", ") : "no site found"}`);
    if (rel.missing.length > 0) lines.push(`  not found at ${rel.ref} (moved or removed; not linked there): ${rel.missing.join(", ")}`);
    const g = rel.gated;
    if (g) {
      lines.push(`gated paths: ${rel.ref}: ${g.gated.length} gated, ${g.methods.length} gated methods, ${g.absent.length} absent, ${g.unknown} not followed to the end (left out), from ${g.files} files`);
      if (g.absent.length > 0) lines.push(`  absent at ${rel.ref}: ${g.absent.slice(0, 12).join(", ")}${g.absent.length > 12 ? ` and ${g.absent.length - 12} more` : ""}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
