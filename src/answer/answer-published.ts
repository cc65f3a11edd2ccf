// The published answer schema (answer.schema.json at the repository's root): one document with a
// branch per kind of answer, written by `npm run docs:answer` and checked by
// test/answer/schema.test.ts against what this file would write.
import { DETAIL_DEFINITIONS } from "./answer-detail-schema.js";
import { ANSWER_SCHEMA_VERSION, ISSUE_ANSWER_SCHEMA, MANIFEST_ANSWER_SCHEMA } from "./answer-schema.js";
import { REVIEW_ANSWER_SCHEMA } from "./review-answer.js";

/** Every kind of answer, each a branch of the published `oneOf`: an issue's, a manifest's, a PR's. */
export const ANSWER_BRANCHES = [ISSUE_ANSWER_SCHEMA, MANIFEST_ANSWER_SCHEMA, REVIEW_ANSWER_SCHEMA] as const;

const named = new Map<unknown, string>(Object.entries(DETAIL_DEFINITIONS).map(([k, v]) => [v, k]));

/** A shape written once (`definitions`) is referred to by `$ref` wherever it recurs. */
function byRef(value: unknown, top: unknown = undefined): unknown {
  if (value !== top && named.has(value)) return { $ref: `#/definitions/${named.get(value)}` };
  if (Array.isArray(value)) return value.map((v) => byRef(v));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, byRef(v)]));
  return value;
}

export function publishedSchema() {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: `burn-triage answer (schemaVersion ${ANSWER_SCHEMA_VERSION})`,
    description:
      "What `burn-triage explain|why|fix|review --json` print: what was found, the release judged and where it came from, each claim with its evidence, each edit with its verification, and what could not be seen. `kind` tells the branch.",
    oneOf: byRef(ANSWER_BRANCHES),
    definitions: Object.fromEntries(Object.entries(DETAIL_DEFINITIONS).map(([k, v]) => [k, byRef(v, v)])),
  };
}

export function answerSchemaJson(): string {
  return `${JSON.stringify(publishedSchema(), null, 2)}\n`;
}
