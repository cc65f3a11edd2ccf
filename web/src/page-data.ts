// The bundled data as the page holds it: what every answer reads (base.json, fetched once) and
// the index lines of each burn release, fetched the first time an answer reads one
// (release-<version>.json). Both come from the page's own origin, written by scripts/build-web.mjs.
// The core reads synchronously: a line of a release not fetched yet is recorded and refused, and
// the caller fetches what was recorded and answers again (answer.ts).
import type { DataFiles } from "../../src/data/data-access.js";

/** What scripts/build-web.mjs writes to data/base.json. */
export interface BaseData {
  /** The data's label, for the page to say which data it used. */
  label: string;
  /** Whole files, by path in the data folder. */
  files: Record<string, string>;
  /** The build's derived entries (data/.cache/), checked fresh when the page was built. */
  cached: Record<string, unknown>;
  /** Every file's name under each folder the core lists. */
  names: Record<string, string[]>;
  /** Split index files: by path, each line's first byte and the release it belongs to. */
  spans: Record<string, Record<string, string>>;
  /** The releases that have a file of their own, with its size in bytes. */
  releases: Record<string, number>;
}

/** A release's lines: by index file path, by first byte, the line's text. */
export type ReleaseData = Record<string, Record<string, string>>;

/** A release the answer needed before it was fetched. */
export class NotFetched extends Error {
  constructor(readonly release: string) {
    super(`burn ${release}'s index lines are not fetched yet`);
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class PageData implements DataFiles {
  readonly missing = new Set<string>();
  private readonly releases = new Map<string, ReleaseData>();
  private readonly bytes = new Map<string, Uint8Array>();

  constructor(readonly base: BaseData) {}

  has(rel: string): boolean {
    return Object.hasOwn(this.base.files, rel);
  }

  text(rel: string): string | undefined {
    if (Object.hasOwn(this.base.spans, rel)) throw new Error(`the page holds ${rel} by release, not whole`);
    return Object.hasOwn(this.base.files, rel) ? this.base.files[rel] : undefined;
  }

  span(rel: string, start: number, length: number): string {
    const release = this.base.spans[rel]?.[start];
    if (release === undefined) {
      // A whole file: cut as Node cuts a file, by bytes.
      let bytes = this.bytes.get(rel);
      if (!bytes) {
        bytes = encoder.encode(this.text(rel) ?? "");
        this.bytes.set(rel, bytes);
      }
      return decoder.decode(bytes.subarray(start, start + length));
    }
    const lines = this.releases.get(release);
    if (!lines) {
      this.missing.add(release);
      throw new NotFetched(release);
    }
    return lines[rel]?.[start] ?? "";
  }

  fileNames(rel: string): string[] {
    return this.base.names[rel] ?? [];
  }

  cached<T>(name: string): T | undefined {
    return this.base.cached[name] as T | undefined;
  }

  hasRelease(release: string): boolean {
    return this.releases.has(release);
  }

  addRelease(release: string, lines: ReleaseData): void {
    this.releases.set(release, lines);
  }
}

/** A file of the page's data, from the page's own origin (a relative URL). */
export async function fetchJson<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, document.baseURI), { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
