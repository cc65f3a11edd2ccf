import type { Answer } from "../answer/answer.js";
import type { CompileDetail, PanicDetail } from "../answer/answer-detail-schema.js";
import type { SiteKind } from "../panics/catalog.js";
import { renderCompileBody } from "./compile.js";
import { andList, code, orList, text, withMarker } from "./escape.js";
import { editPhrase } from "./edit.js";
import { manifestSection, sourceText } from "./manifest.js";
import { renderRefusalBody } from "./refusal.js";

export const ISSUE_MARKER = "<!-- burn-triage:issue -->";
/** What identifies the issue comment whatever data its marker carries. */
export const ISSUE_MARKER_PREFIX = "<!-- burn-triage:issue";
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;

/**
 * The marker, carrying the `updated_at` of the issue text it answers, so that a replayed older
 * delivery can tell it would roll the comment back. Only a well-formed timestamp is written.
 */
export function issueMarker(updatedAt?: string | null): string {
  return updatedAt && TIMESTAMP.test(updatedAt)
    ? `${ISSUE_MARKER_PREFIX} ${JSON.stringify({ updated_at: updatedAt })} -->`
    : ISSUE_MARKER;
}

/** The `updated_at` an earlier comment's marker recorded, if any. */
export function markedUpdatedAt(body: string | undefined): string | null {
  const m = /^<!-- burn-triage:issue (\{[^\n]*?\}) -->/.exec(body ?? "");
  if (!m) return null;
  try {
    const at = (JSON.parse(m[1]!) as { updated_at?: unknown }).updated_at;
    return typeof at === "string" && TIMESTAMP.test(at) ? at : null;
  } catch {
    return null;
  }
}

/** A code span, linked when the URL passed the permalink allow-list. */
function linked(label: string, url: string | null): string {
  return url ? `[${code(label)}](${url})` : code(label);
}

const SITE_WORDS: Record<SiteKind, string> = {
  stub: "a stub in",
  check: "a check in",
  fallback: "the fallback in",
  "compile-error": "a `compile_error!` in",
};

type Entry = PanicDetail["entry"];
/** The panic's detail, with the release the answer judged (the comment names it as the answer does). */
type PanicAnalysis = PanicDetail & { version: NonNullable<Answer["release"]>; feature: string | null };

/** Who brings the crate that panicked: the lock's chain when one was read, else how to find it. */
function broughtText(a: PanicAnalysis): string {
  const chain = a.broughtBy;
  if (a.tree) return `your \`cargo tree\` output shows it: ${code(a.tree.proof)}.`;
  if (!chain) return `${code(`cargo tree -i ${a.entry.crate}`)} shows which.`;
  // A lock is the user's text: its chain is cut to 8 packages of at most 80 characters each.
  const shown = chain.length > 8 ? [...chain.slice(0, 4), "…", ...chain.slice(-3)] : chain;
  return `your Cargo.lock shows which (as ${code(`cargo tree -i ${a.entry.crate}`)} would): ${shown.map((p) => (p === "…" ? p : code(p.slice(0, 80)))).join(" → ")}.`;
}

/** What a pasted `cargo tree -e features` shows of the crate that panicked: the build's own features. */
function treeText(a: PanicAnalysis): string | null {
  const t = a.tree;
  if (!t?.features || !a.oneTarget || a.oneTarget.crate !== t.crate) return null;
  const feature = a.oneTarget.feature;
  const listed = t.features.length > 0 ? `with ${andList(t.features)}` : "with no feature of it";
  return t.features.includes(feature)
    ? `Your \`cargo tree\` output shows ${code(t.proof)} ${listed}, ${code(feature)} among them: that build has it on, so the binary that panicked was built another way (another binary, profile or feature set).`
    : `Your \`cargo tree\` output shows ${code(t.proof)} ${listed}, and not ${code(feature)}: the build it describes has ${code(`${t.crate}/${feature}`)} off, as the panic says.`;
}

/** The main-branch commit the build is placed at (its printed line exists only there), else null. */
function mainCommitOf(a: PanicAnalysis): string | null {
  return a.version.commit && a.version.version ? a.version.commit.slice(0, 7) : null;
}

function sourceSentence(a: PanicAnalysis, entry: Entry): string {
  const link = a.link;
  const what = link?.item?.startsWith("macro_rules") ? "the fallback arm of a macro in" : SITE_WORDS[entry.site_kind];
  if (!link) return `${code(a.printed)} is raised by ${code(entry.crate)}.`;
  // A commit of main (the line only it has) is named as the commit, not as the release it calls itself.
  const at = `${link.crate} ${mainCommitOf(a) ?? a.version.version ?? link.ref} · ${link.file}`;
  if (link.lineEnd !== null && link.methods.length > 1) {
    const methods = link.methods.map((m) => code(m));
    const named =
      methods.length > 4 ? `${methods.slice(0, 4).join(", ")} and ${methods.length - 4} more` : methods.join(", ");
    // The issue's own words may name the method its output does not place.
    const which =
      a.firstCall?.from === "prose" && a.firstCall.method
        ? `your output shows no location, and the issue names ${code(a.firstCall.method)}, one of them`
        : "your output shows no location, so I cannot tell which one";
    return `${code(a.printed)} is raised by each stub method of ${linked(`${at}:${link.line}-${link.lineEnd}`, link.url)} (${named}); ${which}.`;
  }
  if (!link.verified && link.lineEnd === null) return unverifiedSentence(a, entry, at);
  return `${code(a.printed)} is raised by ${what} ${linked(`${at}:${link.line}`, link.url)}.`;
}

/** Phrases already worded (code spans inside) joined as a list: "a, b or c". */
const capitalized = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
const joined = (xs: string[], last: "and" | "or") =>
  xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} ${last} ${xs.at(-1)}`;

/** A printed line the data does not have at that ref: said as printed, with what the data does have. */
function unverifiedSentence(a: PanicAnalysis, entry: Entry, at: string): string {
  const link = a.link!;
  const ref = code(mainCommitOf(a) ?? a.version.version ?? link.ref);
  const printed = `your ${entry.site_kind === "compile-error" ? "build output" : "backtrace"} places it at ${linked(`${at}:${link.line}`, link.url)}`;
  if (link.macros.length > 0) {
    const names = [...new Set(link.macros.map((m) => m.name))];
    const files = [...new Set(link.macros.map((m) => m.file.replace(/^crates\/[^/]+\//, "")))];
    // Rust reports a panic inside a macro at the macro's call site: the printed line is a call of one of them.
    return `${code(a.printed)} is raised by the fallback arm of ${names.length > 1 ? `one of the macros ${orList(names)}` : `the macro ${code(names[0]!)}`} (in ${andList(files)} at ${ref}). ${capitalized(printed)}, where my data has no such site: a panic inside a macro is reported where the macro is called, so that line is a call of it, not the arm.`;
  }
  const elsewhere = link.sameLine.map(
    (s) => `${code(s.version && s.ref.startsWith("v") ? s.version : s.ref)}${s.method ? ` (${code(s.method)})` : ""}`,
  );
  const also = elsewhere.length > 0 ? ` The data has one at that line at ${joined(elsewhere, "or")}.` : "";
  // A ref the data has no sites at is not a ref where the line was found wanting: said as unchecked.
  const unread = a.firstCall?.from === "unknown" && !a.firstCall.dataHasRef;
  const checked = unread
    ? `, and my data has none of its sites at ${ref} to check that line against`
    : `, which is not one of its sites in my data at ${ref}`;
  return `${code(a.printed)} is raised by ${SITE_WORDS[entry.site_kind]} ${code(entry.crate)}; ${printed}${checked}.${also}`;
}

/** The method that reached the site, only as its proof allows (`firstCallOf`). */
function reachedText(a: PanicAnalysis, entry: Entry): string {
  const c = a.firstCall;
  const site = entry.site_kind === "stub" ? "stub" : "code";
  // A method the prose names is said in the source sentence, as the issue's words, not as output.
  if (!c || c.from === "prose") return "";
  if (c.method !== null) return ` In your output it was ${code(c.method)} that reached the ${site}.`;
  if (c.from === "shared") {
    const each = c.at.map((x) => `${code(x.method)} at ${code(x.ref)}`);
    return ` Which method reached the ${site} depends on which of these your build is: ${code(`${c.file!.replace(/^crates\/[^/]+\//, "")}:${c.line}`)} is ${joined(each, "or")}.`;
  }
  const file = code(`${c.file!.replace(/^crates\/[^/]+\//, "")}:${c.line}`);
  // A release is named as the rest of the comment names it (`0.22.0-pre.1`), not by its tag.
  const ref = code(c.ref!.replace(/^v(?=\d)/, ""));
  return c.dataHasRef
    ? ` Which method reached the ${site} cannot be told: ${file} is none of its methods at ${ref}.`
    : ` Which method reached the ${site} cannot be told: I do not have burn's lines at ${ref}, and a method's line moves between releases.`;
}

/** Backends this build already has, said once: their arms are compiled in, so the device is not theirs. */
function alreadyOnText(a: PanicAnalysis): string {
  const on = a.alreadyOn;
  if (on.length === 0) return "";
  const each = on.map((o) => `${code(o.feature)} (${o.chain.map(code).join(" → ")})`);
  const names = orList(on.map((o) => o.feature));
  return ` Your Cargo.toml already turns on ${joined(each, "and")}: ${on.length > 1 ? "their arms are" : "its arm is"} compiled in, so the device that fell through to \`_ =>\` is not a ${names} device, and adding ${on.length > 1 ? "them" : "it"} would not help.`;
}

/** "Any one of … removes this code" only for the features the quoted cfg proves remove it. */
function whichBackend(a: PanicAnalysis, t: { crate: string; features: string[] }): string {
  const removes = a.removedBy;
  const rest = t.features.filter((f) => !removes.includes(f));
  const on = alreadyOnText(a);
  const gpu = a.gpu;
  const head = gpu
    ? `**Which backend?** The issue says the GPU (“${text(gpu.said)}”), not which backend, so I will not guess.`
    : "**Which backend?** Nothing in the issue says which one this program means, so I will not guess.";
  if (t.features.length === 0)
    return `${head}${on} No other backend is left to add here, so the binary that panicked was not built from this Cargo.toml.`;
  if (removes.length > 0)
    return `${head}${on} Any one of ${orList(removes)} of ${code(t.crate)} removes this code (its \`#[cfg]\` names each).${rest.length > 0 ? ` The data also lists ${orList(rest)} as ways out; that \`#[cfg]\` does not name them.` : ""}`;
  return `${head}${on} Any one of ${orList(t.features)} of ${code(t.crate)} is a way out${gpu ? `: the ${t.features.length > 1 ? "ones" : "one"} burn's README lists as GPU backends` : ""}.`;
}

/** Nothing said which backend: every backend the manifest can take, each edit verified on its own. */
function choiceSection(a: PanicAnalysis, answer: Answer): string[] {
  const t = { crate: a.choiceCrate!, features: answer.target.choices };
  const out = [whichBackend(a, t)];
  const edits = answer.edits.filter((e) => e.forFeature !== null);
  if (edits.length === 0) {
    out.push(
      a.manifest ? "" : `Post your Cargo.toml (or the code that creates the device) and I will give the exact edit.`,
    );
    return out.filter((l) => l.length > 0);
  }
  const where =
    a.manifest?.origin === "repository"
      ? ` (${code(a.manifest.path)} in this repository)`
      : a.manifest?.assumedMember
        ? " (its `[workspace.dependencies]`, for a member that inherits burn from it as it is)"
        : "";
  const checked = edits.every((e) => e.verification.status === "verified") ? "verified" : "checked";
  // Each edit only adds its own feature to one dependency: one sentence says them all.
  const dep = edits[0]!.dependency;
  const plain = edits.every(
    (e) =>
      e.dependency === dep &&
      e.changes.length === 1 &&
      e.changes[0]!.op === "add" &&
      e.changes[0]!.feature === e.forFeature,
  );
  if (plain) {
    // The names "Which backend?" just listed, in its order, are not listed again.
    const listed = a.removedBy.length === 0 && edits.length === t.features.length;
    const same = listed && edits.every((e, i) => e.forFeature === t.features[i]);
    const features = same ? "them" : orList(edits.map((e) => JSON.stringify(e.forFeature)));
    out.push(
      "",
      `With your Cargo.toml${where}, adding any one of ${features} to ${code(dep)}'s features is ${checked} to turn it on.`,
    );
    return out;
  }
  out.push("", `With your Cargo.toml${where}, each of these is ${checked} to turn one on:`, "");
  for (const e of edits) out.push(`- ${code(e.forFeature!)}: ${editPhrase(e)}`);
  return out;
}

function compileComment(c: CompileDetail, marker: string, footer: string): string | null {
  const body = renderCompileBody(c, footer);
  return body && withMarker(marker, tidy(body));
}

const tidy = (lines: string[]) =>
  `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()}\n`;

/** The comment for an answer: what broke, why in this build and the edit first; the rest folded. */
export function renderAnswerComment(
  answer: Answer,
  marker = ISSUE_MARKER,
  replyTo: "issue" | "command" = "issue",
): string | null {
  const footer = `burn-triage (bot): ${replyTo === "command" ? "edit your comment and I will update this reply" : "edit the issue and I will update this comment"}.`;
  const detail = answer.detail;
  if (answer.verdict === "none" || !detail) return null;
  if (detail.kind === "compile") return compileComment(detail, marker, footer);
  if (detail.kind === "refusal") return withMarker(marker, tidy(renderRefusalBody(detail, footer)));
  const a: PanicAnalysis = { ...detail, version: answer.release!, feature: answer.target.feature };
  return withMarker(marker, tidy([...panicLead(a, answer), ...panicFolded(a), ...panicFooter(a, answer, footer)]));
}

/** What broke, why in this build, and the edit. */
function panicLead(a: PanicAnalysis, answer: Answer): string[] {
  const entry = a.entry;
  const reached = a.firstCall?.method ? reachedText(a, entry) : "";
  const lines: string[] = [`### ${entry.title}`, "", `${sourceSentence(a, entry)}${reached}`];
  if (a.tooOld) {
    lines.push(
      "",
      `> **Note:** burn ${code(a.tooOld.named)}${a.tooOld.manifest ? ", the release your Cargo.toml selects," : ""} does not have this message; it first appears in ${code(a.tooOld.firstWith)}. The binary that panicked was built against a newer burn than that: ${broughtText(a)}${a.tooOld.manifest ? " So I show no edit of this Cargo.toml: its burn is not the one that panicked. The fix belongs where the newer burn is declared (a dependency of yours, or another manifest)." : ""}`,
      "",
    );
  }
  lines.push("");
  if (a.hint && a.feature) lines.push(`I took ${code(a.feature)} from ${a.hint}.`, "");
  if (a.choiceCrate !== null) lines.push(...choiceSection(a, answer), "");
  else if (entry.cause === "feature-off" && a.manifest)
    lines.push(...manifestSection(a.manifest, { about: "panic", fragment: a.fragment, tree: a.tree?.proof }), "");
  const tree = treeText(a);
  if (tree) lines.push(tree, "");
  if (entry.cause === "misuse")
    lines.push("This is not a missing Cargo feature, so there is no Cargo.toml change to suggest.", "");
  if (entry.cause === "removed-feature")
    lines.push(
      "No Cargo.toml change to this build fixes it: the feature the message names is gone from this release.",
      "",
    );
  return lines;
}

/** Why the code panics (the cfg-gated code explained) and the other ways out: folded. */
function panicFolded(a: PanicAnalysis): string[] {
  const entry = a.entry;
  // The cfg as the source writes it; never the family data's reached-when condition.
  const g = a.siteGate;
  const gate = g?.kind === "under" && g.cfg ? ` That code sits under ${code(g.cfg)} in ${code(g.crate)}.` : "";
  const summary = entry.cause === "feature-off" ? "Why this panics; other ways out" : "Why this panics; what to do";
  return [
    `<details><summary>${summary}</summary>`,
    "",
    // Which method reached the site, when that cannot be told, is said here, with the explanation.
    `${entry.explanation}${entry.cause === "misuse" || entry.family ? gate : ""}${a.firstCall?.method ? "" : reachedText(a, entry)}`,
    "",
    ...entry.fixes.map((f) => `- ${f}`),
    "</details>",
    "",
  ];
}

function panicFooter(a: PanicAnalysis, answer: Answer, footer: string): string[] {
  const lines: string[] = [];
  const others = answer.findings.filter((f) => f.id !== a.entry.id);
  if (others.length > 0)
    lines.push(`Also recognised: ${[...new Set(others.map((f) => code(f.printed)))].join(", ")}.`, "");
  const r = answer.release!;
  const main = mainCommitOf(a);
  const v = r.version ?? r.commit;
  const entry = a.entry;
  // A `compile_error!` is printed by cargo, not by a panicking program: there is no backtrace.
  const built = entry.site_kind === "compile-error";
  const source =
    built && a.version.source === "backtrace"
      ? "from the crate path in your build output"
      : sourceText({ ...a.version, source: a.version.source ?? "assumed" });
  // A line other refs share identifies none of them: those refs are named, not "only that commit".
  const shared = r.source === "line-number" ? (a.link?.sameLine ?? []) : [];
  const byLine =
    shared.length > 0
      ? `from the line number in the panic, which ${andList(shared.map((s) => (s.version && s.ref.startsWith("v") ? s.version : s.ref)))} also ${shared.length > 1 ? "have" : "has"}, so the line alone does not settle it`
      : main && r.source === "line-number"
        ? "from the line number in the panic, which only that commit has"
        : source;
  lines.push(
    `<sub>${main ? `burn's main branch at ${code(main)}` : `burn ${v ? code(v) : "version unknown"}`} (${byLine})${a.link && !a.link.verified ? `; the link follows your ${built ? "build output" : "backtrace"}'s line` : a.link?.from === "source" ? `; the line and its gate were read from burn's source at ${code(a.link.ref)}` : ""}. ${footer}</sub>`,
  );
  return lines;
}

export function renderResolvedComment(marker = ISSUE_MARKER): string {
  return `${marker}\n### No known burn panic in this issue any more\n\nThe issue was edited and no longer contains a panic I recognise, so my earlier advice no longer applies.\n`;
}
