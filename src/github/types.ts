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
