// The answer, declared once as a JSON Schema: what the bot found in an issue's text or judged in a
// manifest, the release it judged and where that came from, each claim with what it rests on,
// each edit with how it was verified, and what it could not see. The TypeScript types are derived
// from this object (as config-defaults.ts does for the configuration); answer.schema.json is
// generated from it (`npm run docs:answer`), and every issue-side renderer and `--json` read it.
import type { FromSchema } from "json-schema-to-ts";
import { DETAIL_SCHEMA } from "./answer-detail-schema.js";
import { VERDICT } from "./answer-judgement-schema.js";

/** Bumped when a field changes meaning or goes away (a new optional field keeps the version). */
export const ANSWER_SCHEMA_VERSION = 1;

const str = { type: "string" } as const;
const strOrNull = { type: ["string", "null"] } as const;
const strings = { type: "array", items: str } as const;

/** Where a release came from (src/cargo/manifest/burn-version.ts's VersionSource). */
const versionSource = {
  enum: [
    "backtrace",
    "crate-path",
    "git-checkout",
    "lock",
    "cargo-tree",
    "requirement",
    "git",
    "path",
    "path-version",
    "prose",
    "line-number",
    "message",
    "cargo",
    "default",
    "assumed",
    null,
  ],
} as const;

const release = {
  type: ["object", "null"],
  description: "The burn release judged (computed once), and where it came from.",
  additionalProperties: false,
  required: ["version", "commit", "source", "requirement"],
  properties: {
    version: strOrNull,
    commit: { ...strOrNull, description: "burn's main-branch commit the build is placed at, when not a release." },
    source: versionSource,
    requirement: { ...strOrNull, description: "The Cargo.toml requirement that resolved to `version`." },
  },
} as const;

const evidence = {
  type: "object",
  additionalProperties: false,
  required: ["kind", "detail", "url"],
  properties: {
    kind: {
      enum: [
        "source-line",
        "backtrace",
        "manifest",
        "feature-graph",
        "cfg",
        "burn-source",
        "history",
        "cargo",
        "lock",
        "issue-text",
      ],
    },
    detail: { ...str, description: "What was read, as data (`burn-dispatch 0.22.0-pre.2 src/backend.rs:824`)." },
    url: strOrNull,
  },
} as const;

const claim = {
  type: "object",
  additionalProperties: false,
  required: ["about", "subject", "evidence"],
  properties: {
    about: {
      enum: [
        "raised-at",
        "reached-by",
        "manifest-verdict",
        "gated-path",
        "absent-path",
        "refused-feature",
        "release-lacks-message",
        "brought-by",
        "already-on",
        "gpu-backends",
      ],
    },
    subject: { ...str, description: "What the claim is about: a message, a path, a feature, a verdict." },
    evidence: { type: "array", items: evidence },
  },
} as const;

const change = {
  type: "object",
  additionalProperties: false,
  required: ["op", "feature", "to", "removedAt", "turnsOn"],
  properties: {
    op: { enum: ["add", "rename", "drop", "declare"] },
    feature: str,
    to: { ...strOrNull, description: "rename: the feature that replaces it." },
    removedAt: {
      ...strOrNull,
      description: "rename/drop: the release that removed it (null: after the last release).",
    },
    turnsOn: { ...strOrNull, description: "add/declare: what the addition turns on (`burn-dispatch/autodiff`)." },
    near: {
      ...strings,
      description:
        "rename of a name no release has, taken as a typo: the names of that release near it, nearest first (`to` is one). More than one: none is chosen, and each is its own edit in `edits`.",
    },
  },
} as const;

const edit = {
  type: "object",
  additionalProperties: false,
  required: ["path", "line", "dependency", "origin", "forFeature", "changes", "diff", "verification"],
  properties: {
    path: str,
    line: {
      type: ["integer", "null"],
      description: "First line of the file the edit replaces (null: the text shown is not the whole file).",
    },
    dependency: str,
    origin: { enum: ["issue", "repository", "assumed", "file"], description: "Where the edited manifest came from." },
    forFeature: { ...strOrNull, description: "With a choice of features: the one this edit turns on." },
    changes: { type: "array", items: change },
    diff: { ...str, description: "The edit as a unified diff: one patch per file, each with its own header." },
    others: {
      type: "array",
      description:
        "Other files the same edit changes (a workspace root's entry and a member's own both naming a removed feature): `diff` covers them; verified only together, to commit together.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "line"],
        properties: {
          path: str,
          line: { type: "integer", minimum: 1, description: "First line of that file the edit replaces." },
        },
      },
    },
    verification: {
      type: "object",
      additionalProperties: false,
      required: ["status", "graph", "commit", "registry", "targetOn", "targetUnmet", "cratesJoining"],
      properties: {
        status: {
          enum: ["verified", "checked", "assumed-graph"],
          description:
            "verified: on the build's own release; checked: on another release's graph; assumed-graph: on a graph assumed for a git or path burn.",
        },
        graph: { ...strOrNull, description: "The release whose feature graph was resolved." },
        commit: { ...strOrNull, description: "The main-branch snapshot's commit, when its graph was used." },
        registry: str,
        targetOn: { type: "boolean", description: "The feature asked for resolves on with the edit." },
        targetUnmet: { ...strOrNull, description: "Why the edit only gets cargo past its refusal." },
        cratesJoining: {
          type: ["array", "null"],
          items: str,
          description: "Crates of the judged graph the edit brings into the build (null: not measured).",
        },
      },
    },
  },
} as const;

const unseen = {
  type: "array",
  description: "What the answer could not see, and so did not claim.",
  items: {
    enum: [
      "manifest",
      "manifest-part",
      "workspace-member",
      "version",
      "location",
      "backend",
      "build-graph",
      "fix",
      "release-source",
    ],
  },
} as const;

/** An issue's text (the issue comment, `/explain-panic`, `explain`, scan's per-issue line). */
export const ISSUE_ANSWER_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: [
    "schemaVersion",
    "kind",
    "verdict",
    "findings",
    "release",
    "target",
    "manifest",
    "claims",
    "edits",
    "unseen",
  ],
  properties: {
    schemaVersion: { const: ANSWER_SCHEMA_VERSION },
    kind: { const: "issue" },
    verdict: {
      enum: ["feature-off", "misuse", "removed-feature", "gated-path", "absent-path", "cargo-refuses", "none"],
    },
    findings: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["kind", "id", "printed", "path", "gate"],
        properties: {
          kind: { enum: ["panic", "compile", "refusal"] },
          id: { ...str, description: "The catalog entry, rustc's error code, or `cargo`." },
          printed: str,
          path: { ...strOrNull, description: "A rustc error's gated `burn::…` path." },
          gate: { ...strOrNull, description: "A gated path's `#[cfg]` predicate." },
        },
      },
    },
    release,
    target: {
      type: "object",
      additionalProperties: false,
      required: ["feature", "choices"],
      properties: {
        feature: { ...strOrNull, description: "`crate/feature` that fixes it (null: none, or a choice)." },
        choices: { ...strings, description: "Features to choose from when nothing names one." },
      },
    },
    manifest: {
      type: ["object", "null"],
      additionalProperties: false,
      required: ["origin", "path", "verdict"],
      properties: {
        origin: { enum: ["issue", "repository", "assumed"] },
        path: strOrNull,
        verdict: {
          ...strOrNull,
          description:
            "The judge's verdict on it (src/cargo/judge/diagnosis.ts); `unseen` when origin is `assumed` (no manifest was seen: the manifest-verdict claim says what the assumed one gives).",
        },
      },
    },
    claims: { type: "array", items: claim },
    edits: { type: "array", items: edit },
    unseen,
    detail: DETAIL_SCHEMA,
    comment: { ...strOrNull, description: "`explain --json`: the comment the bot would post." },
  },
} as const;

/** A manifest (`why`, `fix`). */
export const MANIFEST_ANSWER_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: [
    "schemaVersion",
    "kind",
    "feature",
    "on",
    "verdict",
    "release",
    "assumed",
    "chain",
    "enablers",
    "claims",
    "edits",
    "noFix",
    "unseen",
  ],
  properties: {
    schemaVersion: { const: ANSWER_SCHEMA_VERSION },
    kind: { const: "manifest" },
    feature: str,
    on: {
      type: ["boolean", "null"],
      description:
        "null: the data cannot tell (verdict unknown-commit, unknown-crate or too-large); never a guessed off.",
    },
    verdict: VERDICT,
    release,
    assumed: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["about", "kind", "used"],
        properties: {
          about: { enum: ["version", "graph"] },
          kind: { enum: ["no-requirement", "floating", "git", "path", "outside-data"] },
          used: { ...strOrNull, description: "The release (or main's commit) used instead." },
        },
      },
    },
    chain: {
      ...strings,
      description: "What turns the feature on, from the manifest to the feature (`burn/default` → …).",
    },
    enablers: { ...strings, description: "The dependency's features that turn it on alone, at that release." },
    claims: { type: "array", items: claim },
    edits: {
      type: "array",
      items: edit,
      description:
        "Usually one. A typo near several names (a change's `near`): one per name, nearest first, none chosen (`fix` prints no diff then).",
    },
    noFix: { ...strOrNull, description: "Why no edit is proposed, when none is and the feature is off." },
    unseen,
    text: { ...str, description: "`why --json` and `fix --json`: the judge's reason, in the words `why` prints." },
  },
} as const;

export type IssueAnswer = FromSchema<typeof ISSUE_ANSWER_SCHEMA>;
export type ManifestAnswer = FromSchema<typeof MANIFEST_ANSWER_SCHEMA>;
export type AnswerEdit = IssueAnswer["edits"][number];
export type AnswerClaim = IssueAnswer["claims"][number];
export type AnswerRelease = NonNullable<IssueAnswer["release"]>;
export type Unseen = IssueAnswer["unseen"][number];
