// What a scan remembers between runs, so that a rerun (or a run after an interruption) reads
// and writes only what changed: per issue, a digest of the text it answered (title, body, what
// the plan reads) and of the answer it found current or wrote; per listing query (`--all`,
// `--since`), the first page's ETag and the rows. Issues are shared by every query, so a
// `--since` run does not forget what a plain scan learned. A state written by another build of
// the bot (other data, other words) is not trusted: its answers may differ from today's. A file
// that does not match the schema is ignored, never a crash: it only saves calls.
import { createHash } from "node:crypto";
import { Ajv } from "ajv";
import type { ScanRow, StaleAnswer } from "./report.js";

export interface IssueSeen {
  updated_at: string;
  /** Digest of what the answer is made from (`inputDigest`). */
  input: string;
  /** Digest of the answer (null: the issue needs none, or its stale answer was retracted). */
  answer: string | null;
  /** The comment (and label) were found or brought to this answer. */
  current: boolean;
}

export interface Listing {
  /** Every listed issue was handled; the first page's ETag then stands for the whole listing. */
  complete: boolean;
  firstPageEtag?: string;
  /** Issues the listing held (pull requests left out). */
  scanned?: number;
  rows: ScanRow[];
  stale: StaleAnswer[];
}

export interface ScanState {
  version: 2;
  repo: string;
  /** The bot build the answers come from (see `toolDigest`). */
  tool: string;
  issues: Record<string, IssueSeen>;
  listings: Record<string, Listing>;
}

export function digest(s: string): string {
  return createHash("sha256").update(s).digest("hex").slice(0, 16);
}

/** What an issue's answer depends on besides the repository: its text and what the plan reads. */
export function inputDigest(issue: {
  title: string;
  body?: string | null;
  labels?: Array<string | { name?: string }>;
  user?: { login?: string } | null;
  locked?: boolean;
}): string {
  const labels = (issue.labels ?? []).map((l) => (typeof l === "string" ? l : (l.name ?? ""))).sort();
  return digest(
    JSON.stringify([issue.title, issue.body ?? "", labels, issue.user?.login ?? "", issue.locked ?? false]),
  );
}

export function emptyState(repo: string, tool: string): ScanState {
  return { version: 2, repo, tool, issues: {}, listings: {} };
}

export function emptyListing(): Listing {
  return { complete: false, rows: [], stale: [] };
}

const STRING = { type: "string" } as const;
const schema = {
  type: "object",
  required: ["version", "repo", "tool", "issues", "listings"],
  properties: {
    version: { const: 2 },
    repo: STRING,
    tool: STRING,
    issues: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["updated_at", "input", "answer", "current"],
        properties: {
          updated_at: STRING,
          input: STRING,
          answer: { type: ["string", "null"] },
          current: { type: "boolean" },
        },
      },
    },
    listings: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["complete", "rows", "stale"],
        properties: {
          complete: { type: "boolean" },
          firstPageEtag: STRING,
          scanned: { type: "integer" },
          rows: {
            type: "array",
            items: {
              type: "object",
              required: ["number", "title", "found", "fix", "status"],
              properties: {
                number: { type: "integer" },
                title: STRING,
                found: { type: "object", required: ["kind", "id", "printed"] },
                status: { enum: ["missing", "outdated", "current"] },
              },
            },
          },
          stale: { type: "array", items: { type: "object", required: ["number", "title"] } },
        },
      },
    },
  },
} as const;

let validate: ReturnType<Ajv["compile"]> | undefined;

/**
 * The previous state when it is well-formed and about the same repository and bot build; else a
 * fresh one, with the reason (for a warning) when the file was there but not usable.
 */
export function resumeState(raw: unknown, repo: string, tool: string): { state: ScanState; ignored?: string } {
  if (raw === null || raw === undefined) return { state: emptyState(repo, tool) };
  validate ??= new Ajv({ allErrors: false }).compile(schema);
  if (!validate(raw)) {
    const e = validate.errors?.[0];
    return {
      state: emptyState(repo, tool),
      ignored: `it does not match the schema (${e?.instancePath || "/"} ${e?.message})`,
    };
  }
  const s = raw as ScanState;
  if (s.repo !== repo || s.tool !== tool) return { state: emptyState(repo, tool) };
  return { state: s };
}

/** The issue's comment was found current (or written) for exactly this input and answer. */
export function knownCurrent(state: ScanState, number: number, input: string, answer: string | null): boolean {
  const seen = state.issues[String(number)];
  return seen?.current === true && seen.input === input && seen.answer === answer;
}
