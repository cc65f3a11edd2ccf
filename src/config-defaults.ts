// The configuration's shape and defaults, without the validator: what the CLI and the fast path
// need, at no cost of loading the schema compiler.
export interface Config {
  issues: { enabled: boolean; label: string; fetch_manifests: boolean };
  pull_requests: { enabled: boolean; check_run: boolean; conclusion: "neutral" | "failure"; review_burn_repo: boolean };
  commands: { enabled: boolean; allowed: "everyone" | "collaborators"; cooldown_seconds: number };
  ignore: { users: string[]; labels: string[] };
}

export const CONFIG_FILE = "burn-triage.yml";

export const DEFAULTS: Config = {
  issues: { enabled: true, label: "autodiff-feature", fetch_manifests: true },
  pull_requests: { enabled: true, check_run: true, conclusion: "neutral", review_burn_repo: false },
  commands: { enabled: true, allowed: "everyone", cooldown_seconds: 30 },
  ignore: { users: [], labels: ["wontfix"] },
};
