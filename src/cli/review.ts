// burn-triage review: what the bot would say on a PR changing BASE into HEAD.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve as resolvePath, sep } from "node:path";
import { parseArgs } from "node:util";
import { dirOf } from "../cargo/manifest/workspace.js";
import { targetName } from "../cargo/resolve/resolve.js";
import { reviewPullRequest, unresolvedText } from "../render/review.js";
import { why } from "../render/why.js";
import { gatherEvidence } from "../review/gather-evidence.js";
import type { ManifestReview } from "../review/manifest.js";
import { assess, type PrSnapshot } from "../review/pull-request.js";
import { reviewRules } from "../review/rules.js";
import { findRoot, type Io, read, UsageError } from "./io.js";
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

/** A PR of one manifest, BASE into HEAD, inside HEAD's workspace as GitHub would show it. */
function localSnapshot(basePath: string, headPath: string, io: Io): PrSnapshot {
  const head = read(headPath, io);
  const base = read(basePath, io);
  const root = findRoot(headPath, undefined, io);
  // The manifest as a path inside its workspace, so cargo's rules find the root as on GitHub.
  const path = root ? relative(dirname(root.path), resolvePath(headPath)).split(sep).join("/") : "Cargo.toml";
  const files: Record<string, string> = root && path !== "Cargo.toml" ? { "Cargo.toml": root.text } : {};
  // Every head line counts as changed: locally there is no PR diff to restrict suggestions to.
  const lines = head.split("\n").length;
  const patch = `@@ -1,${lines} +1,${lines} @@\n${head
    .split("\n")
    .map((l) => ` ${l}`)
    .join("\n")}`;
  const snapshot: PrSnapshot = {
    repo: { owner: "local", repo: "local" },
    headSha: "local",
    changed: [{ path, status: "modified", patch }],
    head: { ...files, [path]: head },
    base: { ...files, [path]: base },
    tree: Object.keys({ ...files, [path]: head }),
    evidence: {},
    previous: { review: null, checkRuns: {} },
    notices: [],
    options: { checkRun: false, conclusion: "neutral", reviewBurnRepo: true, assumeEvidence: true },
  };
  return snapshot;
}

async function readLocalEvidence(snapshot: PrSnapshot, crate: string | null, headPath: string, io: Io) {
  const path = snapshot.changed[0]!.path;
  // The head crate's own sources, as the App reads them at the PR's head: --crate, or the head
  // manifest's directory when it holds a cargo layout. Without them the need is assumed, and said so.
  const sourceDir = crate ?? dirname(resolvePath(headPath));
  const sources = cargoFiles(sourceDir, CRATE_TOPS);
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

/** One rule's result on one manifest, as `--json` prints it. */
function jsonOf(r: ManifestReview) {
  if (r.kind === "regression")
    return { rule: r.rule, path: r.path, kind: r.kind, suggestion: r.plan.change.suggestion, diff: r.plan.change.diff };
  if (r.kind === "regression-unfixable") return { rule: r.rule, path: r.path, kind: r.kind, reason: r.reason };
  if (r.kind === "refused")
    return { kind: r.kind, path: r.path, line: r.line, why: why(r.diagnosis).replace(/`/g, "") };
  return r;
}

function print(snapshot: PrSnapshot, json: boolean, io: Io): number {
  const all = assess(snapshot);
  // The headline: a regression first, then what could not be judged, else the first (fine) result.
  const first = all.find((r) => r.kind === "regression") ?? all.find((r) => r.kind !== "fine") ?? all[0];
  const actions = reviewPullRequest(snapshot);
  if (json) {
    // The headline's fields as before, then every rule's result on every manifest.
    const headline =
      first?.kind === "regression"
        ? { kind: first.kind, suggestion: first.plan.change.suggestion, diff: first.plan.change.diff }
        : first?.kind === "invalid-toml" || first?.kind === "unresolved" || first?.kind === "refused"
          ? jsonOf(first)
          : { kind: first?.kind ?? "fine" };
    io.stdout(`${JSON.stringify({ ...headline, results: all.map(jsonOf) }, null, 2)}\n`);
  } else if (actions.review) {
    io.stdout(
      `${actions.review.body}\n${actions.review.comments.map((c) => `${c.path}:${c.line}\n${c.body}\n`).join("\n")}`,
    );
  } else {
    io.stdout(
      first?.kind === "unresolved"
        ? `No review: ${unresolvedText(first.why).replace(/`/g, "")}.\n`
        : `No review: this change does not turn off ${reviewRules()
            .map((r) => targetName(r.target))
            .join(" or ")}.\n`,
    );
  }
  // 2: a file that does not parse (bad input); 1: a manifest cargo will refuse (the build breaks,
  // as the App's failing check says, whether or not an edit past it is shown).
  return all.some((r) => r.kind === "invalid-toml") ? 2 : all.some((r) => r.kind === "refused") ? 1 : 0;
}
