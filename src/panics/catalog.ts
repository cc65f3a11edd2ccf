import { readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { dataDir } from "../data-dir.js";

export type Cause = "feature-off" | "misuse";

export interface Site {
  ref: string;
  commit: string;
  /** Workspace version at that ref; null for a commit known only from a seed report. */
  version: string | null;
  file: string;
  line: number;
  macro: string;
  printed: string;
  cfg: string | null;
  item: string;
  in_macro_rules: boolean;
}

export interface Entry {
  id: string;
  message: string;
  match?: "prefix";
  crate: string;
  cause: Cause;
  title: string;
  explanation: string;
  fixes: string[];
  sites: Site[];
}

export interface Ref {
  ref: string;
  commit: string;
  version: string;
  date: string;
}

export interface Catalog {
  repository: string;
  refs: Ref[];
  entries: Entry[];
}

let cached: Catalog | undefined;

export function loadCatalog(): Catalog {
  cached ??= load(readFileSync(join(dataDir, "catalog.yml"), "utf8")) as Catalog;
  return cached;
}
