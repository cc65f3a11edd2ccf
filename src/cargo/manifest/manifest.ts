// A Cargo.toml as the bot needs it: every dependency declaration in every form cargo accepts,
// with the source nodes an editor needs to change it in place.
import type { AST } from "toml-eslint-parser";
import {
  type KeyValue,
  keyNames,
  lineIndex,
  type Program,
  parsePlain,
  parseSpans,
  staticValue,
  type Table,
} from "./toml.js";

export type DepKind = "normal" | "dev" | "build";
export type DepForm = "string" | "inline" | "table" | "dotted";

export interface DepDecl {
  /** The key as written; differs from `name` for renamed dependencies. */
  key: string;
  /** The crate name (`package = "…"` or the key). */
  name: string;
  kind: DepKind;
  /** `cfg(...)` or a target triple for `[target.X.dependencies]`; null for plain tables. */
  target: string | null;
  /** Declared in `[workspace.dependencies]`. */
  inWorkspaceTable: boolean;
  form: DepForm;
  version: string | null;
  features: string[];
  /** null when the declaration does not say. */
  defaultFeatures: boolean | null;
  optional: boolean;
  /** `workspace = true`: the rest comes from the workspace root. */
  inherits: boolean;
  git: string | null;
  /** `rev`, `tag` or `branch` of a git dependency, when given. */
  gitRef: { rev?: string; tag?: string; branch?: string } | null;
  path: string | null;
  /** 1-based line of the declaration (the key, or the `[dependencies.x]` header). */
  line: number;
  nodes: DepNodes;
}

export interface DepNodes {
  /** string/inline form: the `key = value` pair. */
  pair?: KeyValue;
  /** table form: the `[dependencies.x]` table. */
  table?: Table;
  /** dotted form: every `x.field = …` pair, in source order. */
  dotted?: KeyValue[];
  /** The `features = [...]` pair, whichever form holds it. */
  features?: KeyValue;
}

export interface Manifest {
  text: string;
  ast: Program;
  /** The document as the independent parser read it (`parsePlain`); not to be changed. */
  plain: Record<string, unknown>;
  packageName: string | null;
  edition: string | null;
  editionInherited: boolean;
  isWorkspaceRoot: boolean;
  members: string[];
  /** `[workspace] exclude`. */
  exclude: string[];
  /** `package.workspace`: the path to this package's workspace root directory, when set. */
  packageWorkspace: string | null;
  readonly dependencies: readonly DepDecl[];
  /** Declarations in `[workspace.dependencies]`. */
  readonly workspaceDependencies: readonly DepDecl[];
  features: Record<string, string[]>;
}

/** The one list of dependency tables cargo reads (and their legacy underscore spellings). */
export const DEP_TABLES: Readonly<Record<string, DepKind>> = {
  dependencies: "normal",
  "dev-dependencies": "dev",
  dev_dependencies: "dev",
  "build-dependencies": "build",
  build_dependencies: "build",
};

interface Scope {
  kind: DepKind;
  target: string | null;
  ws: boolean;
  name: string;
  rest: string[];
}

function scopeOf(path: string[]): Scope | null {
  const [a, b, c, ...tail] = path;
  if (a === "workspace" && b === "dependencies" && c !== undefined)
    return { kind: "normal", target: null, ws: true, name: c, rest: tail };
  if (a === "target" && b !== undefined && c !== undefined && DEP_TABLES[c] && tail.length > 0)
    return { kind: DEP_TABLES[c]!, target: b, ws: false, name: tail[0]!, rest: tail.slice(1) };
  if (a !== undefined && DEP_TABLES[a] && b !== undefined)
    return { kind: DEP_TABLES[a]!, target: null, ws: false, name: b, rest: c === undefined ? [] : [c, ...tail] };
  return null;
}

interface Group {
  scope: Scope;
  form: DepForm;
  pairs: KeyValue[];
  fields: Record<string, unknown>;
  table?: Table;
  featuresPair?: KeyValue;
  whole?: KeyValue;
}

function groupKey(s: Scope): string {
  return JSON.stringify([s.ws, s.kind, s.target, s.name]);
}

// The shell asks several questions of one text (facts, crates to read, the diagnosis), and a
// workspace review asks them of the root once per member: recent parses are kept, frozen, so that
// answering them parses once. Bounded by the text they hold (least recently used go first). A
// failed parse is not kept.
const MAX_PARSED_BYTES = 1024 * 1024;
const parsedByText = new Map<string, Manifest>();
let parsedBytes = 0;

export function parseManifest(text: string): Manifest {
  const known = parsedByText.get(text);
  if (known) {
    parsedByText.delete(text);
    parsedByText.set(text, known);
    return known;
  }
  const m = parseWhole(text);
  if (text.length > MAX_PARSED_BYTES / 8) return m;
  parsedByText.set(text, m);
  parsedBytes += text.length;
  for (const [t] of parsedByText) {
    if (parsedBytes <= MAX_PARSED_BYTES) break;
    parsedByText.delete(t);
    parsedBytes -= t.length;
  }
  return m;
}

function parseWhole(text: string): Manifest {
  const ast = parseSpans(text);
  // The span parser is lenient in places; the independent parser must agree the file is valid.
  const plain = parsePlain(text);
  const lineAt = lineIndex(text);
  const decls = [...dependencyGroups(ast).values()].map((g) => declOf(g, lineAt));
  return Object.freeze({
    text,
    ast,
    plain,
    ...packageFacts(plain),
    dependencies: Object.freeze(decls.filter((d) => !d.inWorkspaceTable)),
    workspaceDependencies: Object.freeze(decls.filter((d) => d.inWorkspaceTable)),
  });
}

/** Every dependency declaration's key-value pairs, grouped by the dependency they declare. */
function dependencyGroups(ast: ReturnType<typeof parseSpans>): Map<string, Group> {
  const groups = new Map<string, Group>();
  const visit = (prefix: string[], kv: KeyValue, table: Table | undefined) => {
    const path = [...prefix, ...keyNames(kv)];
    const scope = scopeOf(path);
    if (!scope) return;
    const id = groupKey(scope);
    let g = groups.get(id);
    const inTable = table !== undefined && scopeOf(table.resolvedKey.map(String))?.rest.length === 0;
    if (!g) {
      const form: DepForm =
        scope.rest.length === 0
          ? kv.value.type === "TOMLInlineTable"
            ? "inline"
            : "string"
          : inTable
            ? "table"
            : "dotted";
      g = { scope, form, pairs: [], fields: {}, table: inTable ? table : undefined };
      groups.set(id, g);
    }
    g.pairs.push(kv);
    if (scope.rest.length === 0) {
      g.whole = kv;
      const v = staticValue(kv.value);
      if (typeof v === "string") g.fields.version = v;
      else if (v && typeof v === "object") Object.assign(g.fields, v);
      if (kv.value.type === "TOMLInlineTable") {
        g.featuresPair = kv.value.body.find((p) => keyNames(p).join(".") === "features");
      }
    } else {
      const field = scope.rest.join(".");
      const v = staticValue(kv.value);
      if (scope.rest.length === 1) g.fields[field] = v;
      else g.fields[scope.rest[0]!] = { ...(g.fields[scope.rest[0]!] as object), [scope.rest[1]!]: v };
      if (field === "features") g.featuresPair = kv;
    }
  };
  for (const node of ast.body[0]!.body) {
    if (node.type === "TOMLKeyValue") visit([], node, undefined);
    else for (const kv of node.body) visit(node.resolvedKey.map(String), kv, node);
  }
  return groups;
}

/** One dependency as cargo reads it, with the nodes an edit of it needs. */
function declOf(g: Group, lineAt: (offset: number) => number): DepDecl {
  const f = g.fields;
  const df = f["default-features"] ?? f.default_features;
  const anchor = g.table ? g.table.range[0] : g.pairs[0]!.range[0];
  return {
    key: g.scope.name,
    name: typeof f.package === "string" ? f.package : g.scope.name,
    kind: g.scope.kind,
    target: g.scope.target,
    inWorkspaceTable: g.scope.ws,
    form: g.form,
    version: typeof f.version === "string" ? f.version : null,
    features: Array.isArray(f.features) ? f.features.filter((x): x is string => typeof x === "string") : [],
    defaultFeatures: typeof df === "boolean" ? df : null,
    optional: f.optional === true,
    inherits: f.workspace === true,
    git: typeof f.git === "string" ? f.git : null,
    gitRef: gitRefOf(f),
    path: typeof f.path === "string" ? f.path : null,
    line: lineAt(anchor),
    nodes: {
      pair: g.whole,
      table: g.form === "table" ? g.table : undefined,
      dotted: g.form === "dotted" ? g.pairs : undefined,
      features: g.featuresPair,
    },
  };
}

/** The [package], [workspace] and [features] facts, from the independent parser's plain value. */
function packageFacts(plain: Record<string, unknown>) {
  const pkg = (plain.package ?? {}) as Record<string, unknown>;
  const ws = (plain.workspace ?? null) as Record<string, unknown> | null;
  const wsPkg = (ws?.package ?? {}) as Record<string, unknown>;
  const edition = pkg.edition;
  const editionInherited =
    typeof edition === "object" && edition !== null && (edition as { workspace?: unknown }).workspace === true;
  const features: Record<string, string[]> = {};
  for (const [k, v] of Object.entries((plain.features ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(v)) features[k] = v.filter((x): x is string => typeof x === "string");
  }
  return {
    packageName: typeof pkg.name === "string" ? pkg.name : null,
    edition:
      typeof edition === "string"
        ? edition
        : editionInherited && typeof wsPkg.edition === "string"
          ? wsPkg.edition
          : null,
    editionInherited,
    isWorkspaceRoot: ws !== null,
    members: strings(ws?.members),
    exclude: strings(ws?.exclude),
    packageWorkspace: typeof pkg.workspace === "string" ? pkg.workspace : null,
    features,
  };
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function gitRefOf(f: Record<string, unknown>): DepDecl["gitRef"] {
  const ref: NonNullable<DepDecl["gitRef"]> = {};
  for (const k of ["rev", "tag", "branch"] as const) if (typeof f[k] === "string") ref[k] = f[k] as string;
  return Object.keys(ref).length > 0 ? ref : null;
}

/**
 * What cargo sees for a member's declaration after `workspace = true` inheritance: the root's
 * entry, with the member's features appended (features are additive) and its `optional`.
 */
export function effectiveDecl(dep: DepDecl, root: Manifest | null): DepDecl {
  if (!dep.inherits || !root) return dep;
  const base = root.workspaceDependencies.find((w) => w.key === dep.key);
  if (!base) return dep;
  // Only an explicit `true` in the member can turn on defaults the root turned off; a member
  // `false` over root defaults is ignored by cargo (and an error in edition 2024).
  const defaultFeatures = base.defaultFeatures === false && dep.defaultFeatures === true ? true : base.defaultFeatures;
  return {
    ...dep,
    name: base.name,
    version: base.version,
    git: base.git,
    gitRef: base.gitRef,
    path: base.path,
    features: [...base.features, ...dep.features],
    defaultFeatures,
  };
}

/** The `[features]` entry `name`'s array in the manifest's syntax tree (null: not an array there). */
export function featuresEntry(m: Manifest, name: string): AST.TOMLArray | null {
  for (const top of m.ast.body[0]?.body ?? []) {
    if (top.type !== "TOMLTable" || keyNames(top as never).join(".") !== "features") continue;
    for (const kv of top.body) if (keyNames(kv).join(".") === name && kv.value.type === "TOMLArray") return kv.value;
  }
  return null;
}
