// Which `#[cfg]`s a file of a crate compiles under because of where it is declared: rustc reaches
// `src/downloader.rs` only through `mod downloader;` in `src/lib.rs`, so a `#[cfg(feature =
// "pretrained")]` written on that line (and a `#![cfg]` at the top of lib.rs) gates every line
// of downloader.rs. Pure: the parent files' texts come from the caller's reader.

import { MAX_RUST_FILE, type RustItem, rustItems } from "../compile/rust-items.js";

/** Directories whose files cargo builds as crates of their own (auto-discovered targets). */
const TARGET_DIRS = /^(?:src\/bin|examples|tests|benches)$/;
const MAX_DEPTH = 8;

/** A path relative to the crate is one of its crate roots: no `mod` declares it. */
export function isCrateRoot(rel: string): boolean {
  if (rel === "build.rs" || rel === "src/lib.rs" || rel === "src/main.rs") return true;
  const m = /^(.*)\/([^/]+)$/.exec(rel);
  if (!m) return false;
  if (TARGET_DIRS.test(m[1]!)) return true; // examples/x.rs
  const up = /^(.*)\/[^/]+$/.exec(m[1]!);
  return m[2] === "main.rs" && up !== null && TARGET_DIRS.test(up[1]!); // examples/x/main.rs
}

/** The module a non-root file is (its name) and the files that may declare it, by rustc's rules. */
export function declaredIn(rel: string): { name: string; parents: string[] } | null {
  if (isCrateRoot(rel) || !rel.endsWith(".rs")) return null;
  const segs = rel.split("/");
  const file = segs.pop()!;
  const name = file === "mod.rs" ? segs.pop() : file.slice(0, -3);
  if (!name || segs.length === 0) return null;
  const dir = segs.join("/");
  if (dir === "src") return { name, parents: ["src/lib.rs", "src/main.rs"] };
  const parentName = segs.at(-1)!;
  const above = segs.slice(0, -1).join("/");
  // `examples/x/util.rs` belongs to the crate root `examples/x/main.rs`.
  if (TARGET_DIRS.test(above)) return { name, parents: [`${dir}/main.rs`] };
  return { name, parents: [`${above}/${parentName}.rs`, `${dir}/mod.rs`] };
}

/**
 * The cfgs of the chain of `mod` declarations that reaches `rel` (a path relative to the crate's
 * directory): each declaration's `#[cfg]`s and the declaring file's own `#![cfg]`s, outward. []
 * for a crate root or an unconditional chain; null when the chain cannot be followed (a parent
 * unread or too large, no declaration found, a `#[path]` or `cfg_attr(…, path)` moving the file).
 */
export async function modChainCfgs(
  rel: string,
  exists: (rel: string) => boolean,
  read: (rel: string) => Promise<string | null>,
): Promise<string[] | null> {
  const out: string[] = [];
  let at = rel;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (isCrateRoot(at)) return out;
    const decl = await declaration(at, exists, read);
    if (!decl) return null;
    for (const c of decl.cfgs) if (!out.includes(c)) out.push(c);
    at = decl.parent;
  }
  return null;
}

async function declaration(
  rel: string,
  exists: (rel: string) => boolean,
  read: (rel: string) => Promise<string | null>,
): Promise<{ cfgs: string[]; parent: string } | null> {
  const where = declaredIn(rel);
  if (!where) return null;
  for (const parent of where.parents.filter(exists)) {
    const text = await read(parent);
    if (text === null || text.length > MAX_RUST_FILE) return null;
    const items = rustItems(text);
    const decls = items?.items.filter((i: RustItem) => i.kind === "mod" && i.name === where.name && !i.body) ?? [];
    if (!items || decls.length === 0) continue;
    // Two declarations (one per cfg) or a moved file: which lines reach this file is not known.
    const mod = decls[0]!;
    if (decls.length > 1 || mod.pathAttr) return null;
    return { cfgs: [...mod.cfgs, ...items.cfgs], parent };
  }
  return null;
}
