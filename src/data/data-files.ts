// The one door through which the core reads the bundled data. On Node it is the data folder
// beside the code (node-data-files.ts); a host without a file system installs its own files with
// `useDataFiles` before the first read (the web page: files fetched from its own origin, whose
// build replaces node-data-files.ts so that no Node module reaches the browser).
import type { DataFiles } from "./data-access.js";
import { nodeDataFiles } from "./node-data-files.js";

let provider: (dir?: string) => DataFiles = nodeDataFiles;

/** The data folder's files: the bundled one, or `dir` (a copy, in tests and data:refresh). */
export const dataFiles = (dir?: string): DataFiles => provider(dir);

/** Installs another source of the data's files; the core's loaders keep what they already read. */
export function useDataFiles(files: (dir?: string) => DataFiles): void {
  provider = files;
}
