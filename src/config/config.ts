// Per-repository settings from `.github/burn-triage.yml`, validated against the one schema
// (config-defaults.ts), whose defaults Ajv fills in. A bad file never stops the bot: the broken
// keys are reported and their defaults used.
import { Ajv, type ErrorObject } from "ajv";
import { type Config, DEFAULTS, schema } from "./config-defaults.js";

export { CONFIG_FILE, type Config, DEFAULTS, ignoredBy, labelFor, schema } from "./config-defaults.js";

// Compiled on the first config read: the CLI and the fast path never pay for it.
let compiled: ReturnType<Ajv["compile"]> | undefined;
const validator = () => {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, useDefaults: true });
  // Where a key applies, for the README's table: an annotation, not a rule.
  ajv.addKeyword({ keyword: "appliesTo", schemaType: "string" });
  compiled = ajv.compile(schema);
  return compiled;
};
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

/** The file with its defaults filled in; every invalid key falls back to its default. */
export function resolveConfig(raw: unknown): LoadedConfig {
  if (raw === null || raw === undefined) return { config: DEFAULTS, errors: [] };
  if (typeof raw !== "object" || Array.isArray(raw))
    return { config: DEFAULTS, errors: ["(top level): must be a mapping"] };
  const user = structuredClone(raw) as Record<string, Record<string, unknown>>;
  const errors: string[] = [];
  const validate = validator();
  if (!validate(user)) {
    for (const e of validate.errors ?? []) {
      errors.push(describe(e));
      // Drop the offending key (or a section that is not a mapping) so its default applies.
      const [section, key] = errorPath(e);
      if (section && key && user[section] && typeof user[section] === "object") delete user[section][key];
      else if (section) delete user[section];
    }
    // What is left is valid; this pass fills in the defaults of what was dropped.
    if (!validate(user)) return { config: DEFAULTS, errors };
  }
  return { config: user as unknown as Config, errors };
}
