// The fix when no feature of a declared burn crate reaches the target, but the target's crate is
// already in the build (`burn-flex/critical-section`, `burn-store/memmap`: burn forwards no
// feature to them): declare that crate, as `cargo add burn-flex --no-default-features -F
// critical-section` would, at the version the build resolves. Cargo unifies it with the copy burn
// already depends on, so the feature is turned on there. The requirement pins that version
// (`=X`), as burn pins its own crates, and `default-features = false` keeps the feature the only
// thing the new line adds.
import type { Diagnosis } from "../judge/diagnosis.js";
import { DEP_TABLES, type Manifest } from "../manifest/manifest.js";
import type { Table } from "../manifest/toml.js";
import { type Edited, eolOf, lineEnd } from "./edit.js";

/** The declaration the edit adds, as the verifier expects to read it back. */
export interface Declaration {
  key: string;
  version: string;
  features: string[];
}

/** What to declare for this diagnosis, or null when declaring a crate is not the answer. */
export function declarationFor(manifest: Manifest, d: Diagnosis): Declaration | null {
  const { target, state, primary } = d;
  if (d.verdict !== "off" || target.gate || !state.inGraph || !state.version || !primary) return null;
  // The pin is the version of the graph judged: on an assumed release or graph it would pin a
  // version the user's build may not have.
  if (d.assumed.version || d.assumed.graph) return null;
  if (primary.decl.kind !== "normal" || primary.decl.inWorkspaceTable) return null;
  const declared = [...manifest.dependencies, ...manifest.workspaceDependencies];
  if (declared.some((x) => x.name === target.crate || x.key === target.crate)) return null;
  return { key: target.crate, version: `=${state.version}`, features: [target.feature] };
}

/** The line `cargo add --no-default-features -F …` writes. */
export function declarationLine(decl: Declaration): string {
  const features = decl.features.map((f) => JSON.stringify(f)).join(", ");
  return `${decl.key} = { version = ${JSON.stringify(decl.version)}, default-features = false, features = [${features}] }`;
}

/**
 * The edit: the line appended after the last entry of the `[dependencies]` table that declares
 * the primary burn crate (for `[target.….dependencies]`, that table). Null when the primary is not
 * declared in such a table (`[dependencies.burn]` on its own, a dotted key at the top).
 */
export function declarationEdit(manifest: Manifest, d: Diagnosis, decl: Declaration): Edited | null {
  const primary = d.primary!.decl;
  const pair = primary.nodes.pair;
  if (!pair) return null;
  const table = manifest.ast.body[0]?.body.find(
    (n): n is Table => n.type === "TOMLTable" && n.kind === "standard" && n.body.includes(pair),
  );
  if (!table || !isDependencyTable(table.resolvedKey.map(String), primary.target)) return null;
  const last = table.body.at(-1)!;
  const text = manifest.text;
  const eol = eolOf(text);
  // After the entry's line (a trailing comment stays with its entry). A file without a final line
  // break gets the new line before its last entry instead: appended, it would change that entry's
  // line too (`\ No newline at end of file`).
  const end = lineEnd(text, last.range[1]);
  const [at, insert] =
    end < text.length
      ? [end, `${eol}${declarationLine(decl)}`]
      : [text.lastIndexOf("\n", last.range[0]) + 1, `${declarationLine(decl)}${eol}`];
  return { text: text.slice(0, at) + insert + text.slice(at), start: at, end: at };
}

function isDependencyTable(key: string[], target: string | null): boolean {
  const name = key.at(-1)!;
  if (DEP_TABLES[name as keyof typeof DEP_TABLES] !== "normal") return false;
  return target === null ? key.length === 1 : key.length === 3 && key[0] === "target" && key[1] === target;
}
