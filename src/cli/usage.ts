// The CLI's IO and its usage error, apart from the helpers that load the manifest model:
// `burn-triage --help` needs only these.
export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin: () => string;
  /** stderr is a terminal (process.stderr.isTTY when not said): logs are then words, never JSON. */
  stderrIsTTY?: boolean;
}

/** What `isUsageError` recognises: each command's bundle has its own copy of the class (build-cli.mjs). */
const USAGE = "BURN_TRIAGE_USAGE";

export class UsageError extends Error {
  readonly code = USAGE;
}

/**
 * A usage error from any bundle. By its code, not `instanceof`: the entry and the command it loaded
 * are separate bundles, and sharing one class would load a third file on every call (0.8 ms of a
 * profiled `fix`).
 */
export function isUsageError(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === USAGE;
}
