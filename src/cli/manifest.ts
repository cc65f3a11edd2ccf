// burn-triage why | fix: whether a feature is on in a manifest and why, and the verified edit.
import { isAbsolute, relative as relativePath, resolve as resolvePath } from "node:path";
import { parseArgs } from "node:util";
import { manifestAnswer } from "../answer/answer-edit.js";
import type { ManifestAnswer } from "../answer/answer-schema.js";
import { type ManifestFile, planFix } from "../cargo/fix/fix.js";
import { typoChoices } from "../cargo/fix/typo-choices.js";
import { burnCratesDeclared, manifestFacts } from "../cargo/manifest/facts.js";
import { burnPathVersion } from "../cargo/manifest/path-version.js";
import { AUTODIFF_TARGET, parseTarget, targetName } from "../cargo/resolve/resolve.js";
import { versionFromLock } from "../evidence/version.js";
import { changeLines, typoChoice, typoChoiceLines } from "../render/edit.js";
import { assumptionText, crateVersionNote, SOURCE_WORDS } from "../render/manifest.js";
import { reasonText, verdictWords, why } from "../render/why.js";
import { cliRegistries, findRoot, type Io, read, readManifestFile, tomlError, UsageError } from "./io.js";

async function manifestArgs(args: string[], io: Io) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      json: { type: "boolean" },
      "workspace-root": { type: "string" },
      lock: { type: "string" },
      feature: { type: "string" },
      offline: { type: "boolean" },
    },
    allowPositionals: true,
  });
  const path = positionals[0];
  if (!path) throw new UsageError("a Cargo.toml path is required");
  const file = { path, text: read(path, io) };
  // A package that is its own workspace root inherits from itself (diagnose reads it there).
  const facts = manifestFacts(file.text);
  const inheritsElsewhere = facts.inheritsBurn && !facts.isWorkspaceRoot;
  const found = inheritsElsewhere ? findRoot(path, values["workspace-root"], io) : null;
  // The root named as the manifest is (relative to here when it is): a diff over both files then
  // applies where it was asked for, and prints no machine's path.
  const root = found && !isAbsolute(path) ? { ...found, path: relativePath(process.cwd(), found.path) } : found;
  // Without the root, the version and default features burn is built with are unknown (cargo
  // itself refuses to build the package): say so rather than answer for a guessed entry.
  if (inheritsElsewhere && !root)
    throw new UsageError(
      `${path} declares burn with \`workspace = true\`, but no workspace root (a Cargo.toml with [workspace]) was found above it; pass --workspace-root DIR`,
    );
  const locked = values.lock ? versionFromLock(read(values.lock, io)) : null;
  // A lock names the build's burn; else a path dependency's checkout on disk names its version.
  const pathVersion = locked ? null : checkoutVersion(file, root);
  const pin = locked
    ? { burnVersion: locked, burnVersionSource: "lock" as const }
    : pathVersion
      ? { burnVersion: pathVersion, burnVersionSource: "path-version" as const }
      : {};
  const target = values.feature === undefined ? AUTODIFF_TARGET : parseTarget(values.feature);
  if (!target)
    throw new UsageError(`--feature wants CRATE/FEATURE, e.g. burn-core/std (got ${JSON.stringify(values.feature)})`);
  const texts = [file.text, ...(root ? [root.text] : [])];
  return {
    file,
    root,
    pin,
    target,
    json: values.json === true,
    registries: await cliRegistries(values.offline === true, () => burnCratesDeclared(texts), io),
  };
}

/** The version of the burn checkout a path dependency points to, read from disk (null: none). */
function checkoutVersion(file: ManifestFile, root: ManifestFile | null): string | null {
  const abs = (f: ManifestFile) => ({ path: resolvePath(f.path), text: f.text });
  return burnPathVersion(abs(file).path, file.text, root && abs(root), readManifestFile);
}

const lines = (ls: string[]) => ls.map((l) => `${l}\n`).join("");

/** `burn-dispatch/autodiff: off — burn 0.22.0-pre.2 (from Cargo.lock)`: each part once, none empty. */
function headline(answer: ManifestAnswer, dep: string): string {
  const extra = verdictWords(answer.verdict);
  const state = `${answer.on === null ? "unknown" : answer.on ? "on" : "off"}${extra ? ` (${extra})` : ""}`;
  const r = answer.release;
  // At a commit the data cannot read, the commit it stands in for was not used: it is not named.
  const unread = answer.verdict === "unknown-commit";
  const at = unread
    ? null
    : r?.commit
      ? `${dep}'s main branch at ${r.commit}`
      : r?.version
        ? `${dep} ${r.version}`
        : null;
  const from = r?.source ? ` (${SOURCE_WORDS[r.source].replace(/`/g, "")})` : "";
  return `${answer.feature}: ${state}${at ? ` — ${at}${from}` : ""}`;
}

/**
 * The plan `why` and `fix` answer from, with a typo's other near names' edits (`rocn`: `rocm`, then
 * `doc`), planned as the issue comment plans them (cargo/fix/typo-choices.ts).
 */
async function manifestPlan(args: string[], io: Io) {
  const { file, root, pin, target, json, registries } = await manifestArgs(args, io);
  const fx = { root, ...pin, target, registries };
  const { plan, alternatives } = typoChoices(planFix(file, fx), (typos) => planFix(file, { ...fx, typos }));
  return { plan, alternatives, target, json };
}

/** The manifest's answer (`why` and `fix` print the same one), with the judge's reason in words. */
function answerJson(answer: ManifestAnswer, text: string): string {
  return `${JSON.stringify({ ...answer, text }, null, 2)}\n`;
}

export async function whyCmd(args: string[], io: Io): Promise<number> {
  const { plan, alternatives, json } = await manifestPlan(args, io);
  if (plan.kind === "invalid-toml") return tomlError(plan.path, plan.error, io);
  const d = plan.diagnosis;
  const text = why(d).replace(/`/g, "");
  const answer = manifestAnswer(plan, alternatives);
  if (json) {
    io.stdout(answerJson(answer, text));
  } else {
    io.stdout(`${headline(answer, d.primary?.effective.name ?? "burn")}\n${text}\n`);
    // The body already says a commit could not be read (`why`): its note is not said again.
    for (const note of Object.values(d.assumed))
      if (note && !(d.verdict === "unknown-commit" && "unread" in note && note.unread))
        io.stdout(`assumed: ${assumptionText(note).replace(/`/g, "")}\n`);
    const crateNote = crateVersionNote(d, (s) => s);
    if (crateNote) io.stdout(`${crateNote}\n`);
    if (d.state.chain.length > 0) io.stdout(`chain:\n${d.state.chain.map((c) => `  ${reasonText(c)}`).join("\n")}\n`);
  }
  // A manifest cargo refuses has no answer to "is it on": the exit says so to a script.
  return d.verdict === "refused" ? 1 : 0;
}

export async function fixCmd(args: string[], io: Io): Promise<number> {
  const { plan, alternatives, target, json } = await manifestPlan(args, io);
  if (plan.kind === "invalid-toml") return tomlError(plan.path, plan.error, io);
  const reason = why(plan.diagnosis).replace(/`/g, "");
  const answer = manifestAnswer(plan, alternatives);
  // A typo near several names: a patch is one choice, and nothing says which was meant.
  const choice = typoChoice(answer.edits) !== null;
  if (json) {
    io.stdout(answerJson(answer, reason));
  } else if (choice) {
    io.stderr(`${reason}\n${lines(typoChoiceLines(answer.edits))}`);
  } else if (plan.kind === "fixed") {
    // stdout: the diff alone (it pipes into `git apply`); stderr: why each part of it is there.
    io.stdout(plan.change.diff.endsWith("\n") ? plan.change.diff : `${plan.change.diff}\n`);
    const edit = answer.edits[0]!;
    io.stderr(lines(changeLines(edit)));
    if (plan.change.targetUnmet)
      io.stderr(
        `this edit gets cargo past its refusal; ${targetName(target)} stays off: ${plan.change.targetUnmet.replace(/`/g, "")}\n`,
      );
  } else if (plan.kind === "already-on") {
    io.stderr(`${targetName(target)} is already on; nothing to change. ${reason}\n`);
  } else {
    // Why there is no edit comes first when it is cargo's refusal: that is what the user must fix.
    io.stderr(`${plan.diagnosis.verdict === "refused" ? `${reason}\n` : ""}no change proposed: ${plan.reason}\n`);
  }
  // An edit that leaves the target off is not the fix asked for, and edits to choose from are no
  // patch: a script sees either in the exit.
  return plan.kind === "no-fix" || choice || (plan.kind === "fixed" && plan.change.targetUnmet) ? 1 : 0;
}
