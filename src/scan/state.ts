// What a scan remembers between runs, so that a rerun (or a run after an interruption) reads
// and writes only what changed: per issue, the `updated_at` it saw and a digest of the answer
// it found current or wrote. A state written by another build of the bot (other data, other
// words) is not trusted: its answers may differ from today's.
import { createHash } from "node:crypto";
import type { ScanRow } from "./report.js";

export interface ScanState {
  version: 1;
  repo: string;
  /** The bot build the answers come from (see `toolDigest`). */
  tool: string;
  /** The listing's query, as the rows depend on it. */
  query: string;
  /** Every listed issue was handled; the first page's ETag then stands for the whole listing. */
  complete: boolean;
  firstPageEtag?: string;
  issues: Record<string, { updated_at: string; answer: string | null; current: boolean }>;
  rows: ScanRow[];
}

export function digest(s: string): string {
  return createHash("sha256").update(s).digest("hex").slice(0, 16);
}

export function emptyState(repo: string, tool: string, query: string): ScanState {
  return { version: 1, repo, tool, query, complete: false, issues: {}, rows: [] };
}

/** The previous state when it is about the same repository, query and bot build; else a fresh one. */
export function resumeState(raw: unknown, repo: string, tool: string, query: string): ScanState {
  const s = raw as Partial<ScanState> | null;
  const usable =
    s !== null &&
    typeof s === "object" &&
    s.version === 1 &&
    s.repo === repo &&
    s.tool === tool &&
    s.query === query &&
    typeof s.issues === "object" &&
    s.issues !== null &&
    Array.isArray(s.rows);
  return usable ? (s as ScanState) : emptyState(repo, tool, query);
}

/** The issue's comment was found current (or written) for exactly this text and answer. */
export function knownCurrent(state: ScanState, number: number, updatedAt: string, answer: string | null): boolean {
  const seen = state.issues[String(number)];
  return seen?.current === true && seen.updated_at === updatedAt && seen.answer === answer;
}
