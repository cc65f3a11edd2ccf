// The judge's verdict on a manifest as data in the answer (a Diagnosis's facts that render/why.ts
// words), with the small schema helpers the answer's detail shares. See answer-detail-schema.ts.
import type { FromSchema } from "json-schema-to-ts";
import { PIN_SOURCES } from "../cargo/manifest/burn-version.js";

export const str = { type: "string" } as const;
export const strOrNull = { type: ["string", "null"] } as const;
export const strings = { type: "array", items: str } as const;
export const bool = { type: "boolean" } as const;
export const int = { type: "integer" } as const;
export const obj = <const P extends Record<string, unknown>, const R extends readonly string[]>(
  properties: P,
  required: R,
) => ({ type: "object", additionalProperties: false, properties, required }) as const;

/** A package of the build (null: the user's own crate). */
const pkgRef = { anyOf: [{ type: "null" }, obj({ name: str, version: str }, ["name", "version"])] } as const;

/** One link of the resolver's activation chain (src/cargo/resolve/resolve.ts `Reason`). */
export const reason = {
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
export const assumption = {
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
export const likeForLike = obj({ from: str, kept: strings }, ["from", "kept"]);

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
    /** The line its name is written on: the workspace root's when `where.inRoot` (null: not found). */
    line: { type: ["integer", "null"], minimum: 1 },
    history: HISTORY_SCHEMA,
  },
  ["crate", "version", "feature", "where", "line", "history"],
);

export const decl = obj(
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

/** The judge's verdicts on a manifest, one list for the judgement and the manifest answer. */
export const VERDICT = {
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
} as const;

/** The judge's verdict on a manifest and the facts its sentence words (a Diagnosis, as data). */
export const JUDGEMENT_SCHEMA = obj(
  {
    verdict: VERDICT,
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

export type Judgement = FromSchema<typeof JUDGEMENT_SCHEMA>;
export type History = FromSchema<typeof HISTORY_SCHEMA>;
export type AssumptionData = NonNullable<Judgement["assumed"]["version"]>;
