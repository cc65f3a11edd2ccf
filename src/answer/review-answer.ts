// The answer to one PR review (a pull request, or a pair of manifests on the command line), as a
// plain versioned object: what each rule found on each changed manifest, the release judged, the
// evidence each claim rests on, each edit with its verification, and what could not be judged.
// Every review surface renders only this object (the review body, its line comments, the check
// runs, `review`'s text) and `review --json` prints it, so none can say what another lacks.
// Declared once as a JSON Schema; the type is derived from it, as the config's is.
import type { FromSchema } from "json-schema-to-ts";

const str = { type: "string" } as const;
const strings = { type: "array", items: str } as const;
const line = { type: "integer", minimum: 1 } as const;
const nullableStr = { type: ["string", "null"] } as const;

/** Lines of a manifest (1-based, inclusive) and what replaces them. */
const suggestion = {
  type: "object",
  additionalProperties: false,
  required: ["startLine", "endLine", "lines"],
  properties: { startLine: line, endLine: line, lines: strings },
} as const;

/** An edit of one manifest, verified on the release's feature graph before it is shown. */
const edit = {
  type: "object",
  additionalProperties: false,
  required: [
    "path",
    "dependency",
    "added",
    "declares",
    "renamed",
    "dropped",
    "suggestion",
    "suggestions",
    "diff",
    "verifiedOn",
  ],
  properties: {
    path: { ...str, description: "The manifest the edit changes (a workspace root's, for an inherited entry)." },
    dependency: { ...str, description: "The dependency key the edit changes." },
    added: { ...strings, description: "Features the edit adds." },
    declares: { type: "boolean", description: "The edit declares the dependency, which the manifest did not." },
    renamed: {
      type: "array",
      description: "Features cargo refused, renamed to what replaces them; `others` would replace them as well.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["feature", "to", "others"],
        properties: {
          feature: str,
          to: str,
          others: strings,
          typo: {
            type: "boolean",
            description: "No release has `feature`; `to` is the one name of that release near it.",
          },
          likeForLike: {
            type: "object",
            additionalProperties: false,
            required: ["from", "kept"],
            description:
              "Why `to` before `others`, by the resolver: the crates `feature` brought in at release `from` that `to` still brings in and another does not.",
            properties: { from: str, kept: strings },
          },
        },
      },
    },
    dropped: { ...strings, description: "Features cargo refused that nothing needs in their place." },
    suggestion: {
      ...suggestion,
      description: "The lines the edit replaces (1-based, inclusive) and their replacement.",
    },
    suggestions: {
      type: "array",
      minItems: 1,
      items: suggestion,
      description:
        "The same edit as one suggestion per run of changed lines, in order: what the review comments on, each on the lines it replaces (a feature renamed on two lines is two).",
    },
    diff: {
      ...str,
      description: "The edit as a unified diff (every file's patch, each with its header, when it has `others`).",
    },
    verifiedOn: { ...nullableStr, description: "The burn release whose feature graph the edit was verified on." },
    others: {
      type: "array",
      description:
        "The same edit's changes to other files (a workspace root's entry and a member's own both naming a removed feature): verified only together with this file's, to commit with it.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "suggestions", "diff", "onLines"],
        properties: {
          path: str,
          suggestions: { type: "array", minItems: 1, items: suggestion },
          diff: { ...str, description: "This file's own patch." },
          onLines: { type: "boolean", description: "Its lines are in the PR's diff: suggestions there too." },
        },
      },
    },
  },
} as const;

const use = {
  type: "object",
  additionalProperties: false,
  required: ["path", "line", "what"],
  description: "Where a crate's code needs the rule's feature.",
  properties: { path: str, line, what: str },
} as const;

/** One rule's result on one manifest; a manifest cargo stops at is one entry (rule `cargo`). */
const result = {
  type: "object",
  additionalProperties: false,
  required: ["rule", "path", "kind", "reported"],
  properties: {
    rule: {
      ...str,
      description: "The review rule (data/review-rules.yml) judged; `cargo` for a manifest cargo stops at.",
    },
    path: { ...str, description: "The manifest the result is written on." },
    kind: {
      enum: ["fine", "regression", "regression-unfixable", "not-needed", "unresolved", "refused", "invalid-toml"],
      description:
        "fine: the feature stays as it was; regression: this change turns it off where code needs it (with its edit); regression-unfixable: the same, with no verified edit; not-needed: turned off, but no code was found needing it; unresolved: could not be judged; refused: cargo refuses the head manifest; invalid-toml: it does not parse.",
    },
    reported: { type: "boolean", description: "The review and the check say it (false: the log only)." },
    line: { ...line, description: "Where it is said (refused, invalid-toml)." },
    column: line,
    message: { ...str, description: "The TOML parser's message (invalid-toml)." },
    release: { ...nullableStr, description: "The burn release the head was judged on." },
    because: { ...str, description: "Why, in the review's words (Markdown): the detail said once, on the line." },
    refused: {
      type: "array",
      description: "Every feature cargo would refuse in the head manifest.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["crate", "version", "feature", "path", "line", "entry", "dependency", "inherited"],
        properties: {
          crate: str,
          version: str,
          feature: str,
          path: {
            ...str,
            description: "The manifest the feature is written in (the workspace root's, when inherited).",
          },
          line: {
            type: ["integer", "null"],
            description: "The line of `path` its name is written on (null: not found there).",
          },
          entry: { ...nullableStr, description: "The `[features]` entry that names it." },
          dependency: { ...nullableStr, description: "The dependency key that asks for it (null: an entry)." },
          inherited: { type: "boolean", description: "It is asked for in the workspace root's entry." },
        },
      },
    },
    loss: {
      type: "object",
      additionalProperties: false,
      required: ["dependency", "removed", "defaultsOff", "moved"],
      description: "What in the change turned the feature off.",
      properties: {
        dependency: str,
        removed: strings,
        defaultsOff: { type: ["array", "null"], items: str },
        moved: {
          type: ["object", "null"],
          additionalProperties: false,
          required: ["from", "to", "defaultsLost"],
          properties: { from: str, to: str, defaultsLost: { type: "boolean" } },
        },
      },
    },
    member: { ...str, description: "A workspace root's change reaching its members: the first member." },
    crates: {
      type: "array",
      description: "The crates that lost the feature and what in them needs it (null: assumed, sources not read).",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["manifest", "evidence"],
        properties: { manifest: str, evidence: { anyOf: [use, { type: "null" }] } },
      },
    },
    notNeeded: {
      enum: ["no-use-found", "sources-not-read", "under-own-feature"],
      description: "Why a feature turned off is not reported.",
    },
    edit: { anyOf: [edit, { type: "null" }], description: "The verified edit (null: none found)." },
    onLines: {
      type: "boolean",
      description: "The edit's lines are in the PR's diff: it is a suggestion on them, else a diff in the body.",
    },
    noEdit: { ...str, description: "Why no verified edit was found." },
    sharedWith: { ...str, description: "The rule whose edit of the same lines restores this one's feature too." },
  },
} as const;

export const REVIEW_ANSWER_SCHEMA = {
  $id: "https://github.com/burn-triage/burn-triage/review-answer.schema.json",
  title: "burn-triage review answer",
  type: "object",
  additionalProperties: false,
  required: ["schemaVersion", "kind", "verdict", "repo", "headSha", "release", "silent", "review", "results", "checks"],
  properties: {
    schemaVersion: { const: 1 },
    kind: { const: "review" },
    repo: {
      type: "object",
      additionalProperties: false,
      required: ["owner", "repo"],
      description: "Where the evidence links point (`local` on the command line).",
      properties: { owner: str, repo: str },
    },
    verdict: {
      enum: ["refused", "invalid-toml", "regression", "unresolved", "fine"],
      description: "The worst reported result: what the review leads with.",
    },
    headSha: str,
    release: { ...nullableStr, description: "The burn release the first reported result was judged on." },
    silent: { ...nullableStr, description: "Why nothing is said (null when something is)." },
    review: { type: "boolean", description: "A review is written at this head." },
    results: { type: "array", items: result },
    checks: {
      type: "array",
      description: "The check runs written, one per rule that has one.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["rule", "conclusion", "existingId"],
        properties: {
          rule: str,
          conclusion: { enum: ["success", "neutral", "failure"] },
          existingId: { type: ["integer", "null"] },
        },
      },
    },
    notices: { ...strings, description: "Caps hit while gathering, said in the review and the check." },
    previous: {
      type: ["object", "null"],
      additionalProperties: false,
      required: ["id", "state", "rules"],
      description: "The bot's earlier review and its new state.",
      properties: { id: { type: "integer" }, state: { enum: ["fixed", "superseded"] }, rules: strings },
    },
  },
} as const;

export type ReviewAnswer = FromSchema<typeof REVIEW_ANSWER_SCHEMA>;
export type ReviewResult = ReviewAnswer["results"][number];
export type ReviewEdit = NonNullable<ReviewResult["edit"]>;
export type Verdict = ReviewAnswer["verdict"];
