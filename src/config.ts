// Per-repository settings from `.github/burn-triage.yml`, validated by a JSON schema. A bad
// file never stops the bot: the broken keys are reported and their defaults used.
import { Ajv, type ErrorObject } from "ajv";
import { type Config, DEFAULTS } from "./config-defaults.js";

export { CONFIG_FILE, type Config, DEFAULTS } from "./config-defaults.js";

const section = (properties: Record<string, object>) => ({ type: "object", additionalProperties: false, properties });
const strings = { type: "array", items: { type: "string", maxLength: 100 }, maxItems: 200 };

export const schema = section({
  issues: section({ enabled: { type: "boolean" }, label: { type: "string", maxLength: 50 }, fetch_manifests: { type: "boolean" } }),
  pull_requests: section({ enabled: { type: "boolean" }, check_run: { type: "boolean" }, conclusion: { enum: ["neutral", "failure"] }, review_burn_repo: { type: "boolean" } }),
  commands: section({
    enabled: { type: "boolean" },
    allowed: { enum: ["everyone", "collaborators"] },
    cooldown_seconds: { type: "integer", minimum: 0, maximum: 86400 },
  }),
  ignore: section({ users: strings, labels: strings }),
});

// Compiled on the first config read: the CLI and the fast path never pay for it.
let compiled: ReturnType<Ajv["compile"]> | undefined;
const validator = () => (compiled ??= new Ajv({ allErrors: true }).compile(schema));

/** Where an error points: `[section]` or `[section, key]`, naming the offending key itself. */
function errorPath(e: ErrorObject): string[] {
  const path = e.instancePath.split("/").filter(Boolean);
  if (e.keyword === "additionalProperties") path.push((e.params as { additionalProperty: string }).additionalProperty);
  return path;
}

function describe(e: ErrorObject): string {
  const path = errorPath(e).join(".");
  return e.keyword === "additionalProperties" ? `${path}: unknown key` : `${path || "(top level)"}: ${e.message}`;
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
  const validate = validator();
  if (!validate(user)) {
    for (const e of validate.errors ?? []) {
      errors.push(describe(e));
      // Drop the offending key (or a section that is not a mapping) so its default applies.
      const [section, key] = errorPath(e);
      if (section && key && user[section]) delete user[section][key];
      else if (section) delete user[section];
    }
  }
  const config = structuredClone(DEFAULTS) as unknown as Record<string, Record<string, unknown>>;
  for (const [s, values] of Object.entries(user)) {
    if (config[s] && values && typeof values === "object") Object.assign(config[s], values);
  }
  return { config: config as unknown as Config, errors };
}
