// The comment for rustc's "cannot find `burn::…`" errors: which paths are gated at the user's
// release and behind what (linked to the `#[cfg]`), why the gate is off in their manifest, and
// the one verified edit that brings every one of them back.
import * as semver from "../semver.js";
import type { CompileAnalysis } from "../compile/analyze.js";
import { andList, code } from "./escape.js";
import { fragmentShows, manifestSection, SOURCE_WORDS } from "./manifest.js";

/** A version or requirement (`0.22.1`, `^0.23`) whose lowest match is newer than `than`. */
function newerThan(named: string, than: string): boolean {
  const low = semver.valid(named) ?? semver.minVersion(semver.validRange(named) ?? "0.0.0")?.version ?? null;
  return low !== null && semver.gt(low, than);
}

/** `feature = "burn/train"` → `train` of `burn`; the gate as a user can read it. */
function gateText(gate: string): string {
  return code(gate.replace(/feature = "burn\/([^"]+)"/g, 'feature = "$1"'));
}

function suggestion(features: string[] | null, { defaults }: { defaults: boolean }): string {
  if (features === null) return `no \`burn\` feature turns it on${defaults ? "" : " without default features"}`;
  if (features.length === 0) return "nothing: it is on with burn's default features";
  return `${code(`features = [${features.map((f) => JSON.stringify(f)).join(", ")}]`)}`;
}

export function renderCompileBody(c: CompileAnalysis, footer: string): string[] {
  const paths = c.items.map((i) => i.path);
  const lines: string[] = [
    `### ${paths.length === 1 ? `\`${paths[0]}\` is behind a cargo feature that is off` : "These `burn` items are behind cargo features that are off"}`,
    "",
  ];
  const printed = [...new Set(c.items.flatMap((i) => i.findings.map((f) => f.printed)))];
  lines.push(
    `rustc reports ${andList(printed)}.${c.items.some((i) => i.path !== i.finding.path) ? " The import's first missing part is a gated module." : ""}`,
    "",
  );
  for (const i of c.items) {
    const at = `${i.gate.crate} ${c.version} · ${i.gate.file.replace(/^crates\/[^/]+\//, "")}:${i.gate.cfg_line}`;
    const where = i.url ? `[${code(at)}](${i.url})` : code(at);
    lines.push(
      `- ${i.path.startsWith("<") ? "The impl " : ""}${code(i.path)} exists only when ${gateText(i.gate.gate)} (${where}).`,
    );
  }
  lines.push("");
  if (c.manifest && c.manifest.plan.kind !== "already-on") {
    lines.push(...manifestSection(c.manifest, { about: "compile" }), "");
  } else {
    const seen = c.fragment ? `**${fragmentShows(c.fragment)}**` : "**I could not see your Cargo.toml.**";
    lines.push(
      `${seen} At burn ${code(c.version)}, add ${suggestion(c.suggest.withDefaults, { defaults: true })} to \`burn\` (with default features), or ${suggestion(c.suggest.noDefaults, { defaults: false })} with \`default-features = false\`. This is burn-data's answer for that release, not checked against your manifest.`,
      "",
    );
  }
  const newer = c.beyond
    ? `: your build's burn (${code(c.beyond)}) is ${newerThan(c.beyond, c.version) ? "newer than the gated-path data, which ends there" : "not in the gated-path data"}`
    : "";
  if (c.agreeing && c.agreeing.length > 0) {
    const range =
      c.agreeing.length > 1
        ? `${code(c.agreeing[0]!.slice(1))} … ${code(c.agreeing.at(-1)!.slice(1))}`
        : code(c.agreeing[0]!.slice(1));
    lines.push(
      `<sub>Assumed burn ${code(c.version)}${newer}; the gate and the answer are the same in ${c.agreeing.length} release${c.agreeing.length > 1 ? "s" : ""} from ${range}.</sub>`,
    );
  } else if (c.versionSource === "assumed") {
    lines.push(
      `<sub>Assumed burn ${code(c.version)}${newer}; the gate differs between releases, so name your version for an exact answer.</sub>`,
    );
  }
  lines.push(
    `<sub>burn ${code(c.version)} (${c.beyond ? "assumed: the newest release the gated-path data has" : SOURCE_WORDS[c.versionSource]}). ${footer}</sub>`,
  );
  return lines;
}
