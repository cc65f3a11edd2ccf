// Where each line of a bundled index file sits, written by the build (scripts/cache-data.mjs), so
// that a call reads the lines it resolves and not the files they sit in: a `why` read a megabyte
// of burn's index files, 3 ms of the call, to use one line of each.
import { mustRead } from "../../data/data-access.js";
import { dataFiles } from "../../data/data-files.js";
import { type IndexLine, lazyLine, parseBundledIndexFile } from "./index-file.js";

/** One line: its version, 1 when yanked, its first byte in the file and its length in bytes. */
export type LineSpan = [vers: string, yanked: 0 | 1, start: number, length: number];

/** A file's crate, as its lines spell it, and its lines in file order. */
export interface FileSpans {
  name: string;
  lines: LineSpan[];
}

/** The spans of a bundled index file's lines; null for a file without lines or of mixed crates. */
export function fileSpans(bytes: Buffer): FileSpans | null {
  let name: string | null = null;
  const lines: LineSpan[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    const [line] = parseBundledIndexFile(bytes.toString("utf8", start, end));
    if (line) {
      if (name !== null && line.name !== name) return null;
      name = line.name;
      lines.push([line.vers, line.yanked === true ? 1 : 0, start, end - start]);
    }
    start = end + 1;
  }
  return name === null ? null : { name, lines };
}

/** The file's lines (`path` in the data folder), each read from its span on first use. */
export function spannedLines(path: string, file: FileSpans): IndexLine[] {
  return file.lines.map(([vers, yanked, start, length]) =>
    lazyLine(file.name, vers, yanked === 1, () => lineAt(path, vers, start, length)),
  );
}

function lineAt(path: string, vers: string, start: number, length: number): IndexLine {
  try {
    const line = JSON.parse(dataFiles().span(path, start, length)) as IndexLine;
    if (line.vers === vers) return line;
  } catch {
    // The file changed after the build checked it: read it whole, below.
  }
  const line = parseBundledIndexFile(mustRead(dataFiles(), path)).find((l) => l.vers === vers);
  if (!line) throw new Error(`${path} no longer holds ${vers}: the bundled index changed while it was read`);
  return line;
}
