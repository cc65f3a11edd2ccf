// The words of a scan's report: its summary line, and the Markdown table for a tracking issue.
import type { CommentStatus, ScanReport, ScanRow } from "../scan/report.js";
import { code, text } from "./escape.js";

export function fixText(row: ScanRow): string {
  const f = row.fix;
  if (!f) return "none";
  const parts = [
    ...(f.rename ?? []).map((r) => `rename ${r.from} → ${r.to}`),
    ...(f.drop ?? []).map((d) => `drop ${d}`),
    ...(f.add.length > 0 ? [`add ${f.add.join(", ")}`] : []),
  ];
  return `${f.dependency}: ${parts.join(", ")}`;
}

export function statusText(row: ScanRow): string {
  const status = row.applied && row.applied !== "unchanged" ? `${row.status} → ${row.applied}` : row.status;
  return row.labelOwed ? `${status}, label owed` : status;
}

/** The answers the bot would retract (or did, with `--apply`): the issue shows no panic now. */
export function staleText(r: ScanReport): string {
  if (r.stale.length === 0) return "";
  const done = r.stale.every((s) => s.retracted);
  return `${r.stale.length} earlier answer${r.stale.length === 1 ? "" : "s"} no longer apply (the issue shows no panic now), ${done ? "retracted" : "to retract with --apply"}: ${r.stale.map((s) => `#${s.number}`).join(", ")}.`;
}

export function summaryLine(r: ScanReport): string {
  const count = (s: CommentStatus) => r.rows.filter((x) => x.status === s).length;
  const head = `${r.scanned} issues scanned in ${r.repo}, ${r.rows.length} answerable: ${count("missing")} without the bot's comment, ${count("outdated")} with an outdated one, ${count("current")} current`;
  return `${head}${r.unchanged ? " (nothing changed since the last scan)" : ""}; ${r.writes} write${r.writes === 1 ? "" : "s"} made.`;
}

/** For a tracking issue: a table whose cells cannot break out (user titles are escaped). */
export function markdownReport(r: ScanReport): string {
  // GitHub splits a table row at every unescaped `|`, inside code spans too.
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const stale = staleText(r);
  const lines = [`### burn-triage scan of ${code(r.repo)}`, "", summaryLine(r), "", ...(stale ? [stale, ""] : [])];
  if (r.rows.length === 0) return `${lines.join("\n")}\n`;
  lines.push("| Issue | Title | Found | Fix | Comment |", "| --- | --- | --- | --- | --- |");
  for (const row of r.rows)
    lines.push(
      `| #${row.number} | ${text(row.title.replace(/[\r\n]+/g, " "))} | ${cell(code(row.found.id))} | ${row.fix ? cell(code(fixText(row))) : "none"} | ${statusText(row)} |`,
    );
  return `${lines.join("\n")}\n`;
}
