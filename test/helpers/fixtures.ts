import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "js-yaml";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export function fixture(path: string): string {
  return readFileSync(join(root, "fixtures", path), "utf8");
}

export function fixtureJson<T>(path: string): T {
  return JSON.parse(fixture(path)) as T;
}

export interface IssueCase {
  finding: string | null;
  version?: string;
  commit?: string;
  source?: string;
  line?: number;
  ref?: string;
  fix?: boolean;
  findings?: number;
  verdict?: string;
  origin?: string;
  platform?: string;
  /** No panic, but a rustc error for a gated burn path: answered by the compile-time pipeline. */
  compile?: boolean;
}

export function issueCases(): Array<[string, IssueCase]> {
  return Object.entries(load(fixture("issues/cases.yml")) as Record<string, IssueCase>);
}

export function issueFiles(): string[] {
  return readdirSync(join(root, "fixtures/issues")).filter((f) => f.endsWith(".md"));
}
