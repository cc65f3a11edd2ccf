// burn-triage explain | why | fix — the same pure core the bot runs, on local files.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve as resolvePath, sep } from "node:path";
import { parseArgs } from "node:util";
import { type AnalyzeInput, analyze, indexRoots, type SourceRead, sourceKey, sourceReads } from "../analyze.js";
import { planIssue } from "../plan.js";
import { DEFAULTS } from "../config.js";
import { registries } from "../cargo/live-registries.js";
import { type Diagnosis, diagnose } from "../cargo/diagnose.js";
import { type ManifestFile, planFix } from "../cargo/fix.js";
import { burnCratesDeclared, manifestFacts } from "../cargo/facts.js";
import { parseManifest } from "../cargo/manifest.js";
import { AUTODIFF_TARGET, parseTarget, targetName } from "../cargo/resolve.js";
import { TomlError } from "../cargo/toml.js";
import { renderIssueComment } from "../render/issue.js";
import { summarize } from "../summary.js";
import { assess, type PrSnapshot } from "../review/pull-request.js";
import { reviewPullRequest } from "../render/review.js";
import { reasonText, why } from "../render/why.js";
import { versionFromLock } from "../evidence/version.js";

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin: () => string;
}

const USAGE = `usage:
  burn-triage explain [FILE|-] [--source DIR] [--json]
                                              explain burn's feature panics found in a text; with
                                              --source, read burn's files from a checkout of the
                                              user's release when the bundled data lacks it
  burn-triage why MANIFEST [--feature CRATE/FEATURE] [--workspace-root DIR] [--lock Cargo.lock] [--json]
                                              say whether the feature (default burn-dispatch/autodiff)
                                              is on, and why
  burn-triage fix MANIFEST [--feature CRATE/FEATURE] [--workspace-root DIR] [--json]
                                              print the verified Cargo.toml edit that turns it on
  burn-triage review BASE HEAD [--json]       what the bot would say on a PR changing BASE into HEAD

  explain, why and fix read burn's feature graph from crates.io's index (CRATES_INDEX_URL, or
  https://index.crates.io); --offline or CRATES_INDEX_URL=off uses the bundled data alone.
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
      if (manifestFacts(text).isWorkspaceRoot) return { path, text };
    }
  }
  return null;
}

function tomlError(path: string, e: TomlError, io: Io): number {
  io.stderr(`${path}:${e.line}:${e.column}: ${e.message.replace(/^\d+:\d+: /, "")}\n`);
  return 2;
}

/** burn's graph from the live index unless offline; undefined means the bundled data. */
async function cliRegistries(offline: boolean, roots: string[], io: Io): Promise<AnalyzeInput["registries"]> {
  if (offline) return undefined;
  const quiet = () => {};
  return registries({ debug: quiet, info: quiet, error: quiet, warn: (_o, msg) => io.stderr(`burn-triage: ${msg ?? "warning"}\n`) }, roots);
}

/** Files of a local burn checkout, for the reads the analysis asks for; outside DIR is refused. */
function localSources(dir: string, reads: SourceRead[]): Record<string, string> {
  const out: Record<string, string> = {};
  const base = resolvePath(dir);
  for (const r of reads) {
    const path = resolvePath(base, r.path);
    if (!path.startsWith(base + sep) || !existsSync(path)) continue;
    out[sourceKey(r.ref, r.path)] = readFileSync(path, "utf8");
  }
  return out;
}

async function explain(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { json: { type: "boolean" }, source: { type: "string" }, offline: { type: "boolean" } }, allowPositionals: true });
  const text = read(positionals[0] ?? "-", io);
  // The bot's own decision, with the default config: a file is an issue body opened by a person.
  const plan = planIssue({ action: "opened", title: "", body: text, author: { login: "", type: "User" }, locked: false, labels: [], senderIsBot: false }, DEFAULTS);
  const featureOff = plan.kind === "answer" && plan.featureOff;
  const input: AnalyzeInput = { text, registries: featureOff ? await cliRegistries(values.offline === true, indexRoots(text), io) : undefined };
  let analysis = analyze(input);
  const reads = values.source ? sourceReads(analysis) : [];
  if (reads.length > 0) analysis = analyze({ ...input, sources: localSources(values.source!, reads) });
  const comment = renderIssueComment(analysis);
  if (values.json) io.stdout(`${JSON.stringify({ findings: summarize(analysis), comment }, null, 2)}\n`);
  else io.stdout(comment ?? "No known burn panic found.\n");
  return 0;
}

async function manifestArgs(args: string[], io: Io) {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: "boolean" }, "workspace-root": { type: "string" }, lock: { type: "string" }, feature: { type: "string" }, offline: { type: "boolean" } },
    allowPositionals: true,
  });
  const path = positionals[0];
  if (!path) throw new UsageError("a Cargo.toml path is required");
  const file = { path, text: read(path, io) };
  const root = manifestFacts(file.text).inheritsBurn ? findRoot(path, values["workspace-root"], io) : null;
  const lock = values.lock ? versionFromLock(read(values.lock, io)) : null;
  const target = values.feature === undefined ? AUTODIFF_TARGET : parseTarget(values.feature);
  if (!target) throw new UsageError(`--feature wants CRATE/FEATURE, e.g. burn-core/std (got ${JSON.stringify(values.feature)})`);
  const texts = [file.text, ...(root ? [root.text] : [])];
  return { file, root, lock, target, json: values.json === true, registries: await cliRegistries(values.offline === true, burnCratesDeclared(texts), io) };
}

/** Which burn version was used, where it came from, and what was assumed. */
function provenance(d: Diagnosis) {
  return { selected: d.selected && { version: d.selected.version ?? d.selected.preDispatch, source: d.selected.source }, assumed: d.assumed };
}

async function whyCmd(args: string[], io: Io): Promise<number> {
  const { file, root, lock, target, json, registries } = await manifestArgs(args, io);
  let d: ReturnType<typeof diagnose>;
  try {
    d = diagnose(parseManifest(file.text), { root: root ? parseManifest(root.text) : null, burnVersion: lock, burnVersionSource: "lock", target, registries });
  } catch (e) {
    if (e instanceof TomlError) return tomlError(file.path, e, io);
    throw e;
  }
  const text = why(d).replace(/`/g, "");
  if (json) {
    io.stdout(`${JSON.stringify({ feature: targetName(target), on: d.state.on, verdict: d.verdict, version: d.graphVersion, ...provenance(d), chain: d.state.chain, enablers: d.enablers, why: text, fix: d.fix && { dependency: d.fix.decl.key, add: d.fix.add } }, null, 2)}\n`);
  } else {
    io.stdout(`${targetName(target)}: ${d.state.on ? "on" : "off"} (${d.verdict}, burn ${d.graphVersion ?? d.selected?.preDispatch ?? "?"}, from ${d.selected?.source ?? "nothing"})\n${text}\n`);
    for (const note of Object.values(d.assumed)) io.stdout(`assumed: ${note}\n`);
    if (d.state.chain.length > 0) io.stdout(`chain:\n${d.state.chain.map((c) => `  ${reasonText(c)}`).join("\n")}\n`);
  }
  return 0;
}

async function fixCmd(args: string[], io: Io): Promise<number> {
  const { file, root, lock, target, json, registries } = await manifestArgs(args, io);
  const plan = planFix(file, { root, burnVersion: lock, burnVersionSource: "lock", target, registries });
  if (plan.kind === "invalid-toml") return tomlError(plan.path, plan.error, io);
  const before = plan.diagnosis.state.on;
  const reason = why(plan.diagnosis).replace(/`/g, "");
  const changes = plan.kind === "fixed" ? [{ path: plan.change.path, before: plan.change.before, after: plan.change.after, diff: plan.change.diff }] : [];
  if (json) {
    io.stdout(`${JSON.stringify({ changes, feature: { name: targetName(target), before, after: plan.kind === "fixed" || before, why: plan.kind === "no-fix" ? `${reason} ${plan.reason}` : reason }, ...provenance(plan.diagnosis) }, null, 2)}\n`);
  } else if (plan.kind === "fixed") {
    io.stdout(plan.change.diff);
  } else if (plan.kind === "already-on") {
    io.stderr(`${targetName(target)} is already on; nothing to change. ${reason}\n`);
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
  const base = read(basePath, io);
  const root = findRoot(headPath, undefined, io);
  // The manifest as a path inside its workspace, so cargo's rules find the root as on GitHub.
  const path = root ? relative(dirname(root.path), resolvePath(headPath)).split(sep).join("/") : "Cargo.toml";
  const files: Record<string, string> = root && path !== "Cargo.toml" ? { "Cargo.toml": root.text } : {};
  // Every head line counts as changed: locally there is no PR diff to restrict suggestions to.
  const lines = head.split("\n").length;
  const patch = `@@ -1,${lines} +1,${lines} @@\n${head.split("\n").map((l) => ` ${l}`).join("\n")}`;
  const snapshot: PrSnapshot = {
    repo: { owner: "local", repo: "local" },
    headSha: "local",
    changed: [{ path, status: "modified", patch }],
    head: { ...files, [path]: head },
    base: { ...files, [path]: base },
    tree: Object.keys({ ...files, [path]: head }),
    evidence: {},
    previous: { review: null, checkRunId: null },
    notices: [],
    options: { checkRun: false, conclusion: "neutral", reviewBurnRepo: true, assumeGradients: true },
  };
  const [first] = assess(snapshot);
  const actions = reviewPullRequest(snapshot);
  if (values.json) {
    const out = first?.kind === "regression" ? { kind: first.kind, suggestion: first.plan.change.suggestion, diff: first.plan.change.diff } : first?.kind === "invalid-toml" || first?.kind === "unresolved" ? first : { kind: first?.kind ?? "fine" };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  } else if (actions.review) {
    io.stdout(`${actions.review.body}\n${actions.review.comments.map((c) => `${c.path}:${c.line}\n${c.body}\n`).join("\n")}`);
  } else {
    io.stdout(first?.kind === "unresolved" ? `No review: ${first.why}.\n` : "No review: this change does not turn burn-dispatch/autodiff off.\n");
  }
  return first?.kind === "invalid-toml" ? 2 : 0;
}

export async function runCli(argv: string[], io: Io): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case "explain":
        return await explain(rest, io);
      case "why":
        return await whyCmd(rest, io);
      case "fix":
        return await fixCmd(rest, io);
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
