// The gate of a `burn::…` path read from burn's source at one release, for releases newer than
// the gated-path data: name resolution from `crates/burn/src/lib.rs` through `mod` declarations,
// `pub use` re-exports (named and glob) across burn's crates, to the item, collecting every
// `#[cfg(...)]` on the way as the data's `gate` does. Pure: files come from `read`, and what is
// not read yet is asked for (`need`); the shell reads them and asks again. "absent" is said only
// when every module and glob on the way was read and none hides names (macros, external crates).

import { memberSite } from "./impl-items.js";
import { type RustItem, type RustModule, rustItems } from "./rust-items.js";

/** A file at the release: its text, null when the release has no such file, undefined when not read yet. */
export type ReadFile = (path: string) => string | null | undefined;

export interface GateTerm {
  crate: string;
  /** The `#[cfg]` predicate, its features qualified by the crate (`feature = "burn-core/std"`). */
  cfg: string;
  /** The same predicate as the source writes it; null for one made here (cfg-exclusive definitions). */
  written: string | null;
  file: string;
  line: number;
  cfgLine: number;
}

export type SourceGate =
  | { kind: "gated"; gate: string; terms: GateTerm[] }
  | { kind: "ungated" }
  | { kind: "absent" }
  | { kind: "need"; files: string[] }
  | { kind: "unknown"; why: string };

interface Mod {
  crate: string;
  /** The file the module is written in, and the folder its file children are in. */
  file: string;
  dir: string;
  items: RustModule;
  parent: Mod | null;
}

type Res =
  | { k: "found"; terms: GateTerm[] }
  | { k: "external"; terms: GateTerm[] }
  | { k: "absent" }
  | { k: "need" }
  | { k: "unknown"; why: string };

export const MAX_PATH_STEPS = 4000;
const MAX_DEPTH = 48;

/**
 * The steps one event's paths share. burn's real paths take at most about 90 lookups each (every
 * gated path at 0.16–0.22), so this is dozens of them; without it, an event's paths each took
 * their own MAX_PATH_STEPS over hostile files (64 paths held the event loop 218 ms), and at
 * 16,000 two lib.rs globbing each other still held it 58 ms idle. A path past either is unknown.
 */
export const EVENT_STEPS = 8000;

export interface StepBudget {
  left: number;
}

export const stepBudget = (): StepBudget => ({ left: EVENT_STEPS });

/** burn's own crates, by the name Rust code uses (`burn_core`): the ones resolution follows. */
const WORKSPACE_CRATE = /^burn(?:_[a-z0-9]+)*$/;

export function qualify(cfg: string, crate: string): string {
  return cfg.replace(/\bfeature\s*=\s*"([^"]+)"/g, (_, f: string) => `feature = "${crate}/${f}"`);
}

/** A module's items by name, and its globs: built once per module, so a lookup does not scan the module. */
const indexes = new WeakMap<RustModule, { byName: Map<string, RustItem[]>; globs: RustItem[] }>();
function indexOf(m: RustModule) {
  let ix = indexes.get(m);
  if (!ix) {
    ix = { byName: new Map(), globs: [] };
    for (const i of m.items)
      if (i.import?.glob) ix.globs.push(i);
      else if (i.name !== null) {
        const same = ix.byName.get(i.name);
        if (same) same.push(i);
        else ix.byName.set(i.name, [i]);
      }
    indexes.set(m, ix);
  }
  return ix;
}

function gateOf(terms: GateTerm[]): string {
  return terms.length === 1 ? terms[0]!.cfg : `all(${terms.map((t) => t.cfg).join(", ")})`;
}

function combine(results: Res[]): Res {
  if (results.some((r) => r.k === "need")) return { k: "need" };
  const found = results.filter((r): r is Res & { k: "found" | "external" } => r.k === "found" || r.k === "external");
  if (found.length > 0) {
    if (found.some((f) => f.terms.length === 0)) return { k: "found", terms: [] };
    const gates = [...new Set(found.map((f) => gateOf(f.terms)))];
    if (gates.length === 1) return { k: "found", terms: found[0]!.terms };
    // cfg-exclusive definitions of one name (burn-wgpu's `Wgpu` with and without fusion).
    const first = found[0]!.terms.at(-1)!;
    return { k: "found", terms: [{ ...first, cfg: `any(${gates.join(", ")})`, written: null }] };
  }
  const unknown = results.find((r) => r.k === "unknown");
  return unknown ?? { k: "absent" };
}

/**
 * The segments still to look up, as a list sharing its tail: a glob step put its import's
 * segments before the rest, and copying the rest each step made a step cost the depth.
 */
type Segs = { head: string; tail: Segs } | null;

/** `xs[from..]` then `rest`. */
function prepend(xs: readonly string[], from: number, rest: Segs): Segs {
  let out = rest;
  for (let i = xs.length - 1; i >= from; i--) out = { head: xs[i]!, tail: out };
  return out;
}

/** Parsed files, shared by the paths resolved at one release. */
export type ParsedFiles = Map<string, RustModule | null>;

class Resolver {
  readonly need = new Set<string>();
  private steps = 0;
  /** Crate roots met so far: a glob into another crate is a step, and each step made its root anew. */
  private readonly roots = new Map<string, Mod>();
  constructor(
    private readonly read: ReadFile,
    private readonly parsed: ParsedFiles,
    private readonly budget: StepBudget,
  ) {}

  /** One more step of this path's, and of the event's budget; false once either is spent. */
  private step(): boolean {
    return ++this.steps <= MAX_PATH_STEPS && --this.budget.left >= 0;
  }

  /** The parsed file; undefined when it must be read first, null when the release has none. */
  private load(path: string): RustModule | null | undefined {
    if (this.parsed.has(path)) return this.parsed.get(path)!;
    const text = this.read(path);
    if (text === undefined) {
      this.need.add(path);
      return undefined;
    }
    const items = text === null ? null : rustItems(text);
    this.parsed.set(path, items);
    return items;
  }

  crateRoot(crate: string): Mod | null | undefined {
    const known = this.roots.get(crate);
    if (known) return known;
    const file = `crates/${crate}/src/lib.rs`;
    const items = this.load(file);
    if (!items) return items;
    const root: Mod = { crate, file, dir: `crates/${crate}/src/`, items, parent: null };
    this.roots.set(crate, root);
    return root;
  }

  /** A `mod name;` declared in `m`: `name.rs` or `name/mod.rs` in its folder, as rustc looks. */
  private child(m: Mod, item: RustItem): Mod | null | undefined {
    const name = item.name!;
    if (item.body) return { crate: m.crate, file: m.file, dir: `${m.dir}${name}/`, items: item.body, parent: m };
    if (item.pathAttr) return null;
    const flat = `${m.dir}${name}.rs`;
    const nested = `${m.dir}${name}/mod.rs`;
    // One read at a time: `name/mod.rs` is asked for only when the release has no `name.rs`.
    const a = this.load(flat);
    if (a) return { crate: m.crate, file: flat, dir: `${m.dir}${name}/`, items: a, parent: m };
    if (a === undefined) return undefined;
    const b = this.load(nested);
    if (b) return { crate: m.crate, file: nested, dir: `${m.dir}${name}/`, items: b, parent: m };
    return b;
  }

  /** `terms` and the gate terms of `cfgs` (most items have none: then `terms` itself, not a copy). */
  private gated(terms: GateTerm[], m: Mod, cfgs: string[], line: number, cfgLine: number | null): GateTerm[] {
    return cfgs.length === 0 ? terms : [...terms, ...this.terms(m, cfgs, line, cfgLine)];
  }

  private terms(m: Mod, cfgs: string[], line: number, cfgLine: number | null): GateTerm[] {
    return cfgs.map((c) => ({
      crate: m.crate,
      cfg: qualify(c, m.crate),
      written: c,
      file: m.file,
      line,
      cfgLine: cfgLine ?? line,
    }));
  }

  /** `segs` looked up from module `m`, with the gate met so far; `outside`: only `pub` names count. */
  walk(m: Mod, segs: Segs, terms: GateTerm[], outside: boolean, depth: number): Res {
    if (segs === null) return { k: "found", terms };
    if (!this.step() || depth > MAX_DEPTH) return { k: "unknown", why: "resolution too deep" };
    const seg = segs.head;
    const rest = segs.tail;
    const visible = (i: RustItem) => !outside || i.pub;
    const ix = indexOf(m.items);
    const named = (ix.byName.get(seg) ?? []).filter(visible);
    if (named.length > 0)
      return combine(
        named.map((i) => this.through(m, i, rest, this.gated(terms, m, i.cfgs, i.line, i.cfgLine), depth)),
      );
    const viaGlobs: Res[] = [];
    for (const g of ix.globs) {
      if (!visible(g)) continue;
      // Each glob followed is a step: the cap bounds the loop over a module's globs as well as
      // the recursion (2,000 `pub use x::*;` lines each way once took 9 s for 64 paths).
      if (!this.step()) return { k: "unknown", why: "resolution too deep" };
      const at = this.gated(terms, m, g.cfgs, g.line, g.cfgLine);
      const r = this.path(m, g.import!.segs, segs, at, depth);
      viaGlobs.push(r.k === "external" ? ({ k: "unknown", why: "a glob re-export of another crate" } as const) : r);
    }
    const r = combine(viaGlobs);
    return r.k === "absent" && m.items.opaque ? { k: "unknown", why: "a macro defines items there" } : r;
  }

  private through(m: Mod, item: RustItem, rest: Segs, terms: GateTerm[], depth: number): Res {
    if (item.kind === "mod") {
      const c = this.child(m, item);
      if (c === undefined) return { k: "need" };
      if (c === null) return { k: "unknown", why: "module file not found" };
      return this.walk(c, rest, this.gated(terms, c, c.items.cfgs, 1, 1), true, depth + 1);
    }
    if (item.kind === "def") return rest === null ? { k: "found", terms } : { k: "unknown", why: "inside an item" };
    // A named re-export that ends the path exists wherever its own cfg holds: burn builds at its
    // tags, and rustc rejects a `pub use` of a name that is not there. Its target is not read.
    if (rest === null) return { k: "found", terms };
    return this.path(m, item.import!.segs, rest, terms, depth);
  }

  /** A `use` path written in module `m`, then `rest` (for a glob: the name looked up in its module). */
  private path(m: Mod, segs: string[], rest: Segs, terms: GateTerm[], depth: number): Res {
    const first = segs[0]!;
    const all = prepend(segs, 1, rest);
    // `self::` never reaches here: the use-tree parser drops it (`self::x` is the local `x`).
    if (first === "crate" || first === "super") {
      let start: Mod | null | undefined = m;
      if (first === "crate") while (start.parent) start = start.parent;
      if (first === "super") start = m.parent;
      return start ? this.walk(start, all, terms, false, depth + 1) : { k: "unknown", why: "super of a crate root" };
    }
    // A local module or item first (uniform paths), never the use itself (`pub use burn_core;`).
    if ((indexOf(m.items).byName.get(first) ?? []).some((i) => i.kind !== "use"))
      return this.walk(m, { head: first, tail: all }, terms, false, depth + 1);
    if (!WORKSPACE_CRATE.test(first)) return { k: "external", terms };
    const root = this.crateRoot(first.replaceAll("_", "-"));
    if (root === undefined) return { k: "need" };
    if (root === null) return { k: "unknown", why: `no crate ${first} in the release` };
    return this.walk(root, all, this.gated(terms, root, root.items.cfgs, 1, 1), true, depth + 1);
  }
}

/** Where `path` (`burn::backend::Wgpu`) exists at the release whose files `read` gives. */
export function sourceGate(
  path: string,
  read: ReadFile,
  parsed: ParsedFiles = new Map(),
  budget: StepBudget = stepBudget(),
): SourceGate {
  const segs = path.split("::");
  if (segs[0] !== "burn" || segs.length < 2) return { kind: "unknown", why: "not a burn path" };
  const r = new Resolver(read, parsed, budget);
  const root = r.crateRoot("burn");
  const res: Res =
    root === undefined
      ? { k: "need" }
      : root === null
        ? { k: "unknown", why: "no crates/burn/src/lib.rs" }
        : r.walk(root, prepend(segs, 1, null), [], true, 0);
  if (r.need.size > 0) return { kind: "need", files: [...r.need].sort() };
  if (res.k === "found" || res.k === "external")
    return res.terms.length === 0 ? { kind: "ungated" } : { kind: "gated", gate: gateOf(res.terms), terms: res.terms };
  if (res.k === "absent") return { kind: "absent" };
  return { kind: "unknown", why: res.k === "unknown" ? res.why : "unread files" };
}

/**
 * The gate of `member` of the type at `typePath`, written in `file` (where the gated-path data last
 * saw it): the type's own gate, then the impl block's and the item's `#[cfg]`s. Never "absent": an
 * item not in that file may have moved, so it is unknown.
 */
export function memberSourceGate(
  typePath: string,
  member: string,
  file: string,
  read: ReadFile,
  parsed: ParsedFiles = new Map(),
  budget: StepBudget = stepBudget(),
): SourceGate {
  const crate = /^crates\/([^/]+)\/src\//.exec(file)?.[1];
  if (!crate) return { kind: "unknown", why: `not a crate source file: ${file}` };
  const owner = sourceGate(typePath, read, parsed, budget);
  const src = read(file);
  const need = [...(owner.kind === "need" ? owner.files : []), ...(src === undefined ? [file] : [])];
  if (need.length > 0) return { kind: "need", files: [...new Set(need)].sort() };
  if (owner.kind !== "gated" && owner.kind !== "ungated") return { kind: "unknown", why: `${typePath}: ${owner.kind}` };
  const site = src ? memberSite(src, typePath.split("::").at(-1)!, member) : null;
  if (!site) return { kind: "unknown", why: `${member} is not in ${file}` };
  const terms = [
    ...(owner.kind === "gated" ? owner.terms : []),
    ...site.cfgs.map((c) => ({
      crate,
      cfg: qualify(c.cfg, crate),
      written: c.cfg,
      file,
      line: site.line,
      cfgLine: c.line,
    })),
  ];
  return terms.length === 0 ? { kind: "ungated" } : { kind: "gated", gate: gateOf(terms), terms };
}
