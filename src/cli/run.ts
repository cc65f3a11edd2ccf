// burn-triage explain | why | fix — the same pure core the bot runs, on local files.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve as resolvePath } from "node:path";
import { parseArgs } from "node:util";
import { analyze } from "../analyze.js";
import { type Diagnosis, diagnose } from "../cargo/diagnose.js";
import { type ManifestFile, planFix } from "../cargo/fix.js";
import { parseManifest } from "../cargo/manifest.js";
import { TomlError } from "../cargo/toml.js";
import { renderIssueComment } from "../render/issue.js";
import { renderReviewBody, suggestionComment } from "../render/review.js";
import { reviewManifest } from "../review.js";
import { why } from "../render/why.js";
import { versionFromLock } from "../panics/version.js";

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin: () => string;
}

const USAGE = `usage:
  burn-triage explain [FILE|-] [--json]       explain burn autodiff panics found in a text
  burn-triage why MANIFEST [--workspace-root DIR] [--lock Cargo.lock] [--json]
                                              say whether burn-dispatch/autodiff is on, and why
  burn-triage fix MANIFEST [--workspace-root DIR] [--json]
                                              print the verified Cargo.toml edit that turns it on
  burn-triage review BASE HEAD [--json]       what the bot would say on a PR changing BASE into HEAD
`;

class UsageError extends Error {}

function read(path: string, io: Io): string {
  if (path === "-") return io.stdin();
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The workspace root cargo would use: the nearest ancestor manifest with a [workspace] table. */
function findRoot(manifestPath: string, explicit: string | undefined, io: Io): ManifestFile | null {
  if (explicit) {
    const path = join(explicit, "Cargo.toml");
    return { path, text: read(path, io) };
  }
  let dir = dirname(resolvePath(manifestPath));
  for (let i = 0; i < 8; i++) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
    const path = join(dir, "Cargo.toml");
    if (existsSync(path)) {
      const text = readFileSync(path, "utf8");
      if (/^[ \t]*\[workspace\]/m.test(text)) return { path, text };
    }
  }
  return null;
}

function tomlError(path: string, e: TomlError, io: Io): number {
  io.stderr(`${path}:${e.line}:${e.column}: ${e.message.replace(/^\d+:\d+: /, "")}\n`);
  return 2;
}

function explain(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({ args, options: { json: { type: "boolean" } }, allowPositionals: true });
  const text = read(positionals[0] ?? "-", io);
  const analysis = analyze({ text });
  const comment = renderIssueComment(analysis);
  if (values.json) io.stdout(`${JSON.stringify({ findings: analysis.findings, comment }, null, 2)}\n`);
  else io.stdout(comment ?? "No known burn autodiff panic found.\n");
  return 0;
}

function manifestArgs(args: string[], io: Io) {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: "boolean" }, "workspace-root": { type: "string" }, lock: { type: "string" } },
    allowPositionals: true,
  });
  const path = positionals[0];
  if (!path) throw new UsageError("a Cargo.toml path is required");
  const file = { path, text: read(path, io) };
  const root = /\bworkspace\s*=\s*true/.test(file.text) ? findRoot(path, values["workspace-root"], io) : null;
  const lock = values.lock ? versionFromLock(read(values.lock, io)) : null;
  return { file, root, lock, json: values.json === true };
}

/** Which burn version was used, where it came from, and what was assumed. */
function provenance(d: Diagnosis) {
  return { selected: d.selected && { version: d.selected.version ?? d.selected.preDispatch, source: d.selected.source }, assumed: d.assumed };
}

function whyCmd(args: string[], io: Io): number {
  const { file, root, lock, json } = manifestArgs(args, io);
  let d: ReturnType<typeof diagnose>;
  try {
    d = diagnose(parseManifest(file.text), { root: root ? parseManifest(root.text) : null, burnVersion: lock, burnVersionSource: "lock" });
  } catch (e) {
    if (e instanceof TomlError) return tomlError(file.path, e, io);
    throw e;
  }
  const text = why(d).replace(/`/g, "");
  if (json) {
    io.stdout(`${JSON.stringify({ autodiff: d.state.autodiff, verdict: d.verdict, version: d.graphVersion, ...provenance(d), chain: d.state.chain, enablers: d.enablers, why: text, fix: d.fix && { dependency: d.fix.decl.key, add: d.fix.add } }, null, 2)}\n`);
  } else {
    io.stdout(`burn-dispatch/autodiff: ${d.state.autodiff ? "on" : "off"} (${d.verdict}, burn ${d.graphVersion ?? d.selected?.preDispatch ?? "?"}, from ${d.selected?.source ?? "nothing"})\n${text}\n`);
    for (const note of Object.values(d.assumed)) io.stdout(`assumed: ${note}\n`);
    if (d.state.chain.length > 0) io.stdout(`chain:\n${d.state.chain.map((c) => `  ${c}`).join("\n")}\n`);
  }
  return 0;
}

function fixCmd(args: string[], io: Io): number {
  const { file, root, lock, json } = manifestArgs(args, io);
  const plan = planFix(file, { root, burnVersion: lock, burnVersionSource: "lock" });
  if (plan.kind === "invalid-toml") return tomlError(plan.path, plan.error, io);
  const before = plan.diagnosis.state.autodiff;
  const reason = why(plan.diagnosis).replace(/`/g, "");
  const changes = plan.kind === "fixed" ? [{ path: plan.change.path, before: plan.change.before, after: plan.change.after, diff: plan.change.diff }] : [];
  if (json) {
    io.stdout(`${JSON.stringify({ changes, autodiff: { before, after: plan.kind === "fixed" || before, why: plan.kind === "no-fix" ? `${reason} ${plan.reason}` : reason }, ...provenance(plan.diagnosis) }, null, 2)}\n`);
  } else if (plan.kind === "fixed") {
    io.stdout(plan.change.diff);
  } else if (plan.kind === "already-on") {
    io.stderr(`autodiff is already on; nothing to change. ${reason}\n`);
  } else {
    io.stderr(`no change proposed: ${plan.reason}\n`);
  }
  return plan.kind === "no-fix" ? 1 : 0;
}

function reviewCmd(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({ args, options: { json: { type: "boolean" } }, allowPositionals: true });
  const [basePath, headPath] = positionals;
  if (!basePath || !headPath) throw new UsageError("review needs the base and the head Cargo.toml");
  const head = read(headPath, io);
  const root = /\bworkspace\s*=\s*true/.test(head) ? findRoot(headPath, undefined, io) : null;
  // Every head line counts as changed: locally there is no PR diff to restrict suggestions to.
  const lines = new Set(Array.from({ length: head.split("\n").length }, (_, i) => i + 1));
  const r = reviewManifest({ path: headPath, base: read(basePath, io), head, baseRoot: root, headRoot: root, commentable: lines });
  if (values.json) {
    io.stdout(`${JSON.stringify(r.kind === "regression" ? { kind: r.kind, suggestion: r.plan.change.suggestion, diff: r.plan.change.diff } : r.kind === "invalid-toml" ? r : { kind: r.kind }, null, 2)}\n`);
  } else if (r.kind === "regression") {
    io.stdout(`${suggestionComment(r).body}\n`);
  } else if (r.kind === "fine") {
    io.stdout("No review: this change does not turn burn-dispatch/autodiff off.\n");
  } else {
    io.stdout(renderReviewBody([r], "local"));
  }
  return r.kind === "invalid-toml" ? 2 : 0;
}

export function runCli(argv: string[], io: Io): number {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case "explain":
        return explain(rest, io);
      case "why":
        return whyCmd(rest, io);
      case "fix":
        return fixCmd(rest, io);
      case "review":
        return reviewCmd(rest, io);
      case undefined:
      case "-h":
      case "--help":
      case "help":
        io.stdout(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command: ${cmd}`);
    }
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr(`burn-triage: ${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}
