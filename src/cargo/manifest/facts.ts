// The questions the shell asks about a manifest before deciding what to read next, answered from
// the manifest model (never from regular expressions over TOML, which miss `[dependencies.burn]`
// tables, renames and multi-line inline tables).
import { isBurnDependency } from "./burn-version.js";
import { effectiveDecl, type Manifest, parseManifest } from "./manifest.js";

/** All false when the text does not parse (or was refused). */
export interface ManifestFacts {
  /** Has a `[workspace]` table. */
  isWorkspaceRoot: boolean;
  /** `[workspace.dependencies]` declares a burn crate. */
  workspaceBurn: boolean;
  /** A burn crate is declared with `workspace = true`. */
  inheritsBurn: boolean;
  /** Some dependency is `workspace = true`: without the root, it may be burn under another name. */
  inheritsAny: boolean;
}

export function manifestFacts(text: string): ManifestFacts {
  try {
    const m = parseManifest(text);
    const inherited = m.dependencies.filter((d) => d.inherits);
    return {
      isWorkspaceRoot: m.isWorkspaceRoot,
      workspaceBurn: m.workspaceDependencies.some(isBurnDependency),
      inheritsBurn: inherited.some(isBurnDependency),
      inheritsAny: inherited.length > 0,
    };
  } catch {
    return { isWorkspaceRoot: false, workspaceBurn: false, inheritsBurn: false, inheritsAny: false };
  }
}

/** The member inherits a dependency that is burn in the root (renames included: `nn = { package = "burn" }`). */
export function inheritsBurnFrom(member: string, root: Manifest): boolean {
  try {
    return parseManifest(member).dependencies.some((d) => d.inherits && isBurnDependency(effectiveDecl(d, root)));
  } catch {
    return false;
  }
}

/**
 * The manifest declares a burn crate wherever cargo reads one: normal, dev, build and
 * target-specific tables, `[workspace.dependencies]`, renames (`nn = { package = "burn" }`), and
 * `workspace = true` entries that are burn in `root`. Only text that does not parse is read
 * leniently, so that its syntax error still reaches the user rather than the file being skipped.
 */
export function declaresBurn(text: string, root: Manifest | null = null): boolean {
  try {
    const m = parseManifest(text);
    return [...m.dependencies, ...m.workspaceDependencies].some((d) =>
      isBurnDependency(root && d.inherits ? effectiveDecl(d, root) : d),
    );
  } catch {
    return /\bburn(?:-[a-z0-9-]+)?\b/.test(text);
  }
}

/** The burn crates these manifests declare (with `burn` always first): where an index read starts. */
export function burnCratesDeclared(texts: string[]): string[] {
  const names = new Set(["burn"]);
  for (const text of texts) {
    try {
      const m = parseManifest(text);
      for (const d of [...m.dependencies, ...m.workspaceDependencies]) if (isBurnDependency(d)) names.add(d.name);
    } catch {
      // A manifest that does not parse gets its error reported; it names no crate to read.
    }
  }
  return [...names];
}
