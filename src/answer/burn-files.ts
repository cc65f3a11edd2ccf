// burn's files at a release tag, as the core asks for them and the shell (contents API, a local
// checkout) gives them: keyed by tag and path; null is a file the tag does not have.

/** A burn file at a tag, to read so that a release newer than the data is answered exactly. */
export interface SourceRead {
  ref: string;
  path: string;
}

/** Files read so far: text, or null when the tag has no such file (a 404, not a failed read). */
export type BurnSources = Record<string, string | null>;

export function sourceKey(ref: string, path: string): string {
  return `${ref}:${path}`;
}

/** At most this many files per event, over every round of reads. */
export const MAX_BURN_SOURCE_READS = 10;

/** The shape of a Rust file of a burn crate (`crates/burn-core/src/backend/mod.rs`): nothing else is read. */
export function isBurnSourcePath(path: string): boolean {
  return /^crates\/burn(?:-[a-z0-9]+)*\/src\/(?:[a-z0-9_]+\/){0,6}[a-z0-9_]+\.rs$/.test(path);
}
