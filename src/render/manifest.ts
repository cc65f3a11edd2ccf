// What the bot says about a manifest it judged (or assumed, or saw only part of), shared by the
// panic and the rustc-error comments: why the feature is off there, and the verified edit.

import type { AssumptionData, Judgement, ManifestDetail } from "../answer/answer-detail-schema.js";
import type { Change } from "../cargo/fix/change.js";
import { ACCEPTED } from "../cargo/judge/refusal.js";
import type { VersionSource } from "../cargo/manifest/burn-version.js";
import { MAX_REQUIREMENT } from "../cargo/resolve/requirements.js";
import { targetName } from "../cargo/resolve/resolve.js";
import type { FragmentShown } from "../evidence/index.js";
import { andList, code, fence, orList, text } from "./escape.js";
import { type About, gitRefWords, inheritLine, unreadCommitText, why } from "./why.js";

export const SOURCE_WORDS: Record<VersionSource, string> = {
  backtrace: "from the crate path in your backtrace",
  "crate-path": "from the burn crate path printed in the output",
  "git-checkout": "from the git checkout path in your backtrace",
  lock: "from Cargo.lock",
  "cargo-tree": "from the `cargo tree` output in the issue",
  requirement: "from your Cargo.toml's version requirement",
  git: "from your Cargo.toml's git dependency",
  path: "from your Cargo.toml's path dependency (burn's main branch assumed)",
  "path-version": "the version of the burn checkout your path dependency points to; judged on that release's graph",
  prose: "from the version named in the issue",
  "line-number": "from the line number in the panic, which only that version has",
  message: "the newest release with this message",
  cargo: "the release cargo tried, from its message",
  default: "assumed: your Cargo.toml names no version, so the newest release",
  assumed: "assumed: nothing in the issue names a version",
};

/**
 * Where the release came from, in words: a requirement is said with what it resolved to when
 * that is not what it names (`0.20` → 0.20.1), once, in the footer.
 */
export function sourceText(v: { version: string | null; source: VersionSource; requirement?: string | null }): string {
  const req = v.requirement?.trim();
  if (v.source !== "requirement" || !req || !v.version || req === v.version || req.replace(/^=\s*/, "") === v.version)
    return SOURCE_WORDS[v.source];
  return `your Cargo.toml's ${code(req)} resolves to it, the newest release the requirement admits in the bundled data`;
}

/** What a change does, in a sentence's words: `quote` marks names (code spans in a comment). */
export function changeText(
  c: Pick<Change, "added" | "declares" | "dependency" | "resolves">,
  quote: (s: string) => string = code,
): string {
  const features = andList(c.added.map((f) => JSON.stringify(f)));
  const adds = c.declares
    ? `declare ${quote(c.dependency)} with ${features} (no default features)`
    : `add ${features} to ${quote(c.dependency)}'s features`;
  if (!c.resolves) return adds;
  // A feature renamed on two lines is one rename in words (the suggestions show each line).
  const past = [
    ...new Set([
      ...c.resolves.renamed.map(
        (r) =>
          `rename ${quote(JSON.stringify(r.feature))} to ${quote(JSON.stringify(r.to))}${r.typo ? (r.others.length > 0 ? " (no release has the first; the second is one of the names of that release near it, taken as a typo)" : " (no release has the first; the second is the one name of that release near it, taken as a typo)") : ""}`,
      ),
      ...c.resolves.dropped.map((f) => `drop ${quote(JSON.stringify(f))}`),
    ]),
  ];
  const parts = c.added.length > 0 ? [...past, adds] : past;
  // Phrases, already quoted inside: joined as words (andList would put each in a code span).
  return parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** The plan of a manifest the answer holds, with its edit (`fixed`). */
type FixedPlan = Extract<ManifestDetail["plan"], { kind: "fixed" }>;
type ChangeData = FixedPlan["change"];

/** What else the history offers for a renamed feature (`remote-websocket` as well as `remote-server`). */
function alternatives(c: ChangeData): string {
  // A typo near several names is said once, above its edits (typoChoiceText), not in each.
  const renamed = (c.resolves?.renamed ?? []).filter((r) => !(r.typo && r.others.length > 0));
  // A feature renamed on two lines is one alternative, said once.
  const others = renamed.filter(
    (r, i) => r.others.length > 0 && renamed.findIndex((x) => x.feature === r.feature) === i,
  );
  const typos = renamed
    .filter((r) => r.typo)
    .map(
      (r) =>
        ` ${code(r.feature)} → ${code(r.to)} is taken as a typo: no release has the first, and the second is the one name of that release near it.`,
    );
  return [
    ...others.map((r) => ` ${orList(r.others)} would replace ${code(r.feature)} as well.${likeForLike(r)}`),
    ...typos,
  ].join("");
}

/** Why the first replacement: what the removed feature brought in that it keeps (the resolver's, not a guess). */
function likeForLike(r: NonNullable<ChangeData["resolves"]>["renamed"][number]): string {
  if (!r.likeForLike) return "";
  const { from, kept } = r.likeForLike;
  return ` ${code(r.to)} is the like-for-like one: at ${code(from)} ${code(r.feature)} brought in ${andList(kept)}, which ${code(r.to)} still brings in and ${orList(r.others)} does not.`;
}

/** The diff lines only (no file headers or hunk markers): what changes is what matters. */
export function diffBody(diff: string): string {
  return diff
    .split("\n")
    .filter((l) => !/^(Index:|={5,}|---|\+\+\+|@@|\\ No newline)/.test(l))
    .join("\n")
    .replace(/\n+$/, "");
}

/** What the verifier checked, in words: a feature resolves on, or a gated path's gate holds. */
function holds(d: { target: { gate?: string; label?: string; crate: string; feature: string } }): string {
  if (d.target.gate) return `the gate of ${andList((d.target.label ?? d.target.feature).split(" and "))} holds`;
  return `${code(targetName(d.target))} resolves on`;
}

/** An assumption in words; user values only inside code spans. */
export function assumptionText(a: AssumptionData): string {
  switch (a.kind) {
    case "no-requirement":
      return `no version requirement for ${code(a.key)}; I assumed burn ${a.assumed ?? "?"}`;
    case "floating":
      return `${code(`${a.key} = ${JSON.stringify(a.requirement)}`)} has no upper bound, so cargo takes the newest release there is (or the one Cargo.lock holds), which may be newer than the releases I have; I assumed burn ${a.assumed}, the newest release I have that it admits`;
    case "git": {
      if (a.unread) return unreadCommitText(a);
      return `burn from git (${gitRefWords(a.ref)}) is not in the bundled data; I used burn's main branch at ${a.head}`;
    }
    case "path":
      if (a.unread) return unreadCommitText(a);
      return `burn from a local checkout (${code(a.path)}) has no version I can read; I used burn's main branch at ${a.head}`;
    case "outside-data": {
      if (a.requirement.length > MAX_REQUIREMENT)
        return `${code(a.key)}'s requirement, ${a.requirement.length} characters long (cargo's are tens), was not read; I used burn ${a.used ?? "?"}'s feature graph`;
      const pin = a.pin ? ` (burn ${code(a.pin.version)}, ${SOURCE_WORDS[a.pin.source]})` : "";
      return `${code(`${a.key} = ${JSON.stringify(a.requirement)}`)}${pin} matches no release in the bundled data (newest: ${a.newest ?? "none"}); I used burn ${a.used ?? "?"}'s feature graph`;
    }
  }
}

/** What a pasted fragment without the burn line shows, and what the bot would need to see. */
export function fragmentShows(f: FragmentShown): string {
  if (f.inherits)
    return `Your Cargo.toml declares ${code(f.inherits)} with ${code("workspace = true")}, so its version and default features are set in the workspace root's \`[workspace.dependencies]\`, which the issue does not show.`;
  return f.forwards.length > 0
    ? `The part of your Cargo.toml in the issue forwards to ${andList(f.forwards)}, so the crate depends on burn, but it leaves out the \`burn = …\` line that sets burn's features.`
    : "The part of your Cargo.toml in the issue has no `burn` dependency line, so it does not show how burn's features are set.";
}

const pasteIt = (f: FragmentShown) =>
  `Paste ${f.inherits ? "the workspace root's Cargo.toml" : "that line (or the whole Cargo.toml)"} and I will check the exact edit.`;

export interface SectionOptions {
  about: About;
  fragment?: FragmentShown | null;
  /** The reason in a line, when the full one is folded elsewhere (cargo's refusals, with their history). */
  reason?: string;
  /** The root line of a pasted `cargo tree`, when the issue shows one. */
  tree?: string | null;
}

/**
 * The target's crate when cargo resolves it to another version than the dependency judged (each
 * burn crate by the requirements on it: `burn = "0.14"` builds burn-core 0.14.1), said once.
 */
export function crateVersionNote(d: Judgement, quote: (s: string) => string = code): string | null {
  const own = d.state.version;
  const crate = d.target.gate ? null : d.target.crate;
  const dep = d.primary;
  if (!crate || !own || !dep?.resolved || own === dep.resolved || crate === dep.effective.name) return null;
  return `${quote(crate)} resolves to ${own} in this build, while ${quote(dep.effective.name)} is ${dep.resolved}: cargo selects each burn crate by the requirements on it, and a tag need not publish every crate.`;
}

/**
 * "Nothing else changes" is true of the manifest (the verification checks every other line), not
 * of the build: what the edit turns on there is said, by the resolver's two builds.
 */
function effectText(c: ChangeData): string {
  const crates = c.turnsOn;
  if (!crates) return "and nothing else in the manifest changes.";
  // The data's graph holds burn's crates (a live index may hold more): the claim is about those.
  if (crates.length === 0) return "and nothing else changes: no crate of that graph joins the build.";
  const shown = crates.length > 8 ? [...crates.slice(0, 8), `${crates.length - 8} more`] : crates;
  const list = crates.length > 8 ? `${shown.slice(0, -1).map(code).join(", ")} and ${shown.at(-1)}` : andList(shown);
  return `and nothing else in the manifest changes; in the build it also turns on ${list}, ${crates.length === 1 ? "a crate" : "crates"} of that graph not in it before.`;
}

/**
 * How the edit was checked, under the summary that already says "Verified on"/"Checked on" which
 * graph (statusWords): the body goes on from there, where the graph came from and what held.
 */
function checkedLine(p: FixedPlan): string {
  const { diagnosis: d, change: c, build } = p;
  if (d.assumed.graph)
    return `<sub>That is the assumed graph above: the new manifest parses, ${holds(d)} there, ${effectText(c)} Not verified against your exact burn release.</sub>`;
  // That the new manifest parses goes without saying when something more is checked on it.
  const parts = [
    ...(c.resolves ? ["every feature it names exists at that release (cargo accepts it)"] : []),
    ...(d.target.gate === ACCEPTED.gate || c.targetUnmet ? [] : [holds(d)]),
  ];
  const checks =
    parts.length === 0 ? `the new manifest parses ${effectText(c)}` : `${parts.join(", ")}, ${effectText(c)}`;
  if (p.status === "checked")
    return `<sub>Its feature graph from ${text(d.registryLabel)}: ${checks} Not verified against your build's burn (${code(build!.commit?.slice(0, 7) ?? build!.version ?? "?")}).${alternatives(c)}</sub>`;
  return `<sub>Its feature graph from ${text(d.registryLabel)}: ${checks}${alternatives(c)}</sub>`;
}

/** What the manifest's paragraph is headed: "off" only when the data judged it off. */
function headingOf(d: Judgement): string {
  if (d.verdict === "on") return "Why it is not obvious here";
  const said =
    ["pre-dispatch", "unknown-crate", "unknown-commit"].includes(d.verdict) || d.target.gate === ACCEPTED.gate;
  return said ? "Your manifest" : "Why it is off here";
}

/** Whether the edit was checked on the build's release, in a few words: the full account is folded under them. */
function statusWords(p: FixedPlan): string {
  const { diagnosis: d, status } = p;
  if (status === "assumed-graph") return "Checked on an assumed graph";
  const graph = d.selected?.mainCommit
    ? `burn's main branch at ${code(d.selected.mainCommit)}`
    : `burn ${code(d.graphVersion ?? "?")}`;
  return status === "verified" ? `Verified on ${graph}` : `Checked on ${graph}, not your build's release`;
}

/** The typo an edit takes as meant among several near names (`rocn`: `rocm`, then `doc`), if any. */
const typoChoice = (p: FixedPlan) => p.change.resolves?.renamed.find((r) => r.typo && r.others.length > 0) ?? null;

/** A typo near several names, said once before its edits: each is one, the nearest first, none chosen. */
function typoChoiceText(p: FixedPlan): string[] {
  const t = typoChoice(p);
  if (!t) return [];
  const release = p.diagnosis.graphVersion ?? "that release";
  return [
    "",
    `No release of ${code(p.change.dependency)} has ${code(t.feature)}; it is taken as a typo of one of the names of ${release} near it, ${orList([t.to, ...t.others])} (nearest first). Nothing says which you meant, so each is its own edit.`,
  ];
}

/**
 * The files of a two-file edit (the manifest read, then the workspace root it inherits from): a
 * pasted root and member are both `Cargo.toml`, so the order of the diff's patches tells them apart.
 */
function twoFiles(path: string, others: Array<{ path: string }>): string {
  const same = others.some((o) => o.path === path);
  const roots = others.map((o) => `the workspace root ${code(o.path)}${same ? " (the second patch)" : ""}`);
  const lead = same ? `the member's ${code(path)} (the first patch)` : code(path);
  return `${lead} and ${roots.join(" and ")}, together (either change alone is still refused)`;
}

/** A diff over several files, each patch with its own header (no `Index:` banner, no end-of-file notes). */
export const filesDiff = (diff: string): string =>
  diff
    .split("\n")
    .filter((l) => !/^(Index:|={5,}|\\ No newline)/.test(l))
    .join("\n")
    .replace(/\n+$/, "");

/** The edit: where, the changed lines, whether it is the build's release; how it was checked, folded. */
function fixPart(m: ManifestDetail, p: FixedPlan, lead = "Fix", above: FixedPlan | null = null): string[] {
  const { diagnosis: d, change: c, place } = p;
  const where =
    m.origin === "assumed"
      ? `If your \`burn\` dependency looks like this${m.named ? ` (${andList(m.named.features)} as the issue says; the rest of the line is assumed)` : ""}`
      : `${code(c.path)}${place.inRoot ? " (the workspace root, for every member that inherits it)" : ""}${place.line === null ? "" : c.suggestion.endLine > c.suggestion.startLine ? `, lines ${place.line}–${place.line + c.suggestion.endLine - c.suggestion.startLine}` : `, line ${place.line}`}`;
  // The changed lines only (the heading names the file and line), unless the edit only inserts:
  // an added line of a multi-line array needs its neighbours to be read.
  const body = diffBody(c.diff);
  const lines = body.split("\n");
  const changed = lines.some((l) => l.startsWith("-")) ? lines.filter((l) => !l.startsWith(" ")).join("\n") : body;
  const meant = typoChoice(p);
  // An edit over two files is one diff with each file's header: neither half alone gets past cargo.
  const others = c.others ?? [];
  const heading =
    others.length > 0 ? twoFiles(c.path, others) : `${where}${meant ? `, if you meant ${code(meant.to)}` : ""}`;
  const shown = others.length > 0 ? filesDiff(c.diff) : changed;
  const out = ["", `**${lead}** — ${heading}:`, fence(shown, "diff")];
  // The edit only gets cargo past its refusal: what it cannot do is said with it.
  if (c.targetUnmet) out.push(`It gets cargo past its refusal; it cannot turn the feature on: ${text(c.targetUnmet)}.`);
  // An alternative checked as the edit above was is not told again: said once, it is read once.
  if (above && statusWords(above) === statusWords(p) && checkedLine(above) === checkedLine(p) && !c.declares) {
    out.push(`<sub>${statusWords(p)}, as the edit above.</sub>`);
    return out;
  }
  out.push(`<details><summary>${statusWords(p)}</summary>`, "", checkedLine(p));
  if (c.declares)
    out.push(
      "",
      `With this manifest ${code(c.dependency)} is in the build, but no feature of ${code(d.primary?.effective.name ?? "burn")} turns ${code(c.added.join(", "))} on there: declared at the version the build resolves, Cargo unifies the two, and ${code("default-features = false")} keeps that feature the only thing the new line adds.`,
    );
  out.push("</details>");
  return out;
}

export function manifestSection(m: ManifestDetail, opts: SectionOptions): string[] {
  const out: string[] = [];
  const plan = m.plan;
  if (plan.kind === "invalid-toml") {
    out.push(
      `**I could not read your Cargo.toml:** line ${plan.error.line}, column ${plan.error.column}: ${text(plan.error.message.replace(/^\d+:\d+: /, ""))}. Fix the syntax and I will look again when the issue is edited.`,
    );
    return out;
  }
  const d = plan.diagnosis;
  if (m.origin === "assumed") {
    // At a commit the data cannot read no edit can be checked, whatever is pasted: no promise, no usual cause.
    const unread = d.verdict === "unknown-commit";
    const seen = opts.fragment
      ? `${fragmentShows(opts.fragment)}${unread ? "" : ` ${pasteIt(opts.fragment)}`}`
      : "I could not see your Cargo.toml.";
    const usual = `The usual cause is ${code("default-features = false")} without a feature that brings ${code(d.target.feature)} back.`;
    out.push(
      `**Why it is off:** ${seen} ${unread ? why(d) : `${usual} ${why(d, { manifestShown: false, about: opts.about }).replace(/^.*?\. /, "")}`}`,
    );
  } else {
    const from =
      m.origin === "repository"
        ? ` (${code(plan.kind === "fixed" ? plan.change.path : "Cargo.toml")} in this repository)`
        : "";
    const heading = headingOf(d);
    out.push(
      `**${heading}${from}:** ${opts.reason ?? why(d, { about: opts.about, assumedMember: m.assumedMember, lines: m.linesAreFiles, tree: opts.tree })}`,
    );
    const note = crateVersionNote(d);
    if (note) out.push(`<sub>${note}</sub>`);
    if (m.assumedMember && d.primary)
      out.push(
        `<sub>I saw only your workspace root, so this is for a member that declares ${inheritLine(d.primary.decl.key)} and adds no feature of its own. Paste that member's Cargo.toml if it declares burn differently.</sub>`,
      );
    // Nothing was judged at a commit, crate or graph the data cannot read: no "judged on" note.
    if (!m.whole && !["no-burn", "unknown-commit", "unknown-crate", "too-large"].includes(d.verdict))
      out.push("<sub>Judged on the part of your Cargo.toml shown in the issue; the rest could change this.</sub>");
  }
  // An unread commit is said in the verdict's own sentence, not again as an assumption.
  const graph = d.verdict === "unknown-commit" ? undefined : d.assumed.graph;
  const assumptions = [d.assumed.version, graph].filter((x): x is AssumptionData => !!x).map(assumptionText);
  if (assumptions.length > 0) out.push(`<sub>Assumed: ${assumptions.join("; ")}.</sub>`);
  if (plan.kind === "fixed") {
    out.push(...typoChoiceText(plan), ...fixPart(m, plan));
    for (const other of m.alternatives) out.push(...fixPart(m, other, "Or", plan));
  } else if (plan.kind === "no-fix" && !["no-burn", "unknown-crate", "unknown-commit"].includes(d.verdict)) {
    out.push("", `I found no verified one-line fix: ${text(plan.reason)}.`);
  }
  return out;
}
