// What the core asks of the bundled data (data/), by path relative to that folder and spelled
// with `/`: the file system answers on Node (node-data-files.ts), the files the web page fetched
// from its own origin answer in a browser (web/src/data-files.ts). Nothing here imports Node.

/** Where the build keeps what it derives from the data (scripts/cache-data.mjs). */
export const CACHE_DIR = ".cache";

export interface DataFiles {
  /** Whether the data has the file. */
  has(rel: string): boolean;
  /** A file's text; undefined when the data has no such file. */
  text(rel: string): string | undefined;
  /** `length` bytes of a file from byte `start`, as UTF-8; fewer where the file is shorter. */
  span(rel: string, start: number, length: number): string;
  /** The names (not paths) of the files under a folder, at any depth; none when it is absent. */
  fileNames(rel: string): string[];
  /** The build's entry `name` in CACHE_DIR if it was derived from `sources` as they are now. */
  cached<T>(name: string, sources: string[]): T | undefined;
}

/** A file the caller cannot go without (the bundled map, the catalog): absent is an error. */
export function mustRead(files: DataFiles, rel: string): string {
  const text = files.text(rel);
  if (text === undefined) throw new Error(`the bundled data has no ${rel}`);
  return text;
}
