// burn-triage why | fix: whether a feature is on in a manifest and why, and the verified edit.
import { resolve as resolvePath } from "node:path";
import { parseArgs } from "node:util";
import { type ManifestFile, planFix } from "../cargo/fix/fix.js";
import { diagnose } from "../cargo/judge/diagnose.js";
import type { Diagnosis } from "../cargo/judge/diagnosis.js";
import { burnCratesDeclared, manifestFacts } from "../cargo/manifest/facts.js";
import { parseManifest } from "../cargo/manifest/manifest.js";
import { burnPathVersion } from "../cargo/manifest/path-version.js";
import { TomlError } from "../cargo/manifest/toml.js";
import { AUTODIFF_TARGET, parseTarget, targetName } from "../cargo/resolve/resolve.js";
import { versionFromLock } from "../evidence/version.js";
import { assumptionText, crateVersionNote } from "../render/manifest.js";
import { reasonText, why } from "../render/why.js";
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
  const root = inheritsElsewhere ? findRoot(path, values["workspace-root"], io) : null;
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

/** Which burn version was used, where it came from, and what was assumed. */
function provenance(d: Diagnosis) {
  return {
    selected: d.selected && { version: d.selected.version ?? d.selected.preDispatch, source: d.selected.source },
    assumed: d.assumed,
  };
}

export async function whyCmd(args: string[], io: Io): Promise<number> {
  const { file, root, pin, target, json, registries } = await manifestArgs(args, io);
  let d: ReturnType<typeof diagnose>;
  try {
    d = diagnose(parseManifest(file.text), {
      root: root ? parseManifest(root.text) : null,
      ...pin,
      target,
      registries,
    });
  } catch (e) {
    if (e instanceof TomlError) return tomlError(file.path, e, io);
    throw e;
  }
  const text = why(d).replace(/`/g, "");
  if (json) {
    io.stdout(
      `${JSON.stringify({ feature: targetName(target), on: d.state.on, verdict: d.verdict, version: d.graphVersion, ...provenance(d), chain: d.state.chain, enablers: d.enablers, why: text, fix: d.fix && { dependency: d.fix.decl.key, add: d.fix.add } }, null, 2)}\n`,
    );
  } else {
    io.stdout(
      `${targetName(target)}: ${d.state.on ? "on" : "off"} (${d.verdict}, ${d.primary?.effective.name ?? "burn"} ${d.primary?.resolved ?? d.graphVersion ?? d.selected?.preDispatch ?? "?"}, from ${d.selected?.source ?? "nothing"})\n${text}\n`,
    );
    for (const note of Object.values(d.assumed))
      if (note) io.stdout(`assumed: ${assumptionText(note).replace(/`/g, "")}\n`);
    const crateNote = crateVersionNote(d, (s) => s);
    if (crateNote) io.stdout(`${crateNote}\n`);
    if (d.state.chain.length > 0) io.stdout(`chain:\n${d.state.chain.map((c) => `  ${reasonText(c)}`).join("\n")}\n`);
  }
  // A manifest cargo refuses has no answer to "is it on": the exit says so to a script.
  return d.verdict === "refused" ? 1 : 0;
}

export async function fixCmd(args: string[], io: Io): Promise<number> {
  const { file, root, pin, target, json, registries } = await manifestArgs(args, io);
  const plan = planFix(file, { root, ...pin, target, registries });
  if (plan.kind === "invalid-toml") return tomlError(plan.path, plan.error, io);
  const before = plan.diagnosis.state.on;
  const reason = why(plan.diagnosis).replace(/`/g, "");
  const changes =
    plan.kind === "fixed"
      ? [{ path: plan.change.path, before: plan.change.before, after: plan.change.after, diff: plan.change.diff }]
      : [];
  if (json) {
    io.stdout(
      `${JSON.stringify({ changes, feature: { name: targetName(target), before, after: (plan.kind === "fixed" && !plan.change.targetUnmet) || before, why: plan.kind === "no-fix" ? `${reason} ${plan.reason}` : reason }, ...provenance(plan.diagnosis) }, null, 2)}\n`,
    );
  } else if (plan.kind === "fixed") {
    io.stdout(plan.change.diff);
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
  // An edit that leaves the target off is not the fix asked for: a script sees it in the exit.
  return plan.kind === "no-fix" || (plan.kind === "fixed" && plan.change.targetUnmet) ? 1 : 0;
}
