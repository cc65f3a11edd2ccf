// burn's version at each side of a change when a path dependency points to a burn checkout whose
// manifests were read (its crate's `version`, or `version.workspace` through the checkout's root),
// as `why` reads it: a review judges that release's graph instead of assuming main's. Pure.
import type { ManifestFile } from "../cargo/fix/fix.js";
import { burnPathVersion } from "../cargo/manifest/path-version.js";

type Files = Record<string, string | null>;

/** The version a side's path dependency on burn names, read from that side's files (null: none read). */
export function pathPin(side: Files, path: string, text: string | null, root: ManifestFile | null) {
  const version = text === null ? null : burnPathVersion(path, text, root, (p) => side[p] ?? null);
  return version ? { burnVersion: version, burnVersionSource: "path-version" as const } : null;
}

/** A member's pins under a changed root (the root's text at each side; null where it is absent). */
export function memberPins(
  files: { head: Files; base: Files },
  rootPath: string,
  m: { path: string; head: string; base: string | null },
  root: { head: string | null; base: string | null },
) {
  const at = (text: string | null) => (text === null ? null : { path: rootPath, text });
  return {
    head: pathPin(files.head, m.path, m.head, at(root.head)),
    base: pathPin(files.base, m.path, m.base ?? m.head, at(root.base)),
  };
}
