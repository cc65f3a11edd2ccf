// What the issue comment's sentences rest on, as data in the answer (its `detail`): the catalog
// entry, the source site and who reached it, the judge's verdict on the manifest with the facts
// it words (the declaration, the activation chain, the enablers, each refused feature and its
// history), the gated paths, cargo's refusal. The renderers (src/render/) read only the answer,
// so all they say is here, and `--json` prints it. The shapes keep the core's field names: a
// Diagnosis is a Judgement (render/why.ts words both the and the review's).
import type { FromSchema } from "json-schema-to-ts";
import { PIN_SOURCES } from "../cargo/manifest/burn-version.js";

const str = { type: "string" } as const;
const strOrNull = { type: ["string", "null"] } as const;
const strings = { type: "array", items: str } as const;
const bool = { type: "boolean" } as const;
const int = { type: "integer" } as const;
const obj = <const P extends Record<string, unknown>, const R extends readonly string[]>(properties: P, required: R) =>
  ({ type: "object", additionalProperties: false, properties, required }) as const;

/** A package of the build (null: the user's own crate). */
const pkgRef = { anyOf: [{ type: "null" }, obj({ name: str, version: str }, ["name", "version"])] } as const;

/** One link of the resolver's activation chain (src/cargo/resolve/resolve.ts `Reason`). */
const reason = {
  anyOf: [
    obj({ kind: { const: "root-feature" }, feature: str }, ["kind", "feature"]),
    obj({ kind: { const: "feature" }, pkg: pkgRef, feature: str }, ["kind", "pkg", "feature"]),
    obj({ kind: { const: "depends" }, pkg: pkgRef, dep: str }, ["kind", "pkg", "dep"]),
    obj({ kind: { const: "defaults" }, pkg: pkgRef, dep: str }, ["kind", "pkg", "dep"]),
    obj({ kind: { const: "declares" }, pkg: pkgRef, dep: str, feature: str }, ["kind", "pkg", "dep", "feature"]),
    obj({ kind: { const: "activates" }, via: obj({ pkg: pkgRef, feature: str }, ["pkg", "feature"]), dep: str }, [
      "kind",
      "via",
      "dep",
    ]),
  ],
} as const;

const gitRef = {
  anyOf: [{ type: "null" }, obj({ rev: str, branch: str, tag: str }, [])],
} as const;

/** What was not known and had to be assumed (src/cargo/manifest/burn-version.ts `Assumption`). */
const assumption = {
  anyOf: [
    obj({ kind: { const: "no-requirement" }, key: str, assumed: strOrNull }, ["kind", "key", "assumed"]),
    obj({ kind: { const: "git" }, ref: gitRef, head: str, unread: { const: true } }, ["kind", "ref", "head"]),
    obj({ kind: { const: "path" }, path: str, head: str, unread: { const: true } }, ["kind", "path", "head"]),
    obj({ kind: { const: "floating" }, key: str, requirement: str, assumed: str }, [
      "kind",
      "key",
      "requirement",
      "assumed",
    ]),
    obj(
      {
        kind: { const: "outside-data" },
        key: str,
        requirement: str,
        pin: {
          anyOf: [{ type: "null" }, obj({ version: str, source: { enum: PIN_SOURCES } }, ["version", "source"])],
        },
        newest: strOrNull,
        used: strOrNull,
      },
      ["kind", "key", "requirement", "pin", "newest", "used"],
    ),
  ],
} as const;

/** Why the first replacement: the crates the removed feature brought in at release `from` that it keeps. */
const likeForLike = obj({ from: str, kept: strings }, ["from", "kept"]);

/** What burn's history says of a feature a release lacks. */
export const HISTORY_SCHEMA = {
  anyOf: [
    obj(
      {
        kind: { const: "removed" },
        at: strOrNull,
        replacement: { anyOf: [{ type: "null" }, strings] },
        advice: str,
        inferred: bool,
        likeForLike,
      },
      ["kind", "at", "replacement"],
    ),
    obj({ kind: { const: "never" }, closest: strings }, ["kind", "closest"]),
    obj({ kind: { const: "gone" }, lastIn: str }, ["kind", "lastIn"]),
  ],
} as const;

const refused = obj(
  {
    crate: str,
    version: str,
    feature: str,
    where: {
      anyOf: [
        obj({ kind: { const: "dependency" }, decl: obj({ key: str, line: int }, ["key", "line"]), inRoot: bool }, [
          "kind",
          "decl",
          "inRoot",
        ]),
        obj({ kind: { const: "features" }, entry: str }, ["kind", "entry"]),
      ],
    },
    history: HISTORY_SCHEMA,
  },
  ["crate", "version", "feature", "where", "history"],
);

const decl = obj(
  {
    key: str,
    name: str,
    kind: { enum: ["normal", "dev", "build"] },
    form: { enum: ["string", "inline", "table", "dotted"] },
    target: strOrNull,
    inherits: bool,
    defaultFeatures: { type: ["boolean", "null"] },
    features: strings,
  },
  ["key", "name", "kind", "form", "target", "inherits", "defaultFeatures", "features"],
);

const featureTarget = obj({ crate: str, feature: str, gate: str, label: str }, ["crate", "feature"]);

/** The judge's verdict on a manifest and the facts its sentence words (a Diagnosis, as data). */
export const JUDGEMENT_SCHEMA = obj(
  {
    verdict: {
      enum: [
        "no-burn",
        "unknown-crate",
        "unknown-commit",
        "pre-dispatch",
        "no-dispatch",
        "on",
        "gated",
        "too-large",
        "refused",
        "off",
      ],
    },
    target: featureTarget,
    primary: {
      anyOf: [{ type: "null" }, obj({ decl, effective: decl, resolved: strOrNull }, ["decl", "effective", "resolved"])],
    },
    state: obj({ version: strOrNull, chain: { type: "array", items: reason } }, ["version", "chain"]),
    graphVersion: strOrNull,
    selected: {
      anyOf: [
        { type: "null" },
        obj({ version: strOrNull, source: str, preDispatch: strOrNull, mainCommit: strOrNull }, [
          "version",
          "source",
          "preDispatch",
          "mainCommit",
        ]),
      ],
    },
    assumed: obj({ version: assumption, graph: assumption }, []),
    registryLabel: str,
    unknownCrates: strings,
    enablers: strings,
    defaultEnablers: strings,
    gatedBehind: strings,
    fix: { anyOf: [{ type: "null" }, obj({ add: strings }, ["add"])] },
    gateFeatures: { anyOf: [{ type: "null" }, strings] },
    refused: { type: "array", items: refused },
  },
  [
    "verdict",
    "target",
    "primary",
    "state",
    "graphVersion",
    "selected",
    "assumed",
    "registryLabel",
    "unknownCrates",
    "enablers",
    "defaultEnablers",
    "gatedBehind",
    "fix",
  ],
);

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
export const MANIFEST_DETAIL_SCHEMA = obj(
  {
    origin: { enum: ["issue", "repository", "assumed"] },
    path: str,
    whole: bool,
    assumedMember: bool,
    linesAreFiles: { ...bool, description: "The manifest read is the whole file: its line numbers are the user's." },
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
        obj(
          {
            kind: { const: "fixed" },
            diagnosis: JUDGEMENT_SCHEMA,
            change,
            place: obj({ line: { type: ["integer", "null"] }, inRoot: bool }, ["line", "inRoot"]),
            status: { enum: ["verified", "checked", "assumed-graph"] },
            build,
          },
          ["kind", "diagnosis", "change", "place", "status", "build"],
        ),
      ],
    },
  },
  ["origin", "path", "whole", "assumedMember", "linesAreFiles", "plan"],
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
            from: { enum: ["line", "frame", "unknown", "shared"] },
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
          ["method", "from", "frame", "ref", "file", "line", "dataHasRef", "at"],
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
export type Judgement = FromSchema<typeof JUDGEMENT_SCHEMA>;
export type History = FromSchema<typeof HISTORY_SCHEMA>;
export type AssumptionData = NonNullable<Judgement["assumed"]["version"]>;
