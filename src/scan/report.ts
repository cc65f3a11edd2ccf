// What `burn-triage scan` found on a repository's backlog, as data (its JSON form as is);
// render/scan.ts words it as Markdown, the CLI as a terminal table, from the same rows.
import type { IssueAnswer } from "../answer/answer-schema.js";

/**
 * Where the bot's comment stands: `missing` (none yet), `outdated` (there, but the answer now
 * differs), `current` (the answer it would post). After `--apply`, what was written.
 */
export type CommentStatus = "missing" | "outdated" | "current";
export type Applied = "created" | "updated" | "unchanged" | "stale";

/** An issue the bot answered that no longer shows what was answered: its advice is retracted. */
export interface StaleAnswer {
  number: number;
  title: string;
  /** Set by `--apply` once the comment says the advice no longer applies. */
  retracted?: boolean;
}

export interface ScanRow {
  number: number;
  title: string;
  /** What the comment answers: the catalog entry or rustc error, and the printed message. */
  found: { kind: IssueAnswer["findings"][number]["kind"]; id: string; printed: string };
  /**
   * The verified edit (`burn: add autodiff`), null when the comment gives none (or a choice of
   * backends); `rename` and `drop` when it gets cargo past its refusal (present only then).
   */
  fix: { dependency: string; add: string[]; rename?: Array<{ from: string; to: string }>; drop?: string[] } | null;
  status: CommentStatus;
  /** The label the answer wants and the issue is owed (never added, never removed by a person). */
  labelOwed?: string;
  applied?: Applied;
}

export interface ScanReport {
  repo: string;
  /** Issues read (pull requests excluded). */
  scanned: number;
  rows: ScanRow[];
  stale: StaleAnswer[];
  /** Writes made by `--apply`: comments created, updated or retracted, labels added, duplicates removed. */
  writes: number;
  /** The listing answered 304: nothing changed since the scan the rows come from. */
  unchanged: boolean;
}

/** The one edit the comment gives (a choice of backends is not one), as the report lists it. */
function fixOf(answer: IssueAnswer): ScanRow["fix"] {
  const e = answer.edits.find((x) => x.forFeature === null);
  if (!e) return null;
  const of = (op: string) => e.changes.filter((c) => c.op === op);
  const rename = of("rename").map((c) => ({ from: c.feature, to: c.to ?? "" }));
  const drop = of("drop").map((c) => c.feature);
  return {
    dependency: e.dependency,
    add: [...of("add"), ...of("declare")].map((c) => c.feature),
    ...(rename.length > 0 ? { rename } : {}),
    ...(drop.length > 0 ? { drop } : {}),
  };
}

export function rowOf(number: number, title: string, answer: IssueAnswer, status: CommentStatus): ScanRow | null {
  const first = answer.findings[0];
  if (!first) return null;
  return {
    number,
    title,
    found: { kind: first.kind, id: first.id, printed: first.printed },
    fix: fixOf(answer),
    status,
  };
}
