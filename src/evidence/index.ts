// The one pure evidence step: everything a text shows that the answer depends on, read once.
// Panics, the feature family and rustc errors all take their release and manifests from here.
import { extractSnippets, type Snippet } from "../cargo/extract.js";
import { isBurnDependency } from "../cargo/burn-version.js";
import { parseManifest } from "../cargo/manifest.js";
import { textVersions, type TextVersions } from "./version.js";

/**
 * What a fragment without a burn dependency line still shows: a `[features]` table that
 * forwards to `burn/…` proves a burn dependency the paste left out.
 */
export interface FragmentShown {
  forwards: string[];
}

export interface Evidence {
  /** Releases the text names, by where it names them (src/evidence/version.ts orders them). */
  versions: TextVersions;
  /** Pasted manifests (whole or fragments) and Cargo.lock texts, in order. */
  snippets: Snippet[];
  /** The first pasted fragment that declares no burn crate, with what it does show. */
  fragment: FragmentShown | null;
}

function firstFragment(snippets: Snippet[]): FragmentShown | null {
  for (const s of snippets) {
    if (s.kind !== "manifest" || s.whole) continue;
    try {
      const m = parseManifest(s.text);
      if (m.dependencies.some(isBurnDependency)) continue;
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
  const snippets = extractSnippets(text);
  return { versions: textVersions(text, repoLock), snippets, fragment: firstFragment(snippets) };
}
