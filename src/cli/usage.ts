// The CLI's IO and its usage error, apart from the helpers that load the manifest model:
// `burn-triage --help` needs only these.
export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin: () => string;
}

export class UsageError extends Error {}
