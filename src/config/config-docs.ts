// The configuration's two derived documents: schema.json for editors (YAML language servers
// read it through the `# yaml-language-server: $schema=` comment) and the README's key table.
// `npm run docs:config` writes both; test/config.test.ts fails when either drifts.
import { schema } from "./config-defaults.js";

interface Node {
  type?: string;
  enum?: readonly string[];
  default?: unknown;
  description?: string;
  appliesTo?: string;
  properties?: Record<string, Node>;
}

/** The schema as editors read it: the README's `appliesTo` annotation left out. */
export function schemaJson(): string {
  return `${JSON.stringify(schema, (k, v) => (k === "appliesTo" ? undefined : v), 2)}\n`;
}

const shown = (v: unknown) => (v === undefined ? "(unset)" : v === "" ? '`""` (none)' : `\`${JSON.stringify(v)}\``);

export function configTable(): string {
  const rows = ["| key | default | applies to | what it does |", "| --- | --- | --- | --- |"];
  for (const [section, s] of Object.entries(schema.properties as Record<string, Node>))
    for (const [key, k] of Object.entries(s.properties ?? {}))
      rows.push(`| \`${section}.${key}\` | ${shown(k.default)} | ${k.appliesTo ?? ""} | ${k.description ?? ""} |`);
  return `${rows.join("\n")}\n`;
}

export const TABLE_START = "<!-- config-table:start (npm run docs:config) -->";
export const TABLE_END = "<!-- config-table:end -->";

/** The README with its table section replaced by the current one. */
export function withTable(readme: string): string {
  const a = readme.indexOf(TABLE_START);
  const b = readme.indexOf(TABLE_END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} section`);
  return `${readme.slice(0, a + TABLE_START.length)}\n${configTable()}${readme.slice(b)}`;
}
