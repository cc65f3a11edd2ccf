// burn-triage review: what the bot would say on a PR changing BASE into HEAD.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve as resolvePath, sep } from "node:path";
import { parseArgs } from "node:util";
import { dirOf } from "../cargo/manifest/workspace.js";
import { targetName } from "../cargo/resolve/resolve.js";
import type { ReviewResult } from "../answer/review-answer.js";
import { manifestFacts } from "../cargo/manifest/facts.js";
import { renderPrActions, reviewAnswer } from "../render/review.js";
import { ruleOf } from "../render/review-words.js";
import { gatherEvidence } from "../review/gather-evidence.js";
import type { PrSnapshot } from "../review/pull-request.js";
import { reviewRules } from "../review/rules.js";
import { findRoot, type Io, read, readManifestFile, UsageError } from "./io.js";
import { cargoFiles, dirSnapshot } from "./review-dirs.js";

/** The folders of a crate that evidence is read from, as cargo lays them out. */
const CRATE_TOPS = ["src", "examples", "benches", "tests"];

export async function reviewCmd(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      json: { type: "boolean" },
      crate: { type: "string" },
      base: { type: "string" },
      head: { type: "string" },
    },
    allowPositionals: true,
  });
  // Two checkouts: every manifest that differs, reviewed as the App reviews a pull request.
  if (values.base || values.head) {
    if (!values.base || !values.head || positionals.length > 0)
      throw new UsageError("review --base DIR --head DIR takes two directories and nothing else");
    return print(await dirSnapshot(values.base, values.head, io), values.json === true, io);
  }
  const [basePath, headPath] = positionals;
  if (!basePath || !headPath) throw new UsageError("review needs the base and the head Cargo.toml");
  const snapshot = localSnapshot(basePath, headPath, io);
  await readLocalEvidence(snapshot, values.crate ?? null, headPath, io);
  return print(snapshot, values.json === true, io);
}

/** Every head line counts as changed: locally there is no PR diff to restrict suggestions to. */
function wholeFile(text: string): string {
  const lines = text.split("\n");
  return `@@ -1,${lines.length} +1,${lines.length} @@\n${lines.map((l) => ` ${l}`).join("\n")}`;
}

/**
 * A PR of one manifest, BASE into HEAD, inside its workspace as GitHub would show it: each side
 * under its own root (a member's pair in two checkouts sees each side's `[workspace.dependencies]`),
 * and a pair of roots with the member manifests beside HEAD and BASE, which a root change reaches.
 */
function localSnapshot(basePath: string, headPath: string, io: Io): PrSnapshot {
  const head = read(headPath, io);
  const base = read(basePath, io);
  const headRoot = findRoot(headPath, undefined, io);
  const baseRoot = findRoot(basePath, undefined, io) ?? headRoot;
  // The manifest as a path inside its workspace, so cargo's rules find the root as on GitHub.
  const path = headRoot ? relative(dirname(headRoot.path), resolvePath(headPath)).split(sep).join("/") : "Cargo.toml";
  const above = (root: { text: string } | null): Record<string, string> =>
    root && path !== "Cargo.toml" ? { "Cargo.toml": root.text } : {};
  const members = manifestFacts(head).isWorkspaceRoot ? membersBeside(basePath, headPath) : { head: {}, base: {} };
  const headFiles = { ...members.head, ...above(headRoot), [path]: head };
  return {
    repo: { owner: "local", repo: "local" },
    headSha: "local",
    changed: [{ path, status: "modified", patch: wholeFile(head) }],
    head: headFiles,
    base: { ...members.base, ...above(baseRoot), [path]: base },
    tree: Object.keys(headFiles),
    evidence: {},
    previous: { review: null, checkRuns: {} },
    notices: [],
    options: {
      checkRun: false,
      conclusion: "neutral",
      reviewBurnRepo: true,
      assumeEvidence: true,
      partialTree: true,
    },
  };
}

/** The other manifests under a root's folder at each side (a member absent at BASE is unchanged). */
function membersBeside(basePath: string, headPath: string) {
  const headDir = dirname(resolvePath(headPath));
  const baseDir = dirname(resolvePath(basePath));
  const others = cargoFiles(headDir).filter((p) => p !== "Cargo.toml" && p.endsWith("Cargo.toml"));
  const head = Object.fromEntries(others.map((p) => [p, readFileSync(join(headDir, p), "utf8")]));
  const base = Object.fromEntries(others.map((p) => [p, readManifestFile(join(baseDir, p)) ?? head[p]!]));
  return { head, base };
}

async function readLocalEvidence(snapshot: PrSnapshot, crate: string | null, headPath: string, io: Io) {
  const path = snapshot.changed[0]!.path;
  // The head crate's own sources, as the App reads them at the PR's head: --crate, or the head
  // manifest's directory when it holds a cargo layout. Without them the need is assumed, and said so.
  // A pair of roots: every member's sources in HEAD's folder (cargo's layout below the root).
  const wholeTree = !crate && path === "Cargo.toml" && manifestFacts(snapshot.head[path]!).isWorkspaceRoot;
  const sourceDir = crate ?? dirname(resolvePath(headPath));
  const sources = cargoFiles(sourceDir, wholeTree ? [""] : CRATE_TOPS).filter((f) => f.endsWith(".rs"));
  if (crate && sources.length === 0)
    throw new UsageError(`${crate} has no src/, examples/, benches/ or tests/ with Rust files`);
  if (sources.length > 0) {
    const crateDir = dirOf(path);
    const inSnapshot = (f: string) => (crateDir ? `${crateDir}/${f}` : f);
    const onDisk = new Map(sources.map((f) => [inSnapshot(f), join(sourceDir, f)]));
    snapshot.tree.push(...onDisk.keys());
    await gatherEvidence(snapshot, async (p) => {
      const file = onDisk.get(p);
      try {
        return file ? readFileSync(file, "utf8") : null;
      } catch (e) {
        io.stderr(`burn-triage: skipped ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
        return null;
      }
    });
  }
}

/**
 * The answer's results the review does not report (it spoke of none), a line each; the rules that
 * could not be judged for one reason share its line.
 */
function unreportedLines(results: ReviewResult[]): string[] {
  const name = (r: ReviewResult) => targetName(ruleOf(r.rule).target);
  const unresolved = new Map<string, string[]>();
  // Each rule once per crate: a crate reached through its root and by its own manifest is one.
  for (const r of results.filter((x) => x.kind === "unresolved"))
    unresolved.set(r.because ?? "", [
      ...new Set([...(unresolved.get(r.because ?? "") ?? []), `${name(r)} in ${r.member ?? r.path}`]),
    ]);
  const notNeeded = results
    .filter((r) => r.kind === "not-needed")
    .map((r) => {
      const because =
        r.notNeeded === "no-use-found"
          ? "its crate's sources show no use of it"
          : r.notNeeded === "under-own-feature"
            ? "its only use is under the crate's own feature that turns it back on"
            : "its rule speaks only when it finds a use, and the crate's sources were not read (pass --crate DIR)";
      return `${name(r)} is off after this change in ${r.member ?? r.path}, not reported: ${because}.`;
    });
  return [
    ...[...unresolved].map(([because, rules]) => `${rules.join(" and ")}: could not be judged: ${because}.`),
    ...notNeeded,
  ];
}

/** Where a line comment sits: `path:7`, or its whole range, `path:7-9` (the suggestion replaces them all). */
export const commentPlace = (c: { path: string; line: number; start_line?: number }) =>
  `${c.path}:${c.start_line !== undefined && c.start_line !== c.line ? `${c.start_line}-` : ""}${c.line}`;

function print(snapshot: PrSnapshot, json: boolean, io: Io): number {
  const answer = reviewAnswer(snapshot);
  const actions = renderPrActions(answer);
  if (json) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
  else if (actions.review)
    io.stdout(
      `${actions.review.body}\n${actions.review.comments.map((c) => `${commentPlace(c)}\n${c.body}\n`).join("\n")}`,
    );
  else {
    const notes = unreportedLines(answer.results).map((l) => l.replace(/`/g, ""));
    const watched = reviewRules()
      .map((r) => targetName(r.target))
      .join(" or ");
    const headline =
      answer.verdict === "unresolved"
        ? "No review: this change could not be judged."
        : notes.length > 0
          ? "No review."
          : `No review: this change does not turn off ${watched}.`;
    io.stdout(`${[headline, ...notes].join("\n")}\n`);
  }
  // 2: a file that does not parse (bad input); 1: a manifest cargo will refuse (the build breaks,
  // as the App's failing check says, whether or not an edit past it is shown).
  const has = (k: string) => answer.results.some((r) => r.kind === k);
  return has("invalid-toml") ? 2 : has("refused") ? 1 : 0;
}
