// rustc's errors for a `burn::…` item the build does not have, as `cargo build`, `cargo run` and
// `cargo test` print them (with or without colours, in CI logs, in issue forms): the path the
// compiler could not find, reconstructed from the error and the source line it shows. Pure and
// linear; text without an error header costs one `includes`.

import { MAX_INPUT } from "../panics/detect.js";
import { cleanText, type Has, holds, someWhere, textLookup } from "../panics/normalize.js";
import { usePaths } from "./use-tree.js";

export { failingCrate } from "./failing-crate.js";

export interface CompileFinding {
  code: "E0432" | "E0433" | "E0412" | "E0422" | "E0425" | "E0277" | "E0599";
  /**
   * The `burn::…` path that does not exist in the build (for E0277: the impl's key; for E0599:
   * `Type::item`, the type as rustc printed it without generics, full or trimmed).
   */
  path: string;
  /** The whole path is known to be the missing one (not only a prefix of a longer import). */
  exact: boolean;
  /** E0599: a method or associated item of a type, looked up among the release's gated members. */
  member?: true;
  /** The error line as printed, without colours. */
  printed: string;
  /** The user's file and line rustc pointed at, when shown. */
  at: string | null;
  /** rustc ≥ 1.8x's `note: found an item that was configured out`, when it names a feature of a burn crate. */
  note: ConfiguredOut | null;
}

/**
 * The strongest fact a log holds: rustc read the user's burn and names the `#[cfg]` that removed
 * the item and the feature behind it, at the release that was built.
 */
export interface ConfiguredOut {
  crate: string;
  /** The crate's version, from its registry path (null for a git or path checkout). */
  version: string | null;
  /** Repository path of the file (`crates/burn/src/lib.rs`) and the `#[cfg]` line in it. */
  file: string;
  cfgLine: number;
  feature: string;
  /** The `#[cfg(…)]` predicate rustc printed on that line, as printed (null: not on one line). */
  cfg: string | null;
}

const NOTE_PATH =
  /[\\/](burn(?:-[a-z][a-z0-9]*)*?)(?:-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?))?[\\/]src[\\/]([^\s:]+\.rs):\d+:\d+/;

/** The configured-out note of one error block, when it names a burn crate's feature. */
function configuredOut(b: string): ConfiguredOut | null {
  const at = b.indexOf("found an item that was configured out");
  if (at < 0) return null;
  const rest = b.slice(at, at + 1200);
  const where = /-->\s*(\S+)/.exec(rest);
  const path = where ? NOTE_PATH.exec(where[1]!) : null;
  const cfg =
    /(?:^|\n)[^\S\n]*(\d+)\s*\|\s*#\[cfg\(([^\n]*)\)\][^\S\n]*(?:\n|$)|(?:^|\n)[^\S\n]*(\d+)\s*\|\s*#\[cfg\(/.exec(
      rest,
    );
  const feature = /the item is gated behind the `([A-Za-z0-9_+.-]+)` feature/.exec(rest);
  if (!path || !cfg || !feature) return null;
  const crate = path[1]!;
  return {
    crate,
    version: path[2] ?? null,
    file: `crates/${crate}/src/${path[3]!.replace(/\\/g, "/")}`,
    cfgLine: Number(cfg[1] ?? cfg[3]),
    feature: feature[1]!,
    cfg: cfg[2] ?? null,
  };
}

/** The errors read here (`E0433`, …): a path, an import, a type or a method a feature gates. */
const CODES: readonly string[] = ["432", "433", "412", "422", "425", "277", "599"];
/**
 * Every error this reads names `burn::…`, `` `burn` `` (raw, Markdown-escaped, as an HTML entity
 * or behind a colour code) or the AutodiffBackend impl: a log about other crates costs the header
 * check and one regex test, not a cleaning pass (most rustc logs on burn's tracker are about the
 * user's own code). E0599 is the exception: rustc prints a type by its bare name when that name
 * is unique in the build (`DispatchDevice`, `PathFilter`), so the block cannot be told to be burn's.
 */
const MENTIONS = /burn(?:::|\\?`|&|\x1b)|AutodiffBackend|error\[E0599\]/;
const HEADER = new RegExp(`error\\[(E0(?:${CODES.join("|")}))\\]: ([^\\n]{0,400})`, "g");

/**
 * Whether the text holds one of these errors' headers (`error[E0433]`), looked at only where `[E0`
 * occurs, which prose seldom holds. A burn issue with a rustc error of the user's own code
 * (`error[E0308]`) passes the lookups, and the regular expression's scan of it was 6% of the plan.
 */
export function anyHeader(text: string): boolean {
  return someWhere(
    text,
    "[E0",
    // (Before the fifth character `startsWith` reads from 0, where `error` cannot overlap `[`.)
    (at) =>
      text.charCodeAt(at + 6) === 0x5d /* ] */ &&
      text.startsWith("error", at - 5) &&
      CODES.includes(text.slice(at + 3, at + 6)),
  );
}

/** How far after a header its labels, `-->` and source lines are read. */
const BLOCK = 2000;
const MAX_FINDINGS = 20;
/** Headers looked at: a log of thousands of errors is answered from its first ones. */
const MAX_HEADERS = 200;
const PATH = /^burn(?:::[A-Za-z_][A-Za-z0-9_]*)+$/;

/** The text of one error: from its header to the next error (or BLOCK characters). */
function block(text: string, from: number): string {
  const rest = text.slice(from, from + BLOCK);
  const next = rest.search(/\n\s*(?:error|warning)(?:\[E\d{4}\])?: /);
  return next > 0 ? rest.slice(0, next) : rest;
}

/** The source lines rustc prints in one error (`12 | use burn::train::Learner;`), one per line. */
function gutter(b: string): string[] {
  const out: string[] = [];
  for (const line of b.split("\n")) {
    // `12 | use …`, also behind a CI log's timestamp column.
    const m = /(?:^|\s)\d+\s+\|(.*)$/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** The `burn::…` paths in the printed source lines. */
function sourcePaths(b: string): string[] {
  return gutter(b).flatMap((line) => [...line.matchAll(/\bburn(?:::[A-Za-z_][A-Za-z0-9_]*)+/g)].map((p) => p[0]));
}

/**
 * What the printed `use` declarations import through `module`, the path rustc could not find
 * (`burn::backend` of `use burn::backend::{Autodiff, Wgpu};`): each must exist after the fix,
 * or the user meets the next error. Not exact: an import the data does not list is judged by
 * its nearest gated ancestor. src/compile/analyze.ts names the module or the imports, whichever
 * says what the fix needs.
 */
function importsThrough(b: string, module: string): string[] {
  return usePaths(gutter(b).join("\n")).filter((p) => p.startsWith(`${module}::`));
}

/** `burn::a::b::c` cut after the segment `x` that follows `y` (`y` = `burn` for the root). */
function cutAt(path: string, y: string, x: string): string | null {
  const segs = path.split("::");
  for (let i = 0; i + 1 < segs.length; i++)
    if (segs[i] === y && segs[i + 1] === x) return segs.slice(0, i + 2).join("::");
  return null;
}

/** `could not find `X` in `Y`` / `no `X` in `Y``: the first segment that is missing. */
function missingSegment(b: string): { x: string; y: string } | null {
  const m =
    /(?:could not find|no) `([A-Za-z_][A-Za-z0-9_]*)` in `([A-Za-z_][A-Za-z0-9_]*)`/.exec(b) ??
    /no `([A-Za-z_][A-Za-z0-9_]*)` in the root/.exec(b);
  return m ? { x: m[1]!, y: m[2] ?? "burn" } : null;
}

function location(b: string): string | null {
  return /-->\s*([^\s:]+\.rs:\d+:\d+)/.exec(b)?.[1] ?? null;
}

/**
 * rustc's E0599 shapes: "no method named `x` found for struct `T<…>`", "no function or associated
 * item named `x` …", "no variant or associated item named `x` found for enum `T`". The item does
 * exist when rustc says so (an associated function called as a method, another receiver, a trait
 * not in scope or its bounds unmet): then no feature is missing, and null.
 */
const MEMBER =
  /no (?:method|function or associated item|variant or associated item|associated item) named `([A-Za-z_][A-Za-z0-9_]*)` found for (?:struct|enum|union|trait|type|reference|mutable reference) `&?(?:mut )?((?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*)/;
const EXISTS =
  /this is an associated function, not a method|found the following associated functions|the method was found for|items from traits can only be used if|but its trait bounds were not satisfied|is a field, not a method/;

function memberOf(message: string, b: string): string | null {
  const m = MEMBER.exec(message);
  if (!m || EXISTS.test(b)) return null;
  const type = m[2]!;
  // A path of another crate (`ndarray::ArrayBase`) is not burn's; a bare name may be.
  if (type.includes("::") && !type.startsWith("burn::")) return null;
  return `${type}::${m[1]!}`;
}

/**
 * The names a manifest in the text gives burn (`burn2 = { package = "burn", … }`,
 * `[dependencies.nn]` with `package = "burn"`, `nn.package = "burn"`), as Rust code writes them
 * (`-` → `_`): rustc prints the dependency's name, `could not find `train` in `burn2``.
 */
export function burnAliases(text: string): string[] {
  if (!holds(text, "package")) return [];
  const out = new Set<string>();
  const forms = [
    /^[^\S\n]*([A-Za-z0-9_-]{1,64})[^\S\n]*=[^\S\n]*\{[^}\n]{0,400}\bpackage[^\S\n]*=[^\S\n]*["']burn["']/gm,
    /^[^\S\n]*\[(?:[A-Za-z0-9_.'"-]{0,200}\.)?dependencies\.([A-Za-z0-9_-]{1,64})\][^[]{0,400}?\bpackage[^\S\n]*=[^\S\n]*["']burn["']/gm,
    /^[^\S\n]*([A-Za-z0-9_-]{1,64})\.package[^\S\n]*=[^\S\n]*["']burn["']/gm,
  ];
  for (const re of forms) for (const m of text.matchAll(re)) if (m[1] !== "burn") out.add(m[1]!.replace(/-/g, "_"));
  return [...out].slice(0, 8);
}

/**
 * Whether a raw text may hold one of these errors: an error header (`[E0`), then the pieces MENTIONS
 * needs. `[` is rare in prose, so a text without a rustc error skips the scan for `burn`, whose
 * common `b` costs 7 µs over 64 KiB; a log about other crates has none of the pieces, and three
 * memchr-speed scans cost less than the alternation (12 µs on a 48 KiB log). A manifest that
 * renames burn names it (`package = "burn"`).
 */
export function mayMentionGated(has: Has): boolean {
  return has("[E0") && (has("burn") || has("AutodiffBackend") || has("E0599"));
}

export function detectCompile(input: string): CompileFinding[] {
  const head = input.length > MAX_INPUT ? input.slice(0, MAX_INPUT) : input;
  const has = textLookup(head);
  if (!mayMentionGated(has) || !anyHeader(head)) return [];
  // Without "burn" in the text there is no alias to look for.
  const aliases = has("burn") ? burnAliases(head) : [];
  if (aliases.length === 0 && !MENTIONS.test(head)) return [];
  const text = cleanText(head);
  // Paths are read with the alias spelled `burn` (what the data keys); what rustc printed is kept.
  const alias = aliases.length > 0 ? new RegExp(`\\b(?:${aliases.join("|")})(?=::|\`)`, "g") : null;
  const asBurn = (s: string) => (alias ? s.replace(alias, "burn") : s);
  const out: CompileFinding[] = [];
  const seen = new Set<string>();
  const push = (f: CompileFinding) => {
    const key = `${f.code} ${f.path}`;
    if (seen.has(key) || out.length >= MAX_FINDINGS) return;
    seen.add(key);
    out.push(f);
  };
  let headers = 0;
  for (const m of text.matchAll(HEADER)) {
    if (++headers > MAX_HEADERS || out.length >= MAX_FINDINGS) break;
    const code = m[1] as CompileFinding["code"];
    const raw = block(text, m.index! + m[0].length);
    // A message wrapped by a terminal or an editor goes on, on the next line (unless that line is
    // rustc's own `-->` or `|` gutter).
    // (A CI log's timestamp column is not part of the next line's text.)
    const next = /^\n(?:> ?)*(?:\d{4}-\d\d-\d\dT[\d:.]+Z )?([^\n]{0,200})/.exec(raw)?.[1] ?? "";
    const head = m[2]!.trimEnd();
    const wrapped =
      next !== "" &&
      !/^\s*(?:-->|\||\d+\s+\||=|error|warning)/.test(next) &&
      ((head.match(/`/g)?.length ?? 0) % 2 === 1 || /\bin$|:$|\bfind$|\bmodule$/.test(head));
    const printed = (wrapped ? `${m[2]!.trimEnd()} ${next.trim()}` : m[2]!).replace(/\s+$/, "");
    const base = { code, printed: `error[${code}]: ${printed}`, at: location(raw), note: configuredOut(raw) };
    const message = asBurn(printed);
    const b = asBurn(raw);
    if (code === "E0432") {
      const missing = missingSegment(b);
      for (const p of message.matchAll(/`([^`]+)`/g)) {
        const path = p[1]!.replace(/^::/, "");
        if (!PATH.test(path)) continue;
        const cut = missing ? cutAt(path, missing.y, missing.x) : null;
        push({ ...base, path: cut ?? path, exact: cut !== null });
        for (const i of importsThrough(b, cut ?? path)) push({ ...base, path: i, exact: false });
      }
    } else if (code === "E0433") {
      // rustc ≤ 1.8x: "failed to resolve: could not find `x` in `y`"; 1.9x: "cannot find `x` in `y`".
      const r = /(?:could not find|cannot find) `([A-Za-z_][A-Za-z0-9_]*)` in `([A-Za-z_][A-Za-z0-9_]*)`/.exec(message);
      if (!r) continue;
      const [x, y] = [r[1]!, r[2]!];
      const full = sourcePaths(b)
        .map((p) => cutAt(p, y, x))
        .find((p): p is string => p !== null);
      const path = full ?? (y === "burn" ? `burn::${x}` : null);
      if (!path) continue;
      push({ ...base, path, exact: true });
      for (const i of importsThrough(b, path)) push({ ...base, path: i, exact: false });
    } else if (code === "E0599") {
      const member = memberOf(message, b);
      if (member) push({ ...base, path: member, exact: true, member: true });
    } else if (code === "E0277") {
      const t = /the trait bound `([^`]*\bDispatch\b[^`]*): ([^`]*\bAutodiffBackend)` is not satisfied/.exec(message);
      if (t) push({ ...base, path: "<Dispatch as AutodiffBackend>", exact: true });
    } else {
      const r = /cannot find [a-z ,]+ `([A-Za-z_][A-Za-z0-9_]*)` in module `(burn(?:::[A-Za-z_][A-Za-z0-9_]*)*)`/.exec(
        message,
      );
      if (r) push({ ...base, path: `${r[2]}::${r[1]}`, exact: true });
    }
  }
  return out;
}
