import type { ProbotOctokit } from "probot";

export type Octokit = InstanceType<typeof ProbotOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/**
 * A list page as an array. A truncated or non-JSON body reaches Octokit's caller as a string;
 * that is a failed read (retried later), never an empty list that would make the bot comment twice.
 */
export function pageItems<T>(data: unknown, what: string): T[] {
  if (Array.isArray(data)) return data as T[];
  throw Object.assign(new Error(`malformed ${what} listing from GitHub`), { status: 502 });
}
