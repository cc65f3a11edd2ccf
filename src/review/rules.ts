// The PR review rules (data/review-rules.yml): which burn feature each watches, what in a crate's
// sources shows the crate needs it, and the words the review uses. Loaded and checked on the first
// pull request, so a broken entry fails the tests and the first review loudly, never silently.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import type { FromSchema } from "json-schema-to-ts";
import { type FeatureTarget, parseTarget } from "../cargo/resolve/resolve.js";
import { dataDir } from "../data/data-dir.js";
import { jsYaml } from "../util/lazy-modules.js";

const ruleSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "target", "check", "evidence", "words"],
  properties: {
    id: { type: "string", pattern: "^[a-z][a-z0-9-]*$" },
    target: { type: "string", pattern: "^[a-z0-9_-]+/[A-Za-z0-9_+-]+$" },
    check: { enum: ["always", "when-found"] },
    evidence: {
      type: "object",
      additionalProperties: false,
      properties: {
        signs: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["pattern"],
            properties: { pattern: { type: "string", minLength: 1 }, what: { type: "string", minLength: 1 } },
          },
        },
        gated_paths: { type: "boolean" },
      },
    },
    words: {
      type: "object",
      additionalProperties: false,
      required: ["code", "needs", "assumed", "looked_for"],
      properties: {
        code: { type: "string", minLength: 1 },
        needs: { type: "string", minLength: 1 },
        assumed: { type: "string", minLength: 1 },
        looked_for: { type: "string", minLength: 1 },
      },
    },
  },
} as const;

const rulesSchema = { type: "array", minItems: 1, items: ruleSchema } as const;

type RuleEntry = FromSchema<typeof ruleSchema>;

export interface Sign {
  re: RegExp;
  /** The construct as written in Rust; the matched text when absent. */
  what?: string;
}

export interface ReviewRule {
  id: string;
  target: FeatureTarget;
  check: "always" | "when-found";
  evidence: { signs: Sign[]; gatedPaths: boolean };
  words: RuleEntry["words"];
}

/** The rules of a YAML text, checked: a schema error or a bad regex names the entry. */
export function parseRules(yaml: string): ReviewRule[] {
  const raw = jsYaml().load(yaml);
  const validate = new Ajv({ allErrors: true }).compile(rulesSchema);
  if (!validate(raw))
    throw new Error(
      `review rules: ${(validate.errors ?? []).map((e) => `${e.instancePath || "(top)"} ${e.message}`).join("; ")}`,
    );
  const entries = raw as RuleEntry[];
  const ids = new Set<string>();
  return entries.map((e) => {
    if (ids.has(e.id)) throw new Error(`review rules: id ${e.id} is used twice`);
    ids.add(e.id);
    const target = parseTarget(e.target);
    if (!target) throw new Error(`review rules: ${e.id}: target ${e.target} is not CRATE/FEATURE`);
    const signs = (e.evidence.signs ?? []).map((s) => ({
      re: new RegExp(s.pattern),
      ...(s.what ? { what: s.what } : {}),
    }));
    if (signs.length === 0 && !e.evidence.gated_paths)
      throw new Error(`review rules: ${e.id}: evidence needs signs or gated_paths`);
    return {
      id: e.id,
      target,
      check: e.check,
      evidence: { signs, gatedPaths: e.evidence.gated_paths === true },
      words: e.words,
    };
  });
}

let rules: ReviewRule[] | undefined;

/** The bundled rules, in the file's order (the review says them in it). */
export function reviewRules(): ReviewRule[] {
  rules ??= parseRules(readFileSync(join(dataDir, "review-rules.yml"), "utf8"));
  return rules;
}

export function ruleById(id: string, rules: readonly ReviewRule[] = reviewRules()): ReviewRule | undefined {
  return rules.find((r) => r.id === id);
}
