// "Why is the feature off here" (autodiff, a backend, std…), in words, from a Diagnosis. Shared
// by issue comments, PR reviews and the CLI.

import { chainSteps } from "../answer/answer-edit.js";
import type { AssumptionData as Assumption, Judgement as Diagnosis, History } from "../answer/answer-detail-schema.js";
import { FIRST_DISPATCH } from "../cargo/manifest/burn-version.js";
import { type PkgRef, targetName } from "../cargo/resolve/resolve.js";

// The judge's facts as the answer holds them (a Diagnosis is one): what every sentence here reads.
type DepDecl = NonNullable<Diagnosis["primary"]>["decl"];
type Reason = Diagnosis["state"]["chain"][number];
type Refusal = NonNullable<Diagnosis["refused"]>[number];

import { andList, code, linesTogether, orList } from "./escape.js";

/** `default-features = false` and `features = […]`, as far as the declaration sets them. */
function featureParts(effective: DepDecl): string[] {
  const parts: string[] = [];
  if (effective.defaultFeatures === false) parts.push("`default-features = false`");
  if (effective.features.length > 0)
    parts.push(code(`features = [${effective.features.map((f) => JSON.stringify(f)).join(", ")}]`));
  return parts;
}

function declared(d: DepDecl, effective: DepDecl): string {
  const parts = featureParts(effective);
  const where = d.target ? ` (for ${code(d.target)})` : d.kind === "dev" ? " (as a dev-dependency)" : "";
  const inherited = d.inherits
    ? " through `workspace = true`, which merges the workspace entry with this member's features,"
    : "";
  const ignored = ignoredDefaults(d, effective);
  if (parts.length === 0) return `${code(d.key)} is declared${where}${inherited} with its default features${ignored}`;
  return `${code(d.key)} is declared${where}${inherited} with ${parts.join(" and ")}${ignored}`;
}

/** A member's line that inherits `key` from the workspace as it is, as a code span. */
export const inheritLine = (key: string): string => code(`${key} = { workspace = true }`);

/** Only the workspace root was seen: its entry, as a member that inherits it as it is builds it. */
function rootDeclared(effective: DepDecl): string {
  const parts = featureParts(effective);
  return `Your workspace root declares ${code(effective.key)} in \`[workspace.dependencies]\` with ${parts.length > 0 ? parts.join(" and ") : "its default features"}, and a member that writes ${inheritLine(effective.key)} builds with that`;
}

/** `burn/default` → `burn/optim` → … → `burn-dispatch/autodiff`, from the resolver's chain (the answer's steps). */
export function chainText(chain: Reason[]): string {
  return chainSteps(chain).map(code).join(" → ");
}

const pkgText = (p: PkgRef) => (p ? `${p.name}@${p.version}` : "(root)");
const whoText = (p: PkgRef) => (p ? `${p.name}@${p.version}` : "your manifest");

/** One link of a chain in words (the CLI's `why` lists them). */
export function reasonText(r: Reason): string {
  switch (r.kind) {
    case "root-feature":
      return `feature \`${r.feature}\` of your crate is on`;
    case "feature":
      return `${pkgText(r.pkg)} feature \`${r.feature}\``;
    case "depends":
      return `${whoText(r.pkg)} depends on \`${r.dep}\``;
    case "defaults":
      return `${whoText(r.pkg)} uses \`${r.dep}\` with default features`;
    case "declares":
      return `${whoText(r.pkg)} declares \`${r.dep}\` with feature \`${r.feature}\``;
    case "activates":
      return `${pkgText(r.via.pkg)} feature \`${r.via.feature}\` activates optional dependency \`${r.dep}\``;
  }
}

function ignoredDefaults(d: DepDecl, effective: DepDecl): string {
  return d.inherits && d.defaultFeatures === false && effective.defaultFeatures !== false
    ? " (this member's `default-features = false` is ignored: cargo honours it only in `[workspace.dependencies]`, and edition 2024 rejects it)"
    : "";
}

/** Enablers worth naming to a human: explicit features, not implicit dep names or `doc`. */
export function namedEnablers(d: Diagnosis): string[] {
  const named = d.enablers.filter((f) => f !== "doc" && !f.startsWith("burn-"));
  return named.length > 0 ? named : d.enablers;
}

/** What failed: a binary panicked at run time, or a crate did not compile. */
export type About = "panic" | "compile";

export interface WhyOptions {
  /** false when the manifest was assumed, not read: nothing is said the user "turned off". */
  manifestShown?: boolean;
  /** What failed; unset when nothing did (`why`, `fix`, a review): no panic or error is then spoken of. */
  about?: About;
  /** Only the workspace root was read; the diagnosis is of a member inheriting its entry as is. */
  assumedMember?: boolean;
  /** false when the manifest read is an excerpt: its line numbers are not the file's. */
  lines?: boolean;
  /**
   * A review: what the PR did to the dependency. The cause said is that change (it removed `train`),
   * not the head's state (`default-features = false` may have been there before the PR).
   */
  change?: { removed: string[]; defaultsOff: string[] | null };
  /** The root line of a `cargo tree` the issue shows (`burn-dispatch v0.22.0-pre.2`): said, not asked for. */
  tree?: string | null;
  /**
   * The manifest judged, when the words are read beside another file (a review comment on the
   * workspace root's line about a member): "this manifest" and its line numbers name it.
   */
  manifest?: string;
}

/** The manifest turns the target on: the build that failed was made another way. */
function onText(d: Diagnosis, opts: WhyOptions): string {
  const p = d.primary;
  const target = code(targetName(d.target));
  const chain = d.state.chain.length > 0 ? ` (${chainText(d.state.chain)})` : "";
  const failed =
    opts.about === "compile" ? "The crate that failed" : opts.about === "panic" ? "The binary that panicked" : null;
  if (opts.assumedMember && p)
    return `Your workspace root's entry turns ${target} on${chain} for every member that writes ${inheritLine(p.effective.key)}.${failed ? ` ${failed} declares it another way: its own Cargo.toml shows how.` : ""}`;
  const ignored = p ? ignoredDefaults(p.decl, p.effective) : "";
  const on = `This manifest does turn ${target} on${chain}${ignored}.`;
  if (!failed) return on;
  // \`--no-default-features\` switches off only the user's own crate's defaults: a cause only when one of them is a link.
  const ways = [
    "another manifest",
    ...(d.state.chain.some((r) => r.kind === "root-feature") ? ["`--no-default-features`"] : []),
    "a different crate of the workspace",
  ];
  return `${on} ${failed} was built another way: ${ways.slice(0, -1).join(", ")}${ways.length > 2 ? "," : ""} or ${ways.at(-1)}.`;
}

/** What burn's history says of a feature a release does not have (after "… does not have it: "). */
export function historyText(h: History, crate: string, ask = true): string {
  // `ask` false: an edit shown with it already says which near name it is taken as a typo of.
  if (h.kind === "never")
    return `no release of ${code(crate)} has it${ask && h.closest.length > 0 ? `; did you mean ${orList(h.closest)}?` : "."}`;
  if (h.kind === "gone") return `its last release with it is ${code(h.lastIn)}, and I know no replacement.`;
  const at = h.at ? `release ${code(h.at)} removed it` : "burn's main branch removed it after the last release";
  const instead =
    h.replacement === null
      ? h.inferred
        ? "I know no replacement"
        : "nothing replaces it"
      : h.replacement.length === 0
        ? "nothing is needed in its place"
        : h.inferred
          ? `${orList(h.replacement)} turns on the optional crates it did (read from the index, not from burn's history)`
          : `${orList(h.replacement)} ${h.replacement.length > 1 ? "replace" : "replaces"} it`;
  return `${at}; ${instead}${h.advice ? ` (${h.advice})` : ""}.`;
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A git dependency's ref in words: `rev \`d16f7ba\``, a branch, a tag, or its default branch. */
export function gitRefWords(r: Extract<Assumption, { kind: "git" }>["ref"]): string {
  if (r?.rev) return `rev ${code(r.rev)}`;
  if (r?.branch) return `branch ${code(r.branch)}`;
  return r?.tag ? `tag ${code(r.tag)}` : "its default branch";
}

/** A commit whose features were not read, said as such: which commit, and that nothing was used in its place. */
export function unreadCommitText(a: Assumption | undefined): string {
  if (a?.kind === "git") {
    return `burn from git at ${gitRefWords(a.ref)} is neither a release tag's commit nor the commit of burn's main branch in my data (${code(a.head)}), so its features could not be read`;
  }
  if (a?.kind === "path")
    return `burn from a local checkout (${code(a.path)}) has no version I could read, so the features of the commit it is at could not be read`;
  return "burn's commit could not be read";
}

/** Where a refused feature is written. */
function refusalWhere(r: Refusal, lines: boolean, file: string | null = null): string {
  // The member's line is not the root's: the root's entry is named, not numbered.
  const of = file ? ` of ${code(file)}` : "";
  if (r.where.kind === "features") return `Your \`[features]\` entry ${code(r.where.entry)}${of}`;
  if (r.where.inRoot)
    return `Your workspace root's ${code(r.where.decl.key)} entry, which ${file ? code(file) : "this manifest"} inherits,`;
  return lines ? `Line ${r.line ?? r.where.decl.line}${of}` : `Your ${code(r.where.decl.key)} entry${of}`;
}

/** Places said together: "Lines 7 and 14", or each place ("Your workspace root's … entry, … and line 13"). */
function placesText(wheres: string[]): string {
  const lines = linesTogether(wheres, "Line");
  if (lines !== null) return lines;
  // ", which this manifest inherits," is a parenthesis inside a list.
  const bare = (w: string) => w.replace(/, (which [^,]*),$/, " ($1)");
  const rest = wheres.slice(1).map((w) => bare(w.charAt(0).toLowerCase() + w.slice(1)));
  return `${[bare(wheres[0]!), ...rest.slice(0, -1)].join(", ")} and ${rest.at(-1)}`;
}

/**
 * Where each refused feature is written and what burn's history says of it: a feature refused on
 * several lines (a Renovate bump of two tables) is one sentence naming each line, its history once.
 */
function refusalsText(
  refused: Refusal[],
  lines = true,
  mainCommit: string | null = null,
  ask = true,
  file: string | null = null,
): string {
  const groups = new Map<string, { r: Refusal; wheres: string[] }>();
  for (const r of refused) {
    const key = JSON.stringify([r.crate, r.version, r.feature, r.history]);
    const g = groups.get(key) ?? { r, wheres: [] };
    g.wheres.push(refusalWhere(r, lines, file));
    groups.set(key, g);
  }
  return [...groups.values()]
    .map(({ r, wheres }) => {
      // main's snapshot is a commit, not the release its Cargo.toml calls itself.
      const at = mainCommit
        ? `at burn's main branch commit ${code(mainCommit)} (which calls itself ${r.version})`
        : r.version;
      const verb = wheres.length > 1 ? "ask" : "asks";
      return `${placesText(wheres)} ${verb} ${code(r.crate)} ${at} for feature ${code(r.feature)}, which it does not have: ${historyText(r.history, r.crate, ask)}`;
    })
    .join(" ");
}

/**
 * Each refused feature, where it is written and what burn's history says of it, without the verdict
 * around them (a refusal comment says that once, above its fold). `lines`: false for an excerpt;
 * `edited`: the comment shows the edit past them, so a typo's near names are not asked about.
 */
export function refusalsSaid(d: Diagnosis, lines: boolean, edited = false): string {
  return refusalsText(d.refused ?? [], lines, d.selected?.mainCommit ?? null, !edited);
}

/** The gate is said as the gate when the edit meets it another way (`train` for `std` and `dataset`). */
const gateSaid = (d: Diagnosis) => !!d.gateFeatures && !!d.fix?.add.some((f) => !d.gateFeatures!.includes(f));

/** How a gated path's gate is met, in the words of the release's features. */
function gateExists(d: Diagnosis, named: string[], one: boolean): string {
  if (named.length > 0) return `${one ? "exists" : "exist"} only with ${orList(named)}`;
  if (d.fix && gateSaid(d))
    return `${one ? "needs" : "need"} ${andList(d.gateFeatures!)}; the smallest edit adds ${andList(d.fix.add)}, which ${d.fix.add.length > 1 ? "bring" : "brings"} the rest`;
  if (d.fix)
    return one
      ? `needs ${andList(d.fix.add)}${d.fix.add.length > 1 ? " together" : ""}`
      : `need ${andList(d.fix.add)}${d.fix.add.length > 1 ? " between them" : ""}`; // each path may take only one of them
  return `${one ? "is" : "are"} behind a gate no feature of ${code(d.primary!.effective.name)} turns on`;
}

/** What the PR did that took the target away, among the enablers named: "(this change removed `train`)". */
function changeCause(change: NonNullable<WhyOptions["change"]>, named: string[]): string {
  const removed = change.removed.filter((f) => named.includes(f));
  const off = change.defaultsOff ?? [];
  const parts = [
    ...(removed.length > 0 ? [`this change removed ${andList(removed)}`] : []),
    ...(off.length > 0
      ? [`${andList(off)} ${off.length > 1 ? "are" : "is"} in the default set this change turned off`]
      : []),
  ];
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}

/** The pre-dispatch burn as named: its release, or the requirement quoted as the manifest writes it. */
function preDispatchNamed(d: Diagnosis, v: string): string {
  if (d.selected?.version) return `burn ${code(v)}`;
  const decl = d.primary?.decl;
  const key = decl?.key ?? "burn";
  if (!decl || decl.form === "string") return code(`${key} = ${JSON.stringify(v)}`);
  return `${code(key)} with ${code(`version = ${JSON.stringify(v)}`)}`;
}

export function why(d: Diagnosis, opts: WhyOptions = {}): string {
  const p = d.primary;
  const decl = (): string => (opts.assumedMember ? rootDeclared(p!.effective) : declared(p!.decl, p!.effective));
  const target = code(targetName(d.target));
  const feature = code(d.target.feature);
  // The dependency's own release (burn 0.14.0), not the target crate's (burn-core 0.14.1).
  const own = p?.resolved ?? d.graphVersion;
  const name = code(p?.effective.name ?? "burn");
  // main's snapshot is a commit, not the release its Cargo.toml calls itself: its graph is named so.
  const commit = d.selected?.mainCommit;
  const version = commit ? `${name} at main-branch commit ${code(commit)}` : own ? `${name} ${own}` : name;
  switch (d.verdict) {
    case "refused":
      return `Cargo would refuse ${opts.manifest ? code(opts.manifest) : "this manifest"} before building anything. ${refusalsText(d.refused ?? [], opts.lines !== false, d.selected?.mainCommit ?? null, true, opts.manifest ?? null)} Until it resolves, no feature of it is on.`;
    case "too-large":
      return `The feature graph of ${version} is larger than I walk for one event, so I cannot say whether ${target} is on.`;
    case "unknown-crate": {
      const many = d.unknownCrates.length > 1;
      return `This manifest's ${andList(d.unknownCrates)} ${many ? "are" : "is"} not in ${d.registryLabel}, so I cannot tell whether ${many ? "they turn" : "it turns"} ${target} on.`;
    }
    case "unknown-commit":
      return `${capitalized(unreadCommitText(d.assumed.graph))}: I cannot tell whether ${target} is on there, and I check no edit against it. A \`version = "…"\` requirement, or a \`rev\` that is a release tag's commit, would let me.`;
    case "no-burn":
      return opts.about === "compile"
        ? "The manifest I read declares no burn crate, so it is not the manifest of the crate that failed to compile."
        : "The manifest I read declares no burn crate, so it is not the one that built the panicking binary.";
    case "pre-dispatch": {
      const v = d.selected?.preDispatch ?? "?";
      const newer = opts.tree
        ? `your \`cargo tree\` output shows ${code(opts.tree)}`
        : "`cargo tree -i burn-dispatch` shows which";
      // Nothing panicked in a manifest alone (`why`, `fix`, a review): no binary is spoken of.
      const built = opts.about === "panic" ? ` The binary that panicked was built against a newer burn: ${newer}.` : "";
      return `${preDispatchNamed(d, v)} has no ${code("burn-dispatch")} (it first ships in ${code(FIRST_DISPATCH)}); autodiff there is the ${code("Autodiff<B>")} backend wrapper behind burn's ${code("autodiff")} feature, so this manifest cannot raise the ${code("burn-dispatch")} stub's panic.${built}`;
    }
    case "on":
      return onText(d, opts);
    case "gated":
      return `${decl()}. ${feature} is only reached through your crate's own feature ${orList(d.gatedBehind)}, which is not on by default: build with ${code(`--features ${d.gatedBehind[0]}`)}, or add it to your \`default\` features.`;
    case "no-dispatch":
      return `${decl()}. With this manifest ${code(d.target.crate)} is not part of the build at all in ${version}${d.fix && d.fix.add.length > 1 ? `: there, ${feature} only reaches it together with ${andList(d.fix.add.filter((f) => f !== d.target.feature))}` : ""}.`;
    case "off": {
      const named = namedEnablers(d);
      if (d.target.gate) {
        const list = (d.target.label ?? d.target.feature).split(" and ");
        const exists = gateExists(d, named, list.length === 1);
        const paths = andList(list);
        return `${decl()}. In ${version}, ${paths} ${exists}.`;
      }
      const source =
        named.length > 0
          ? `In ${version} ${feature} comes from ${orList(named)}`
          : d.fix
            ? d.fix.add.length > 1
              ? `In ${version} no single feature does it: it takes ${andList(d.fix.add)} together`
              : `In ${version} no feature turns ${target} on alone; together with what you already list, ${code(d.fix.add[0]!)} does`
            : `In ${version} no feature of ${code(p!.effective.name)} reaches ${target}`;
      const dropped = opts.change
        ? changeCause(opts.change, named)
        : opts.manifestShown !== false && p!.effective.defaultFeatures === false && d.defaultEnablers.length > 0
          ? ` (${andList(d.defaultEnablers)} ${d.defaultEnablers.length > 1 ? "are" : "is"} in the default set you turned off)`
          : "";
      return `${decl()}. ${source}${dropped}.`;
    }
  }
}

/** A verdict other than on/off, in a few words after the state (`off (cargo refuses the manifest)`). */
const VERDICT_WORDS: Readonly<Record<string, string>> = {
  gated: "on only with your crate's own feature",
  refused: "cargo refuses the manifest",
  "no-dispatch": "its crate is not in the build",
  "pre-dispatch": "a burn release before burn-dispatch",
  "unknown-crate": "a burn crate the data does not have",
  "unknown-commit": "burn at a commit the data cannot read",
  "too-large": "the feature graph is too large to walk",
  "no-burn": "no burn dependency",
};

/** The words for a verdict other than on/off; null for on/off themselves. */
export const verdictWords = (verdict: string): string | null => VERDICT_WORDS[verdict] ?? null;
