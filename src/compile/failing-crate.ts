// Whether the crate rustc failed to compile is a dependency, as a claim with its proof. A crate is
// a dependency only when the text shows it is one: cargo built it from a registry or a git
// checkout (`Compiling yolo-burn v0.3.2`, `Compiling x v0.1.0 (https://…#abc)`), its error sits
// under `~/.cargo/registry`, `~/.cargo/git/checkouts` or `vendor/`, or the pasted manifest
// declares it. A crate cargo built from a local path (`Compiling myapp v0.3.0 (/home/…/myapp)`)
// is the reporter's own (or theirs to edit): never called a dependency.

import { MAX_INPUT } from "../panics/detect.js";

/** The failing crate is a dependency; `proof` is the line of the text that shows it. */
export interface DependencyClaim {
  name: string;
  proof: string;
}

const NAME = "[A-Za-z0-9_-]{1,64}";
const norm = (n: string) => n.replace(/_/g, "-");

/**
 * The `-->` line of an error in a registry source (`registry/src/<index>/<crate>-<version>/src/…`),
 * a git checkout (`git/checkouts/<repo>-<hash>/<rev>/[<dir>/…/<crate>/]src/…`) or a vendored crate
 * (`vendor/<crate>/src/…`), with the crate's folder name.
 */
function locatedInDependency(head: string): DependencyClaim | null {
  for (const m of head.matchAll(/-->[ \t]*(\S+)/g)) {
    const segs = m[1]!.split(/[\\/]/);
    const src = segs.lastIndexOf("src");
    if (src < 1) continue;
    const name = crateDir(segs, src);
    if (name && new RegExp(`^${NAME}$`).test(name)) return { name, proof: m[0].trim() };
  }
  return null;
}

function crateDir(segs: string[], src: number): string | null {
  const at = (i: number) => segs[i]?.toLowerCase();
  for (let i = 0; i < src; i++) {
    // registry/src/<index>/<crate>-<version>/src
    if (at(i) === "registry" && at(i + 1) === "src" && src === i + 4)
      return segs[i + 3]!.replace(/-\d+\.\d+\.\d+\S*$/, "");
    // git/checkouts/<repo>-<hash>/<rev>/src, or …/<rev>/<dirs>/<crate>/src
    if (at(i) === "git" && at(i + 1) === "checkouts" && src >= i + 4)
      return src === i + 4 ? segs[i + 2]!.replace(/-[0-9a-f]{6,}$/, "") : segs[src - 1]!;
    if (at(i) === "vendor" && src >= i + 2) return segs[src - 1]!;
  }
  return null;
}

/**
 * cargo's `Compiling NAME vX` line for `name`: without a source in parentheses it came from a
 * registry; `(https://…)`/`(git+…)` from git; any other parenthesis is a local path.
 */
function compilingLine(head: string, name: string): { line: string; dependency: boolean } | null {
  const re = new RegExp(
    `^[ \\t]*(?:Compiling|Checking)[ \\t]+(${NAME})[ \\t]+v\\d[^\\s]*(?:[ \\t]+\\(([^)\\n]*)\\))?`,
    "gm",
  );
  for (const m of head.matchAll(re)) {
    if (norm(m[1]!) !== norm(name)) continue;
    const source = m[2];
    const remote = source === undefined || /^(?:https?:|git\+|ssh:|registry\+|sparse\+)/.test(source.trim());
    return { line: m[0].trim(), dependency: remote };
  }
  return null;
}

/**
 * The crate that failed, when the text proves it is a dependency (not burn's: burn's own crates
 * are answered as burn). null when it is the reporter's own, a local path crate, or nothing shows.
 * `own`: the pasted manifest's package name; `declared`: the dependency names it declares.
 */
export function dependencyClaim(
  text: string,
  own: string | null,
  declared: readonly string[] = [],
): DependencyClaim | null {
  const head = text.length > MAX_INPUT ? text.slice(0, MAX_INPUT) : text;
  const failed = new RegExp(`could not compile \`(${NAME})\``).exec(head);
  const located = locatedInDependency(head);
  const name = failed?.[1] ?? located?.name ?? null;
  if (!name || /^burn(?:-|$)/.test(name)) return null;
  if (own !== null && norm(name) === norm(own)) return null;
  if (located && norm(located.name) === norm(name)) return located;
  const compiling = compilingLine(head, name);
  if (compiling) return compiling.dependency ? { name, proof: compiling.line } : null;
  const decl = declared.find((d) => norm(d) === norm(name));
  return decl ? { name, proof: `${decl} in the pasted [dependencies]` } : null;
}

/** The failing crate's name when it is a proven dependency (see `dependencyClaim`). */
export function failingCrate(text: string, own: string | null, declared: readonly string[] = []): string | null {
  return dependencyClaim(text, own, declared)?.name ?? null;
}
