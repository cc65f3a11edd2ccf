// What a pasted Cargo.lock says about who brings a crate into the build, as `cargo tree -i` would:
// the chain from the lock's root package down to it. Pure and linear in the lock's length (a lock
// is outside input): one pass over its lines, one reverse walk over its packages, both capped.
import * as semver from "../../util/semver.js";

export interface LockPackage {
  name: string;
  version: string;
  /** As the lock writes them: `name`, or `name version` when the lock holds several versions. */
  dependencies: string[];
}

/** Packages read from one lock; a longer lock is read up to here (its root comes first anyway). */
export const MAX_LOCK_PACKAGES = 20_000;

const QUOTED = /"([^"]*)"/g;

/** The `[[package]]` entries of a lock's text, fragments included (a package cut off is kept as read). */
export function lockPackages(text: string): LockPackage[] {
  const out: LockPackage[] = [];
  let current: LockPackage | null = null;
  let inDeps = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "[[package]]") {
      if (out.length >= MAX_LOCK_PACKAGES) break;
      current = { name: "", version: "", dependencies: [] };
      out.push(current);
      inDeps = false;
      continue;
    }
    if (!current) continue;
    const kv = /^(name|version|dependencies)\s*=\s*(.*)$/.exec(line);
    if (kv?.[1] === "name") current.name = /^"([^"]*)"/.exec(kv[2]!)?.[1] ?? "";
    else if (kv?.[1] === "version") current.version = /^"([^"]*)"/.exec(kv[2]!)?.[1] ?? "";
    else if (kv?.[1] === "dependencies") inDeps = !kv[2]!.includes("]");
    if (kv?.[1] === "dependencies" || (inDeps && !kv)) {
      for (const m of (kv ? kv[2]! : line).matchAll(QUOTED)) current.dependencies.push(m[1]!);
      if (!kv && line.includes("]")) inDeps = false;
    }
  }
  return out.filter((p) => p.name !== "" && p.version !== "");
}

const key = (p: { name: string; version: string }) => `${p.name} ${p.version}`;

/** Each package's dependents, by `name version`. A dependency the lock names without a version is its only one. */
function dependents(pkgs: LockPackage[]): Map<string, string[]> {
  const push = (m: Map<string, string[]>, k: string, v: string) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  const byName = new Map<string, string[]>();
  for (const p of pkgs) push(byName, p.name, key(p));
  const up = new Map<string, string[]>();
  for (const p of pkgs)
    for (const d of p.dependencies) {
      const [name, version] = d.split(" ");
      const only = byName.get(name!);
      const target = version ? `${name} ${version}` : only?.length === 1 ? only[0]! : null;
      if (target) push(up, target, key(p));
    }
  return up;
}

/**
 * The chain from a package nothing depends on (the lock's root) down to `name` (its newest version
 * in the lock that is at least `since`), as `name version` strings; null when the lock does not
 * hold it or shows nothing above it.
 */
export function broughtBy(pkgs: LockPackage[], name: string, since: string | null = null): string[] | null {
  const candidates = pkgs
    .filter((p) => p.name === name && semver.valid(p.version) && (!since || !semver.lt(p.version, since)))
    .sort((a, b) => semver.compare(b.version, a.version));
  if (candidates.length === 0) return null;
  const up = dependents(pkgs);
  const start = key(candidates[0]!);
  const via = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    const parents = up.get(at) ?? [];
    if (parents.length === 0 && at !== start) return chain(via, at);
    for (const p of parents)
      if (!via.has(p)) {
        via.set(p, at);
        queue.push(p);
      }
  }
  return null;
}

/** The path from `root` back down to where the walk started. */
function chain(via: Map<string, string | null>, root: string): string[] {
  const out: string[] = [];
  for (let at: string | null = root; at !== null; at = via.get(at) ?? null) out.push(at);
  return out;
}
