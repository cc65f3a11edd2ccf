// Per-repository settings from `.github/burn-triage.yml`, validated by a JSON schema. A bad
// file never stops the bot: the broken keys are reported and their defaults used.
import { Ajv, type ErrorObject } from "ajv";

export interface Config {
  issues: { enabled: boolean; label: string; fetch_manifests: boolean };
  pull_requests: { enabled: boolean; check_run: boolean; conclusion: "neutral" | "failure" };
  commands: { enabled: boolean; allowed: "everyone" | "collaborators"; cooldown_seconds: number };
  ignore: { users: string[]; labels: string[] };
}

export const CONFIG_FILE = "burn-triage.yml";

export const DEFAULTS: Config = {
  issues: { enabled: true, label: "autodiff-feature", fetch_manifests: true },
  pull_requests: { enabled: true, check_run: true, conclusion: "neutral" },
  commands: { enabled: true, allowed: "everyone", cooldown_seconds: 30 },
  ignore: { users: [], labels: ["wontfix"] },
};

const section = (properties: Record<string, object>) => ({ type: "object", additionalProperties: false, properties });
const strings = { type: "array", items: { type: "string", maxLength: 100 }, maxItems: 200 };

export const schema = section({
  issues: section({ enabled: { type: "boolean" }, label: { type: "string", maxLength: 50 }, fetch_manifests: { type: "boolean" } }),
  pull_requests: section({ enabled: { type: "boolean" }, check_run: { type: "boolean" }, conclusion: { enum: ["neutral", "failure"] } }),
  commands: section({
    enabled: { type: "boolean" },
    allowed: { enum: ["everyone", "collaborators"] },
    cooldown_seconds: { type: "integer", minimum: 0, maximum: 86400 },
  }),
  ignore: section({ users: strings, labels: strings }),
});

const validate = new Ajv({ allErrors: true }).compile(schema);

function describe(e: ErrorObject): string {
  const path = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (e.keyword === "additionalProperties") return `${path ? `${path}.` : ""}${(e.params as { additionalProperty: string }).additionalProperty}: unknown key`;
  return `${path || "(top level)"}: ${e.message}`;
}

function topKey(e: ErrorObject): { section: string; key?: string } {
  const [s, k] = e.instancePath.replace(/^\//, "").split("/");
  if (e.keyword === "additionalProperties" && !s) return { section: (e.params as { additionalProperty: string }).additionalProperty };
  return { section: s ?? "", key: k };
}

export interface LoadedConfig {
  config: Config;
  errors: string[];
}

/** Merges a parsed file over the defaults; every invalid key falls back to its default. */
export function resolveConfig(raw: unknown): LoadedConfig {
  if (raw === null || raw === undefined) return { config: DEFAULTS, errors: [] };
  if (typeof raw !== "object" || Array.isArray(raw)) return { config: DEFAULTS, errors: ["(top level): must be a mapping"] };
  const user = structuredClone(raw) as Record<string, Record<string, unknown>>;
  const errors: string[] = [];
  if (!validate(user)) {
    for (const e of validate.errors ?? []) {
      errors.push(describe(e));
      const { section: s, key } = topKey(e);
      if (key && user[s]) delete user[s][key];
      else if (e.keyword === "additionalProperties" && !key && s) delete user[s]?.[(e.params as { additionalProperty: string }).additionalProperty];
      else if (s) delete user[s];
    }
  }
  const config = structuredClone(DEFAULTS) as unknown as Record<string, Record<string, unknown>>;
  for (const [s, values] of Object.entries(user)) {
    if (config[s] && values && typeof values === "object") Object.assign(config[s], values);
  }
  return { config: config as unknown as Config, errors };
}
