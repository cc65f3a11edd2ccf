// The one pure evidence step: everything a text shows that the answer depends on, read once.
// Panics, the feature family and rustc errors all take their release and manifests from here.

import { isBurnDependency } from "../cargo/manifest/burn-version.js";
import { extractSnippets, type Snippet, shownText } from "../cargo/manifest/extract.js";
import { manifestFacts } from "../cargo/manifest/facts.js";
import { parseManifest } from "../cargo/manifest/manifest.js";
import { type CargoTree, cargoTreeOf } from "./cargo-tree.js";
import { type TextVersions, textVersions } from "./version.js";

/**
 * What a paste that does not set burn's features still shows: a `[features]` table that
 * forwards to `burn/…` proves a burn dependency the paste left out; a `burn = { workspace =
 * true }` line (`inherits`: its key) takes version and defaults from a root the text lacks.
 */
export interface FragmentShown {
  forwards: string[];
  inherits?: string;
}

export interface Evidence {
  /** Releases the text names, by where it names them (src/evidence/version.ts orders them). */
  versions: TextVersions;
  /** Pasted manifests (whole or fragments) and Cargo.lock texts, in order. */
  snippets: Snippet[];
  /** The first paste that does not set burn's features (no burn line, or an inherited one), with what it shows. */
  fragment: FragmentShown | null;
  /** A pasted `cargo tree` rooted at a burn crate: its version and, with `-e features`, its features. */
  tree: CargoTree | null;
}

function firstFragment(snippets: Snippet[]): FragmentShown | null {
  // A pasted workspace root answers for the members that inherit from it (find-manifest.ts).
  const hasRoot = snippets.some((s) => s.kind === "manifest" && manifestFacts(s.text).isWorkspaceRoot);
  for (const s of snippets) {
    if (s.kind !== "manifest") continue;
    try {
      const m = parseManifest(s.text);
      const burn = m.dependencies.filter(isBurnDependency);
      if (!hasRoot && burn.length > 0 && burn.every((d) => d.inherits)) return { forwards: [], inherits: burn[0]!.key };
      if (s.whole || burn.length > 0) continue;
      return {
        forwards: [
          ...new Set(
            Object.values(m.features)
              .flat()
              .filter((f) => /^burn(?:-[a-z0-9-]+)?\??\//.test(f)),
          ),
        ],
      };
    } catch {
      // A fragment that does not parse shows nothing; its error is reported with the manifest.
    }
  }
  return null;
}

/** `repoLock`: the repository's Cargo.lock, when the shell read one. */
export function gatherEvidence(text: string, repoLock?: string | null): Evidence {
  // An issue template's example inside an HTML comment is not the reporter's: every entry (the
  // CLI's file, a command's comment, an issue) is read as GitHub shows it.
  const shown = shownText(text);
  const snippets = extractSnippets(shown);
  return {
    versions: textVersions(shown, repoLock),
    snippets,
    fragment: firstFragment(snippets),
    tree: cargoTreeOf(shown),
  };
}
