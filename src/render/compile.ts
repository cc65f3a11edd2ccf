// The comment for rustc's "cannot find `burn::…`" errors: which paths are gated at the user's
// release and behind what (linked to the `#[cfg]`), why the gate is off in their manifest, and
// the one verified edit that brings every one of them back.

import type { CompileDetail as CompileAnalysis } from "../answer/answer-detail-schema.js";
import type { VersionSource } from "../cargo/manifest/burn-version.js";
import { MAX_REQUIREMENT } from "../cargo/resolve/requirements.js";
import * as semver from "../util/semver.js";
import { andList, code } from "./escape.js";
import { fragmentShows, manifestSection, sourceText } from "./manifest.js";

/** A version or requirement (`0.22.1`, `^0.23`) whose lowest match is newer than `than`. */
function newerThan(named: string, than: string): boolean {
  // node-semver caches every range it parses by its text: a pasted one of kilobytes is not parsed.
  if (named.length > MAX_REQUIREMENT) return false;
  const low = semver.valid(named) ?? semver.minVersion(semver.validRange(named) ?? "0.0.0")?.version ?? null;
  return low !== null && semver.gt(low, than);
}

/**
 * The gating line's `#[cfg]` as burn's source (or the user's rustc) writes it, in its crate. The
 * gate's crate-qualified form (`feature = "burn-tensor/autodiff"`) is the resolver's, not Rust:
 * no cfg can say it, so it is never shown; without the line as written, the gate is not quoted.
 */
function gateText(gate: CompileAnalysis["items"][number]["gate"]): string {
  return gate.cfg ? `sits under ${code(`#[cfg(${gate.cfg})]`)} in ${code(gate.crate)}` : "sits behind a `#[cfg]`";
}

function suggestion(features: string[] | null, { defaults }: { defaults: boolean }): string {
  if (features === null) return `no \`burn\` feature turns it on${defaults ? "" : " without default features"}`;
  if (features.length === 0) return "nothing: it is on with burn's default features";
  return `${code(`features = [${features.map((f) => JSON.stringify(f)).join(", ")}]`)}`;
}

/** Items under one `#[cfg]` are behind one gate: the plural is said only for several. */
const severalGates = (c: CompileAnalysis) => new Set(c.items.map((i) => i.gate.cfg ?? i.path)).size > 1;

function heading(c: CompileAnalysis): string {
  const paths = c.items.map((i) => i.path);
  if (paths.length === 0)
    return c.absent.length === 1
      ? `\`${c.absent[0]}\` does not exist in burn ${c.release.version}`
      : `These \`burn\` items do not exist in burn ${c.release.version}`;
  return paths.length === 1
    ? `\`${paths[0]}\` is behind a cargo feature that is off`
    : `These \`burn\` items are behind ${severalGates(c) ? "cargo features that are" : "a cargo feature that is"} off`;
}

/** What to add when no manifest was read: the data's answer, or the gate itself when it is not burn-data's. */
function unverifiedAdvice(c: CompileAnalysis): string {
  const seen = c.fragment ? `**${fragmentShows(c.fragment)}**` : "**I could not see your Cargo.toml.**";
  const derived = c.items.some((i) => i.gate.from);
  if (derived && (c.suggest.withDefaults === null || c.suggest.noDefaults === null))
    return `${seen} At burn ${code(c.release.version)}, turn on the \`burn\` features that make the gate above hold; show your \`[dependencies]\` and the answer names them and verifies the edit on that release's feature graph.`;
  const { withDefaults, noDefaults } = c.suggest;
  // One list when both answers are the same: said twice it reads as two different edits.
  const same = !!withDefaults && !!noDefaults && withDefaults.length > 0 && sameList(withDefaults, noDefaults);
  const add = same
    ? `add ${suggestion(withDefaults, { defaults: true })} to \`burn\`, with or without its default features`
    : withDefaults?.length === 0
      ? onByDefault(noDefaults, severalGates(c) ? "the gates above" : "the gate above")
      : `add ${suggestion(withDefaults, { defaults: true })} to \`burn\` (with default features), or ${suggestion(noDefaults, { defaults: false })} with \`default-features = false\``;
  return `${seen} At burn ${code(c.release.version)}, ${add}. This is what ${severalGates(c) ? (derived ? "the gates name" : "the gates need") : derived ? "the gate names" : "the gate needs"} at that release, not checked against your manifest.`;
}

/** The default features meet the gate: nothing to add with them, and what to add without them. */
function onByDefault(noDefaults: string[] | null, gates: string): string {
  const without =
    noDefaults === null
      ? "no `burn` feature does without them"
      : `with \`default-features = false\`, add ${suggestion(noDefaults, { defaults: false })}`;
  return `\`burn\`'s default features meet ${gates}; ${without}`;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((f, i) => f === b[i]);

/** Where the gates come from, when not burn-data's records. */
function gateSource(c: CompileAnalysis): string {
  const from = new Set(c.items.map((i) => i.gate.from));
  if (c.items.length === 0) return ` Resolved in burn's source at ${code(c.ref)}.`;
  if (from.has("source")) return ` Gates read from burn's source at ${code(c.ref)}.`;
  return from.has("rustc") ? " Gates from rustc's configured-out notes." : "";
}

/**
 * One line per gate: paths under the same `#[cfg]` at the same line (`backward` and `grad`, one
 * impl block) are one line, so the gate and its link are said once. An impl keeps its own line.
 */
function itemLines(c: CompileAnalysis): string[] {
  const groups = new Map<string, string[]>();
  for (const i of c.items) {
    const at = `${i.gate.crate} ${c.release.version} · ${i.gate.file.replace(/^crates\/[^/]+\//, "")}:${i.gate.cfg_line}`;
    const where = i.url ? `[${code(at)}](${i.url})` : code(at);
    const tail = `${gateText(i.gate)} (${where}).`;
    const key = i.path.startsWith("<") ? `${i.path}\n${tail}` : tail;
    groups.set(key, [...(groups.get(key) ?? []), i.path]);
  }
  return [...groups].map(([key, paths]) => {
    const tail = key.slice(key.indexOf("\n") + 1);
    if (paths.length === 1) return `- ${paths[0]!.startsWith("<") ? "The impl " : ""}${code(paths[0]!)} ${tail}`;
    return `- ${andList(paths)} ${tail.replace(/^sits /, "sit ")}`;
  });
}

/** null: nothing to say yet (the release's source is still to be read). */
export function renderCompileBody(c: CompileAnalysis, footer: string): string[] | null {
  if (c.items.length === 0 && c.absent.length === 0) return null;
  const lines: string[] = [`### ${heading(c)}`, ""];
  lines.push(
    `rustc reports ${andList(c.printed)}.${c.firstPartGated ? " The import's first missing part is a gated module." : ""}`,
    "",
  );
  if (c.failingCrate)
    lines.push(
      `The error is in ${code(c.failingCrate)}, a dependency, not in your own crate: the edit below helps only if it builds against your crate's burn.`,
      "",
    );
  lines.push(...itemLines(c));
  for (const p of c.absent)
    lines.push(
      `- ${code(p)} is not in burn ${code(c.release.version)}: its source at ${code(c.ref)} has no public item at that path (resolved from \`burn\`'s root through every module and re-export on the way), so no cargo feature brings it back. It was renamed, moved or removed; see that release's changelog.`,
    );
  lines.push("");
  if (c.items.length > 0 && c.manifest && c.manifest.plan.kind !== "already-on") {
    lines.push(...manifestSection(c.manifest, { about: "compile" }), "");
  } else if (c.items.length > 0) {
    lines.push(unverifiedAdvice(c), "");
  }
  if (c.failingCrate)
    lines.push(
      "<details><summary>When the error is in a dependency</summary>",
      "",
      `Turning the feature on in your Cargo.toml helps only if ${code(c.failingCrate)} builds against the same burn release as your crate, so that cargo builds one burn with the features of both (\`cargo tree -i burn\` shows which burn each uses). If it pins another burn, its own manifest needs the feature.`,
      "</details>",
      "",
    );
  const newer = c.beyond
    ? `: your build's burn (${code(c.beyond)}) is ${newerThan(c.beyond, c.release.version) ? "newer than the gated-path data, which ends there" : "not in the gated-path data"}`
    : "";
  // The release and where it came from are said once: in the assumption, or in the last line.
  const assumedLine = (c.agreeing && c.agreeing.length > 0) || c.release.source === "assumed";
  if (c.agreeing && c.agreeing.length > 0) {
    const range =
      c.agreeing.length > 1
        ? `${code(c.agreeing[0]!.slice(1))} … ${code(c.agreeing.at(-1)!.slice(1))}`
        : code(c.agreeing[0]!.slice(1));
    lines.push(
      `<sub>Assumed burn ${code(c.release.version)}${newer}; the gate and the answer are the same in ${c.agreeing.length} release${c.agreeing.length > 1 ? "s" : ""} from ${range}.</sub>`,
    );
  } else if (c.release.source === "assumed") {
    lines.push(
      `<sub>Assumed burn ${code(c.release.version)}${newer}; the gate differs between releases, so name your version for an exact answer.</sub>`,
    );
  }
  const release = assumedLine
    ? ""
    : `burn ${code(c.release.version)} (${c.beyond ? "assumed: the newest release the gated-path data has" : sourceText({ ...c.release, source: c.release.source as VersionSource })}).`;
  lines.push(`<sub>${[`${release}${gateSource(c)}`.trim(), footer].filter((x) => x.length > 0).join(" ")}</sub>`);
  return lines;
}
