// `.github/burn-triage.yml`, declared once: each key's type, default, what it applies to and
// what it does. The TypeScript type, the defaults, the validator (config.ts), the committed
// schema.json for editors and the README's table are all derived from this object; nothing here
// loads the schema compiler, so the CLI and the fast path pay only for reading it.
import type { FromSchema } from "json-schema-to-ts";

export const CONFIG_FILE = "burn-triage.yml";

const strings = { type: "array", items: { type: "string", maxLength: 100 }, maxItems: 200 } as const;
/** "" for none, else a name GitHub accepts: at most 50 characters, not only white space. */
const label = { type: "string", maxLength: 50, pattern: "^(?:|[\\s\\S]*\\S[\\s\\S]*)$" } as const;

/** A section of the file: a mapping of known keys, each with its default. */
function section<const P extends Record<string, object>>(properties: P) {
  return { type: "object", additionalProperties: false, default: {}, properties } as const;
}

export const schema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "burn-triage configuration (.github/burn-triage.yml)",
  type: "object",
  additionalProperties: false,
  properties: {
    issues: section({
      enabled: { type: "boolean", default: true, appliesTo: "issues", description: "Answer new and edited issues." },
      fetch_manifests: {
        type: "boolean",
        default: true,
        appliesTo: "issues",
        description: "Read the repository's Cargo.toml files when an issue pastes none.",
      },
      label: {
        ...label,
        appliesTo: "issues",
        description: "Older configs' one label: when set, it replaces `labels.feature_off` and `labels.compile_error`.",
      },
    }),
    labels: section({
      feature_off: {
        ...label,
        default: "burn: feature off",
        appliesTo: "issues",
        description: "Added with the comment on a panic from a cargo feature left off; empty for none.",
      },
      compile_error: {
        ...label,
        default: "burn: feature off",
        appliesTo: "issues",
        description: "Added with the comment on a rustc error for a path a cargo feature gates; empty for none.",
      },
      misuse: {
        ...label,
        default: "",
        appliesTo: "issues",
        description: "Added with the comment on a panic from misuse (wrong backend, moved gradients); empty for none.",
      },
    }),
    pull_requests: section({
      enabled: {
        type: "boolean",
        default: true,
        appliesTo: "pull requests",
        description: "Review pull requests that change Cargo.toml feature lists.",
      },
      check_run: {
        type: "boolean",
        default: true,
        appliesTo: "pull requests",
        description:
          "Report the review as check runs too, one per review rule: `burn-triage / autodiff` on every PR that changes a burn manifest (a Cargo.toml that depends on burn or one of burn's crates at the base or the head, under any name and from crates.io, git or a path, or a workspace root whose `[workspace.dependencies]` declares one), `burn-triage / std` when it finds something.",
      },
      conclusion: {
        enum: ["neutral", "failure"],
        default: "neutral",
        appliesTo: "pull requests",
        description: "The check run's conclusion when a change turns off a feature the code needs.",
      },
      review_burn_repo: {
        type: "boolean",
        default: false,
        appliesTo: "pull requests",
        description: "Review burn's own repository too (its manifests are burn's, not a user's).",
      },
    }),
    commands: section({
      enabled: {
        type: "boolean",
        default: true,
        appliesTo: "`/explain-panic`",
        description: "Answer `/explain-panic` in issue and pull request comments.",
      },
      allowed: {
        enum: ["everyone", "collaborators"],
        default: "everyone",
        appliesTo: "`/explain-panic`",
        description: "Who may ask: everyone, or owners, members and collaborators only.",
      },
      cooldown_seconds: {
        type: "integer",
        minimum: 0,
        maximum: 86400,
        default: 30,
        appliesTo: "`/explain-panic`",
        description: "Seconds between two answers on one issue.",
      },
    }),
    ignore: section({
      users: {
        ...strings,
        default: [],
        appliesTo: "issues, pull requests, `/explain-panic`",
        description: "Logins whose issues, pull requests and commands are left alone.",
      },
      labels: {
        ...strings,
        default: ["wontfix"],
        appliesTo: "issues, pull requests",
        description: "Issues and pull requests carrying one of these labels are left alone.",
      },
    }),
  },
} as const;

export type Config = FromSchema<typeof schema>;

/** Every section's keys with their `default`s: what a repository without a config gets. */
function defaultsOf(node: { default?: unknown; properties?: Record<string, unknown> }): unknown {
  if (!node.properties) return structuredClone(node.default);
  const out: Record<string, unknown> = {};
  for (const [k, child] of Object.entries(node.properties)) {
    const v = defaultsOf(child as typeof node);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export const DEFAULTS = defaultsOf(schema) as Config;

export type AnswerKind = "feature-off" | "compile" | "misuse";

/** The label an answer of each kind gets ("" for none), an older config's `issues.label` winning. */
export function labelFor(config: Config, kind: AnswerKind): string {
  const legacy = config.issues.label;
  if (kind === "misuse") return config.labels.misuse;
  if (legacy !== undefined) return legacy;
  return kind === "feature-off" ? config.labels.feature_off : config.labels.compile_error;
}

/** Why the config leaves an issue or a pull request alone (its author or a label), or null. */
export function ignoredBy(
  config: Config,
  author: string | undefined,
  labels: string[],
): "ignored-user" | "ignored-label" | null {
  if (author !== undefined && config.ignore.users.includes(author)) return "ignored-user";
  return labels.some((l) => config.ignore.labels.includes(l)) ? "ignored-label" : null;
}
