// What `burn-triage scan` found on a repository's backlog, as data, and its Markdown and JSON
// words. The terminal table is the CLI's (cli/scan.ts); every form shows the same rows.
import { code, text } from "../render/escape.js";
import type { FindingSummary } from "../summary.js";

/**
 * Where the bot's comment stands: `missing` (none yet), `outdated` (there, but the answer now
 * differs), `current` (the answer it would post). After `--apply`, what was written.
 */
export type CommentStatus = "missing" | "outdated" | "current";
export type Applied = "created" | "updated" | "unchanged" | "stale";

export interface ScanRow {
  number: number;
  title: string;
  /** What the comment answers: the catalog entry or rustc error, and the printed message. */
  found: { kind: FindingSummary["kind"]; id: string; printed: string };
  /** The verified edit (`burn: add autodiff`), null when the comment gives none. */
  fix: { dependency: string; add: string[] } | null;
  status: CommentStatus;
  applied?: Applied;
}

export interface ScanReport {
  repo: string;
  /** Issues read (pull requests excluded). */
  scanned: number;
  rows: ScanRow[];
  /** Comments created or updated by `--apply`. */
  writes: number;
  /** The listing answered 304: nothing changed since the scan the rows come from. */
  unchanged: boolean;
}

export function rowOf(number: number, title: string, findings: FindingSummary[], status: CommentStatus): ScanRow | null {
  const first = findings[0];
  if (!first) return null;
  return { number, title, found: { kind: first.kind, id: first.id, printed: first.printed }, fix: first.fix && { dependency: first.fix.dependency, add: first.fix.add }, status };
}

export function fixText(row: ScanRow): string {
  return row.fix ? `${row.fix.dependency}: add ${row.fix.add.join(", ")}` : "none";
}

export function statusText(row: ScanRow): string {
  return row.applied && row.applied !== "unchanged" ? `${row.status} → ${row.applied}` : row.status;
}

export function summaryLine(r: ScanReport): string {
  const count = (s: CommentStatus) => r.rows.filter((x) => x.status === s).length;
  const head = `${r.scanned} issues scanned in ${r.repo}, ${r.rows.length} answerable: ${count("missing")} without the bot's comment, ${count("outdated")} with an outdated one, ${count("current")} current`;
  return `${head}${r.unchanged ? " (nothing changed since the last scan)" : ""}; ${r.writes} comment${r.writes === 1 ? "" : "s"} written.`;
}

/** For a tracking issue: a table whose cells cannot break out (user titles are escaped). */
export function markdownReport(r: ScanReport): string {
  // GitHub splits a table row at every unescaped `|`, inside code spans too.
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const lines = [`### burn-triage scan of ${code(r.repo)}`, "", summaryLine(r), ""];
  if (r.rows.length === 0) return `${lines.join("\n")}\n`;
  lines.push("| Issue | Title | Found | Fix | Comment |", "| --- | --- | --- | --- | --- |");
  for (const row of r.rows) lines.push(`| #${row.number} | ${text(row.title.replace(/[\r\n]+/g, " "))} | ${cell(code(row.found.id))} | ${row.fix ? cell(code(fixText(row))) : "none"} | ${statusText(row)} |`);
  return `${lines.join("\n")}\n`;
}
