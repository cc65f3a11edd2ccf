// One crates.io sparse-index file, read as cargo reads it: a crate name checked against cargo's
// rules before a path is built from it, each line validated for shape and size (the index is
// untrusted input: anyone can publish a `burn-…` crate), and the bundled snapshot's lines read
// by a faster path that trusts only what the build wrote.
import * as semver from "../../util/semver.js";

export interface IndexDep {
  /** The local name (the key in the manifest). */
  name: string;
  /** The crate name when renamed (`package = "…"`). */
  package?: string;
  req: string;
  features: string[];
  optional: boolean;
  default_features: boolean;
  target: string | null;
  kind: "normal" | "dev" | "build" | null;
}

export interface IndexLine {
  name: string;
  vers: string;
  deps: IndexDep[];
  features: Record<string, string[]>;
  features2?: Record<string, string[]>;
  yanked?: boolean;
}

/**
 * Cargo's rule for a crate name on crates.io: ASCII letters, digits, `-` and `_`, starting with a
 * letter, at most 64 characters. Names come from issues and from index files anyone can publish,
 * so nothing else may shape an index URL or a file path (`..`, `?`, `%2e`, `/`).
 */
export function validCrateName(name: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(name);
}

/** Sparse-index path rule: `bu/rn/burn-core`, `3/s/syn`, `1/a`. Throws for a name cargo would refuse. */
export function indexPath(name: string): string {
  if (!validCrateName(name))
    throw new IndexShapeError(`not a crate name cargo accepts: ${JSON.stringify(name.slice(0, 80))}`);
  const n = name.toLowerCase();
  if (n.length <= 2) return `${n.length}/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

/** An index file (or a name) that does not have the shape cargo writes; the crate then falls back. */
export class IndexShapeError extends Error {
  override name = "IndexShapeError";
}

/**
 * What one index file may hold before it is refused. burn's largest file (burn-core) has about 80
 * versions, 90 features and 40 dependencies per line; these leave an order of magnitude, and
 * bound the resolver's walk whatever a published crate says.
 */
export const INDEX_LIMITS = {
  lines: 2000,
  deps: 512,
  features: 1024,
  values: 512,
  valueLength: 256,
  /**
   * A line's length, checked before it is parsed: burn's longest is 6.8 KB. JSON.parse of one
   * 600 KB line of 50,000 features held the event loop 35 ms idle (236 ms on a loaded machine)
   * before the features cap could refuse it.
   */
  lineLength: 64 * 1024,
};

const DEP_KINDS = new Set(["normal", "dev", "build"]);

function isStringArray(v: unknown, max: number): v is string[] {
  return (
    Array.isArray(v) && v.length <= max && v.every((x) => typeof x === "string" && x.length <= INDEX_LIMITS.valueLength)
  );
}

function featureTable(v: unknown): Record<string, string[]> | null {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) return null;
  const entries = Object.entries(v);
  if (entries.length > INDEX_LIMITS.features) return null;
  const out: Record<string, string[]> = {};
  for (const [k, vs] of entries) {
    if (k.length > INDEX_LIMITS.valueLength || !isStringArray(vs, INDEX_LIMITS.values)) return null;
    out[k] = vs;
  }
  return out;
}

function dependency(v: unknown): IndexDep | null {
  if (typeof v !== "object" || v === null) return null;
  const d = v as Record<string, unknown>;
  if (
    typeof d.name !== "string" ||
    !validCrateName(d.name) ||
    typeof d.req !== "string" ||
    d.req.length > INDEX_LIMITS.valueLength
  )
    return null;
  if (d.package !== undefined && d.package !== null && (typeof d.package !== "string" || !validCrateName(d.package)))
    return null;
  const features = d.features ?? [];
  if (!isStringArray(features, INDEX_LIMITS.values)) return null;
  const kind = d.kind ?? null;
  if (kind !== null && !(typeof kind === "string" && DEP_KINDS.has(kind))) return null;
  const target = d.target ?? null;
  if (target !== null && (typeof target !== "string" || target.length > INDEX_LIMITS.valueLength)) return null;
  return {
    name: d.name,
    ...(typeof d.package === "string" ? { package: d.package } : {}),
    req: d.req,
    features,
    optional: d.optional === true,
    default_features: d.default_features !== false,
    target: target as string | null,
    kind: kind as IndexDep["kind"],
  };
}

function indexLine(v: unknown, crate: string | undefined): IndexLine {
  const l = v as Record<string, unknown> | null;
  const bad = (what: string) => new IndexShapeError(`index line${crate ? ` of ${crate}` : ""}: ${what}`);
  if (typeof l !== "object" || l === null || Array.isArray(l)) throw bad("not an object");
  if (
    typeof l.name !== "string" ||
    !validCrateName(l.name) ||
    (crate !== undefined && l.name.toLowerCase() !== crate.toLowerCase())
  )
    throw bad("wrong crate name");
  if (typeof l.vers !== "string" || l.vers.length > 64 || semver.valid(l.vers) === null) throw bad("no valid version");
  if (!Array.isArray(l.deps) || l.deps.length > INDEX_LIMITS.deps) throw bad("deps is not a list of bounded length");
  const deps = l.deps.map(dependency);
  if (deps.some((d) => d === null)) throw bad("a dependency without the fields cargo writes");
  const features = featureTable(l.features);
  const features2 = featureTable(l.features2);
  if (!features || !features2 || Object.keys(features).length + Object.keys(features2).length > INDEX_LIMITS.features)
    throw bad("features are not a bounded table of lists");
  return {
    name: l.name,
    vers: l.vers,
    deps: deps as IndexDep[],
    features,
    ...(l.features2 ? { features2 } : {}),
    ...(l.yanked === true ? { yanked: true } : {}),
  };
}

/**
 * Parses a sparse-index file into lines of exactly the shape cargo writes, within INDEX_LIMITS;
 * anything else throws IndexShapeError (the caller falls back for that crate). `crate`, when
 * given, is the name the file was asked for: a line about another crate is refused too.
 */
export function parseIndexFile(text: string, crate?: string): IndexLine[] {
  const out: IndexLine[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim().length === 0) continue;
    if (out.length >= INDEX_LIMITS.lines)
      throw new IndexShapeError(`index file${crate ? ` of ${crate}` : ""}: more than ${INDEX_LIMITS.lines} lines`);
    if (raw.length > INDEX_LIMITS.lineLength)
      throw new IndexShapeError(
        `index file${crate ? ` of ${crate}` : ""}: a line longer than ${INDEX_LIMITS.lineLength} characters`,
      );
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new IndexShapeError(`index file${crate ? ` of ${crate}` : ""}: a line is not JSON`);
    }
    out.push(indexLine(parsed, crate));
  }
  return out;
}

/**
 * A file of the bundled snapshot, which `npm run data:import` wrote in cargo's shape and a test
 * holds equal to parseIndexFile's reading of it: parsed without the per-field checks a live index
 * needs (they are half of a CLI call's index time).
 */
export function parseBundledIndexFile(text: string): IndexLine[] {
  return text.split("\n").flatMap((raw) => (raw.trim().length === 0 ? [] : [bundledLine(raw)]));
}

/** The head cargo writes first on every line: `{"name":"…","vers":"…",`. */
const LINE_HEAD = /^\{"name":("(?:[^"\\]|\\.)*"),"vers":("(?:[^"\\]|\\.)*"),/;

/**
 * One bundled line, its name and version read from its head and the rest parsed on first use: a
 * call resolves one or two versions of each crate it touches, and parsing all twenty-odd was most
 * of a CLI call's index time. `"yanked":` can only be the line's own key (inside a JSON string
 * its quotes would be escaped, and no other object on a line has that key).
 */
function bundledLine(raw: string): IndexLine {
  const head = LINE_HEAD.exec(raw);
  if (!head) return JSON.parse(raw) as IndexLine;
  // Searched from the end, where cargo writes the field: `includes` read each 5 KB line whole,
  // 0.7 ms of a call over its ~600 lines.
  const yanked = raw.lastIndexOf('"yanked":');
  return lazyLine(
    JSON.parse(head[1]!) as string,
    JSON.parse(head[2]!) as string,
    yanked >= 0 && raw.startsWith("true", yanked + 9),
    () => JSON.parse(raw) as IndexLine,
  );
}

/** A line whose name, version and yank are known; `load` gives the whole line on first use. */
export function lazyLine(name: string, vers: string, yanked: boolean, load: () => IndexLine): IndexLine {
  let whole: IndexLine | undefined;
  const full = () => {
    whole ??= load();
    return whole;
  };
  // Getters in the literal (own and enumerable, as a spread of the line needs them) are a third
  // cheaper than the same getters added by Object.defineProperties: a call makes ~600 lines.
  const line: IndexLine = {
    name,
    vers,
    get deps() {
      return full().deps;
    },
    get features() {
      return full().features;
    },
    get features2() {
      return full().features2;
    },
  };
  if (yanked) line.yanked = true;
  return line;
}

/**
 * What parsed lines hold in V8's heap, estimated from their shape: a string its length plus a
 * header, an array or object its slots plus a header. It errs high (V8 shares some short strings:
 * burn's files measure 0.5–0.75 of it), so a cache bounded by it holds no more than it says.
 */
export function heldBytes(lines: readonly IndexLine[]): number {
  const STR = 24;
  const OBJ = 48;
  let n = 32 + 8 * lines.length;
  const strings = (xs: readonly string[]) => {
    let s = 32 + 8 * xs.length;
    for (const x of xs) s += STR + x.length;
    return s;
  };
  const table = (t: Record<string, string[]> | undefined) => {
    if (!t) return 0;
    let s = OBJ;
    for (const k in t) s += 16 + STR + k.length + strings(t[k]!);
    return s;
  };
  for (const l of lines) {
    n += OBJ + 6 * 8 + STR * 2 + l.name.length + l.vers.length + 32 + 8 * l.deps.length;
    for (const d of l.deps)
      n +=
        OBJ +
        8 * 8 +
        STR * 2 +
        d.name.length +
        d.req.length +
        (d.package?.length ?? 0) +
        (d.target?.length ?? 0) +
        strings(d.features);
    n += table(l.features) + table(l.features2);
  }
  return n;
}
