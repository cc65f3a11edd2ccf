// What the issue comment's sentences rest on, as data in the answer (its `detail`): the catalog
// entry, the source site and who reached it, the judge's verdict on the manifest with the facts
// it words (the declaration, the activation chain, the enablers, each refused feature and its
// history), the gated paths, cargo's refusal. The renderers (src/render/) read only the answer,
// so all they say is here, and `--json` prints it. The shapes keep the core's field names: a
// Diagnosis is a Judgement (render/why.ts words both the and the review's).
import type { FromSchema } from "json-schema-to-ts";
import {
  assumption,
  bool,
  decl,
  HISTORY_SCHEMA,
  int,
  JUDGEMENT_SCHEMA,
  likeForLike,
  obj,
  reason,
  str,
  strings,
  strOrNull,
} from "./answer-judgement-schema.js";

export type { AssumptionData, History, Judgement } from "./answer-judgement-schema.js";

const build = {
  anyOf: [{ type: "null" }, obj({ version: strOrNull, commit: strOrNull }, ["version", "commit"])],
} as const;

/** The change an edit makes, as the comment's Fix words it (src/cargo/fix/change.ts `Change`). */
const change = obj(
  {
    path: str,
    diff: str,
    dependency: str,
    added: strings,
    declares: bool,
    turnsOn: strings,
    targetUnmet: str,
    suggestion: obj({ startLine: int, endLine: int }, ["startLine", "endLine"]),
    /** The same edit's other files (a two-file edit): `diff` covers them all. */
    others: { type: "array", items: obj({ path: str, line: int }, ["path", "line"]) },
    resolves: obj(
      {
        renamed: {
          type: "array",
          items: obj({ feature: str, to: str, others: strings, typo: bool, likeForLike }, ["feature", "to", "others"]),
        },
        dropped: strings,
      },
      ["renamed", "dropped"],
    ),
  },
  ["path", "diff", "dependency", "added", "declares", "suggestion"],
);

/** The manifest the answer judged, and its plan: the edit (where, how verified), or why none. */
/** A verified (or checked) edit of the manifest, where it goes and against which build. */
const FIXED_PLAN = obj(
  {
    kind: { const: "fixed" },
    diagnosis: JUDGEMENT_SCHEMA,
    change,
    place: obj({ line: { type: ["integer", "null"] }, inRoot: bool }, ["line", "inRoot"]),
    status: { enum: ["verified", "checked", "assumed-graph"] },
    build,
  },
  ["kind", "diagnosis", "change", "place", "status", "build"],
);

export const MANIFEST_DETAIL_SCHEMA = obj(
  {
    origin: { enum: ["issue", "repository", "assumed"] },
    path: str,
    whole: bool,
    assumedMember: bool,
    linesAreFiles: { ...bool, description: "The manifest read is the whole file: its line numbers are the user's." },
    named: {
      anyOf: [{ type: "null" }, obj({ features: strings, said: str }, ["features", "said"])],
      description:
        "An assumed manifest built from the features the issue's prose names (`said`: its sentence), those burn has at that release.",
    },
    plan: {
      anyOf: [
        obj(
          {
            kind: { const: "invalid-toml" },
            error: obj({ line: int, column: int, message: str }, ["line", "column", "message"]),
          },
          ["kind", "error"],
        ),
        obj({ kind: { const: "already-on" }, diagnosis: JUDGEMENT_SCHEMA }, ["kind", "diagnosis"]),
        obj({ kind: { const: "no-fix" }, diagnosis: JUDGEMENT_SCHEMA, reason: str }, ["kind", "diagnosis", "reason"]),
        FIXED_PLAN,
      ],
    },
    alternatives: {
      type: "array",
      items: FIXED_PLAN,
      description:
        "A refused name no release has, near several: `plan` renames it to the nearest, each of these to another near name, nearest first; nothing says which was meant.",
    },
  },
  ["origin", "path", "whole", "assumedMember", "linesAreFiles", "named", "plan", "alternatives"],
);

const fragment = obj({ forwards: strings, inherits: str }, ["forwards"]);

const panicDetail = obj(
  {
    kind: { const: "panic" },
    entry: obj(
      {
        id: str,
        crate: str,
        title: str,
        cause: { enum: ["feature-off", "misuse", "removed-feature"] },
        site_kind: { enum: ["stub", "check", "fallback", "compile-error"] },
        explanation: str,
        fixes: strings,
        family: bool,
      },
      ["id", "crate", "title", "cause", "site_kind", "explanation", "fixes", "family"],
    ),
    printed: { ...str, description: "The message as the issue prints it (the primary finding)." },
    link: {
      anyOf: [
        { type: "null" },
        obj(
          {
            crate: str,
            file: str,
            line: int,
            lineEnd: { type: ["integer", "null"] },
            methods: strings,
            ref: str,
            url: strOrNull,
            item: strOrNull,
            verified: bool,
            from: { enum: ["catalog", "source"] },
            sameLine: {
              type: "array",
              description: "Other refs whose data has this message at the printed line, with the method there.",
              items: obj({ ref: str, version: strOrNull, method: strOrNull }, ["ref", "version", "method"]),
            },
            macros: {
              type: "array",
              description: "A printed line the data lacks, raised only inside these `macro_rules!` at that ref.",
              items: obj({ name: str, file: str, line: int }, ["name", "file", "line"]),
            },
          },
          [
            "crate",
            "file",
            "line",
            "lineEnd",
            "methods",
            "ref",
            "url",
            "item",
            "verified",
            "from",
            "sameLine",
            "macros",
          ],
        ),
      ],
    },
    firstCall: {
      anyOf: [
        { type: "null" },
        obj(
          {
            method: strOrNull,
            from: { enum: ["line", "frame", "unknown", "shared", "prose"] },
            said: { ...strOrNull, description: "`prose`: the issue's words that name the method." },
            at: {
              type: "array",
              description: "`shared`: the method at the printed line at each ref that has it.",
              items: obj({ ref: str, method: str }, ["ref", "method"]),
            },
            frame: strOrNull,
            ref: strOrNull,
            file: strOrNull,
            line: { type: ["integer", "null"] },
            dataHasRef: bool,
          },
          ["method", "from", "frame", "ref", "file", "line", "dataHasRef", "at", "said"],
        ),
      ],
    },
    tooOld: {
      anyOf: [
        { type: "null" },
        obj({ named: str, firstWith: str, manifest: bool }, ["named", "firstWith", "manifest"]),
      ],
    },
    broughtBy: { anyOf: [{ type: "null" }, strings] },
    hint: { ...strOrNull, description: "Where the target feature was taken from, when not said outright." },
    choiceCrate: { ...strOrNull, description: "With a choice of backends: the crate whose features they are." },
    removedBy: { ...strings, description: "With a choice: the features the site's quoted `#[cfg]` proves remove it." },
    alreadyOn: {
      type: "array",
      description:
        "With a choice and a manifest: backends it already turns on (the resolver's chain, `burn/train` → … → `burn-dispatch/flex`), left out of the choice.",
      items: obj({ feature: str, chain: strings }, ["feature", "chain"]),
    },
    gpu: {
      anyOf: [{ type: "null" }, obj({ said: str, listed: strings, source: str }, ["said", "listed", "source"])],
      description:
        "With a choice: the issue says the GPU (`said`), so the choice is the GPU backends (by `source`) of the data's `listed` ones.",
    },
    siteGate: {
      anyOf: [
        { type: "null" },
        obj({ kind: { enum: ["under", "ungated"] }, cfg: strOrNull, crate: str }, ["kind", "cfg", "crate"]),
      ],
    },
    fragment: { anyOf: [{ type: "null" }, fragment] },
    manifest: { anyOf: [{ type: "null" }, MANIFEST_DETAIL_SCHEMA] },
    oneTarget: {
      anyOf: [{ type: "null" }, obj({ crate: str, feature: str }, ["crate", "feature"])],
      description: "The one feature that fixes it, when the text names one (not a choice).",
    },
    tree: {
      anyOf: [
        { type: "null" },
        obj({ crate: str, features: { anyOf: [{ type: "null" }, strings] }, proof: str }, [
          "crate",
          "features",
          "proof",
        ]),
      ],
      description:
        "A pasted `cargo tree` rooted at the crate that panicked: its root line, and with `-e features` the features it shows on.",
    },
  },
  [
    "oneTarget",
    "tree",
    "kind",
    "entry",
    "printed",
    "link",
    "firstCall",
    "tooOld",
    "broughtBy",
    "hint",
    "choiceCrate",
    "removedBy",
    "alreadyOn",
    "gpu",
    "siteGate",
    "fragment",
    "manifest",
  ],
);

const compileDetail = obj(
  {
    kind: { const: "compile" },
    printed: strings,
    firstPartGated: { ...bool, description: "An import's first missing part is a gated module." },
    items: {
      type: "array",
      items: obj(
        {
          path: str,
          url: strOrNull,
          gate: obj({ crate: str, file: str, cfg_line: int, cfg: strOrNull, from: { enum: ["rustc", "source"] } }, [
            "crate",
            "file",
            "cfg_line",
          ]),
        },
        ["path", "url", "gate"],
      ),
    },
    absent: strings,
    ref: str,
    release: obj({ version: str, commit: strOrNull, source: str, requirement: strOrNull }, [
      "version",
      "commit",
      "source",
      "requirement",
    ]),
    agreeing: { anyOf: [{ type: "null" }, strings] },
    beyond: strOrNull,
    failingCrate: strOrNull,
    fragment: { anyOf: [{ type: "null" }, fragment] },
    suggest: obj(
      { withDefaults: { anyOf: [{ type: "null" }, strings] }, noDefaults: { anyOf: [{ type: "null" }, strings] } },
      ["withDefaults", "noDefaults"],
    ),
    manifest: { anyOf: [{ type: "null" }, MANIFEST_DETAIL_SCHEMA] },
  },
  [
    "kind",
    "printed",
    "firstPartGated",
    "items",
    "absent",
    "ref",
    "release",
    "agreeing",
    "beyond",
    "failingCrate",
    "fragment",
    "suggest",
    "manifest",
  ],
);

const refusalDetail = obj(
  {
    kind: { const: "refusal" },
    found: obj({ crate: str, feature: str, printed: str, requirement: strOrNull }, [
      "crate",
      "feature",
      "printed",
      "requirement",
    ]),
    version: strOrNull,
    history: { anyOf: [{ type: "null" }, HISTORY_SCHEMA] },
    manifest: { anyOf: [{ type: "null" }, MANIFEST_DETAIL_SCHEMA] },
  },
  ["kind", "found", "version", "history", "manifest"],
);

export const DETAIL_SCHEMA = {
  description: "What the comment's sentences rest on, by kind of finding (null: nothing found).",
  anyOf: [{ type: "null" }, panicDetail, compileDetail, refusalDetail],
} as const;

/**
 * The shapes written once in answer.schema.json (`definitions`) and referred to wherever they
 * recur: a manifest's detail appears under each kind of finding, a judgement under each plan.
 */
export const DETAIL_DEFINITIONS = {
  ManifestDetail: MANIFEST_DETAIL_SCHEMA,
  Judgement: JUDGEMENT_SCHEMA,
  History: HISTORY_SCHEMA,
  Assumption: assumption,
  Reason: reason,
  DepDecl: decl,
} as const;

export type Detail = FromSchema<typeof DETAIL_SCHEMA>;
export type PanicDetail = Extract<Detail, { kind: "panic" }>;
export type CompileDetail = Extract<Detail, { kind: "compile" }>;
export type RefusalDetail = Extract<Detail, { kind: "refusal" }>;
export type ManifestDetail = FromSchema<typeof MANIFEST_DETAIL_SCHEMA>;
