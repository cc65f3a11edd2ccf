// The phrases every review surface shares, from the review's answer object: what a change did,
// who needs the feature, what cargo refuses, what an edit does. Each surface says each once.
import type { ReviewAnswer, ReviewEdit, ReviewResult } from "../answer/review-answer.js";
import { targetName } from "../cargo/resolve/resolve.js";
import type { UnresolvedWhy } from "../review/manifest.js";
import { type ReviewRule, reviewRules } from "../review/rules.js";
import { repoPermalink } from "../util/links.js";
import { andList, code, linesTogether } from "./escape.js";
import { assumptionText, changeText } from "./manifest.js";

/** The rule a review names (every id in the data resolves; an unknown one is a bug in the caller). */
export function ruleOf(id: string): ReviewRule {
  const r = reviewRules().find((x) => x.id === id);
  if (!r) throw new Error(`no review rule ${id}`);
  return r;
}

export const feature = (r: ReviewRule) => code(targetName(r.target));

/** What the review reports that needs an edit or a look: not fine, not unresolved. */
export const isProblem = (r: ReviewResult) =>
  r.reported && (r.kind === "refused" || r.kind === "invalid-toml" || r.kind.startsWith("regression"));
export const problemsOf = (a: ReviewAnswer) => a.results.filter(isProblem);

type Loss = NonNullable<ReviewResult["loss"]>;

/**
 * "This change sets `default-features = false` …", from what the PR changed. `again`: another
 * rule's bullet already said the change on this manifest; only what it did to this feature is said.
 */
export function lossText(l: Loss, rule: ReviewRule, again = false): string {
  const f = rule.target.feature;
  const parts: string[] = [];
  if (l.removed.length > 0) parts.push(`removes ${andList(l.removed)} from ${code(l.dependency)}'s features`);
  if (l.defaultsOff) {
    const brought = `(${l.defaultsOff.length > 1 ? "they" : "it"} brought ${f})`;
    const drops = `drops ${andList(l.defaultsOff)} from burn's default set ${brought}`;
    if (again && l.defaultsOff.length > 0) parts.push(drops);
    else
      parts.push(
        `sets ${code("default-features = false")} on ${code(l.dependency)}${l.defaultsOff.length > 0 ? `, which ${drops}` : ""}`,
      );
  }
  if (l.moved)
    parts.push(
      `moves ${code(l.dependency)} from ${code(l.moved.from)} to ${code(l.moved.to)}${l.moved.defaultsLost ? `, whose default features no longer bring ${f}` : ""}`,
    );
  const subject = again ? "The same change" : "This change";
  return parts.length > 0 ? `${subject} ${parts.join(" and ")}` : subject;
}

type Crate = NonNullable<ReviewResult["crates"]>[number];

function evidenceText(c: Crate, rule: ReviewRule, a: Pick<ReviewAnswer, "repo" | "headSha">): string {
  if (!c.evidence) return `${code(c.manifest)} (I did not read its sources; ${rule.words.assumed})`;
  const where = `${c.evidence.path}:${c.evidence.line}`;
  const url = repoPermalink(a.repo.owner, a.repo.repo, a.headSha, c.evidence.path, c.evidence.line);
  return `${url ? `[${code(where)}](${url})` : code(where)} uses ${code(c.evidence.what)}`;
}

/** "`src/train.rs:6` uses `.backward()`, so that crate needs gradients". */
export function needsText(r: ReviewResult, a: Pick<ReviewAnswer, "repo" | "headSha">): string {
  const rule = ruleOf(r.rule);
  const crates = r.crates ?? [];
  return `${crates.map((c) => evidenceText(c, rule, a)).join("; ")}, so ${crates.length > 1 ? "these crates need" : "that crate needs"} ${rule.words.needs}`;
}

/** "line 7 asks `burn` 0.22.0-pre.2 for `dispatch` and `server`, which it does not have". */
export function refusedText(r: ReviewResult, quote: (s: string) => string = code): string {
  const groups = new Map<string, { where: string; crate: string; version: string; features: string[] }>();
  for (const x of r.refused ?? []) {
    // A place in another file than the one the result is said on names that file.
    const elsewhere = x.path !== r.path;
    const where =
      x.entry !== null
        ? `the \`[features]\` entry ${quote(x.entry)}${elsewhere ? ` of ${quote(x.path)}` : ""}`
        : x.inherited
          ? `the workspace's ${quote(x.dependency ?? "")} entry${elsewhere ? ` in ${quote(x.path)}` : ""}`
          : `${elsewhere ? `${quote(x.path)} ` : ""}line ${x.line}`;
    const key = `${where}\u0000${x.crate}\u0000${x.version}`;
    const g = groups.get(key) ?? { where, crate: x.crate, version: x.version, features: [] };
    g.features.push(x.feature);
    groups.set(key, g);
  }
  const list = (fs: string[]) =>
    fs.length <= 1 ? fs.map(quote).join("") : `${fs.slice(0, -1).map(quote).join(", ")} and ${quote(fs.at(-1)!)}`;
  // Places asking the same crate and release for the same features are one clause ("lines 7 and
  // 16 ask …"), so a Renovate bump of two tables says its refusal once.
  const asks = new Map<string, { wheres: string[]; what: string }>();
  for (const g of groups.values()) {
    const what = `${quote(g.crate)} ${g.version} for ${list(g.features)}`;
    const a = asks.get(what) ?? { wheres: [], what };
    a.wheres.push(g.where);
    asks.set(what, a);
  }
  const parts = [...asks.values()].map(
    ({ wheres, what }) => `${placesWords(wheres)} ${wheres.length > 1 ? "ask" : "asks"} ${what}`,
  );
  return parts.length > 0 ? `${parts.join("; ")}, which it does not have` : "cargo refuses it";
}

/** "line 7", "lines 7 and 16", "line 7 and the `[features]` entry `gpu`". */
function placesWords(wheres: string[]): string {
  return linesTogether(wheres, "line") ?? `${wheres.slice(0, -1).join(", ")} and ${wheres.at(-1)}`;
}

/** What an edit does, as a sentence's words ("rename `"server"` to `"remote-server"` and drop …"). */
export function editText(e: ReviewEdit, quote: (s: string) => string = code): string {
  const resolves = e.renamed.length + e.dropped.length > 0 ? { renamed: e.renamed, dropped: e.dropped } : undefined;
  return changeText({ dependency: e.dependency, added: e.added, declares: e.declares, resolves }, quote);
}

type Lines = Pick<ReviewEdit["suggestion"], "startLine" | "endLine">;
const span = (s: Lines) => (s.startLine === s.endLine ? `${s.startLine}` : `${s.startLine}–${s.endLine}`);

/** "line 7", "lines 7–9", or the runs of one edit: "lines 7 and 14". */
export function linesText(e: Pick<ReviewEdit, "suggestions">): string {
  const all = e.suggestions;
  const one = all.length === 1 && all[0]!.startLine === all[0]!.endLine;
  const spans = all.map(span);
  const list = spans.length <= 1 ? spans.join("") : `${spans.slice(0, -1).join(", ")} and ${spans.at(-1)}`;
  return `${one ? "line" : "lines"} ${list}`;
}

/** The files of an edit the review suggests on: its own, and each other one whose lines the PR's diff shows. */
export const suggestedFiles = (e: Pick<ReviewEdit, "path" | "suggestions" | "others">) => [
  { path: e.path, suggestions: e.suggestions },
  ...(e.others ?? []).filter((o) => o.onLines),
];

/** "line 7", or, over two files, "`Cargo.toml` line 5 and `crates/node/Cargo.toml` line 6". */
export function suggestedLinesText(e: Pick<ReviewEdit, "path" | "suggestions" | "others">): string {
  const files = suggestedFiles(e);
  if (files.length === 1) return linesText(e);
  const each = files.map((f) => `${code(f.path)} ${linesText(f)}`);
  return `${each.slice(0, -1).join(", ")} and ${each.at(-1)}`;
}

/** How many suggestions an edit is, over every file it suggests in. */
export const suggestionCount = (e: Pick<ReviewEdit, "path" | "suggestions" | "others">): number =>
  suggestedFiles(e).reduce((n, f) => n + f.suggestions.length, 0);

/** "The suggestion on line 7 gets" or "The suggestions on lines 7 and 14 get": `verb` agrees. */
export function suggestionsText(
  e: Pick<ReviewEdit, "path" | "suggestions" | "others">,
  verb: [string, string],
): string {
  const many = suggestionCount(e) > 1;
  return `The suggestion${many ? "s" : ""} on ${suggestedLinesText(e)} ${many ? verb[1] : verb[0]}`;
}

/** Why a change could not be judged, in words. */
export function unresolvedText(why: UnresolvedWhy): string {
  if (why.kind === "too-large") return "the feature graph at the head is larger than the bot walks for one event";
  if (why.kind === "members-unseen")
    return "it is a workspace root that declares burn, and no member inheriting it was found beside it, so no member was judged (run `review --base DIR --head DIR` on the two checkouts)";
  if (why.kind === "sources-unseen")
    return "I found no Rust source of its crate to read, so I cannot tell whether its code needs it (it is off after this change)";
  return assumptionText(why.assumption);
}

export const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
