// The command line's logs (retries, throttling, a burn source that could not be read) are read by
// a person at a terminal: each is one line on stderr, a level word and the message, with its
// fields after it. pino's JSON lines only when asked for: LOG_FORMAT=json, or --json output whose
// stderr is not a terminal (a pipeline that reads JSON).
import { pino } from "pino";

export interface CliLogOptions {
  env: NodeJS.ProcessEnv;
  /** The command was asked for JSON output (--json). */
  json: boolean;
  /** stderr is a terminal. */
  tty: boolean;
  write: (s: string) => void;
}

export function logsJson(o: Omit<CliLogOptions, "write">): boolean {
  return o.env.LOG_FORMAT === "json" || (o.json && !o.tty);
}

export function cliLogger(o: CliLogOptions): pino.Logger {
  const level = o.env.LOG_LEVEL ?? "warn";
  if (logsJson(o)) return pino({ level }, { write: o.write });
  // No pid, host or time: a person reads these as they happen.
  return pino({ level, base: undefined, timestamp: false }, { write: (line: string) => o.write(humanLine(line)) });
}

/** One of pino's JSON lines as `burn-triage: warn: message (field=value …)`. */
export function humanLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, msg, ...fields } = record;
  const word = pino.levels.labels[Number(level)] ?? "log";
  const shown = Object.entries(fields).map(([k, v]) => `${k}=${fieldText(v)}`);
  return `burn-triage: ${word}: ${String(msg ?? "")}${shown.length > 0 ? ` (${shown.join(", ")})` : ""}\n`;
}

/** A field in words: an error by its message, a string as it is, anything else compactly. */
function fieldText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v && typeof v === "object" && typeof (v as { message?: unknown }).message === "string")
    return (v as { message: string }).message.split("\n")[0] ?? "";
  return JSON.stringify(v) ?? String(v);
}
