// `burn-triage review --base DIR --head DIR`: two checkouts of one repository reviewed as the App
// reviews a pull request between them: every Cargo.toml that differs is a changed manifest with
// its diff's hunks (so a suggestion lands only on changed lines, as on GitHub), every other one is
// there for cargo's workspace rules (a bumped root reaches members the PR does not touch), and the
// head's Rust sources are the evidence.
import { type Dirent, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isManifest } from "../cargo/manifest/workspace.js";
import { gatherEvidence } from "../review/gather-evidence.js";
import type { ChangedManifest, PrSnapshot } from "../review/pull-request.js";
import { patchOf } from "../review/tree-diff.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";

/** Files listed per checkout, as many as GitHub lists for a PR's tree. */
const MAX_FILES = 3000;

/**
 * The Cargo.toml and Rust files under `tops` of `dir` (relative paths, sorted), at most `max`;
 * hidden folders, `target` and `node_modules` are not entered. One walker for a crate's sources
 * and for a whole checkout.
 */
export function cargoFiles(dir: string, tops: string[] = [""], max = MAX_FILES): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      throw new UsageError(`cannot read ${join(dir, rel)}`);
    }
    for (const e of entries) {
      if (out.length >= max) return;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !e.name.startsWith(".") && e.name !== "target" && e.name !== "node_modules") walk(p);
      else if (e.isFile() && (e.name === "Cargo.toml" || e.name.endsWith(".rs"))) out.push(p);
    }
  };
  for (const top of tops) if (top === "" || existsSync(join(dir, top))) walk(top);
  return out.sort();
}

export async function dirSnapshot(baseDir: string, headDir: string, io: Io): Promise<PrSnapshot> {
  const read = (dir: string, p: string) => readFileSync(join(dir, p), "utf8");
  const headFiles = cargoFiles(headDir);
  const baseManifests = cargoFiles(baseDir).filter(isManifest);
  const head = Object.fromEntries(headFiles.filter(isManifest).map((p) => [p, read(headDir, p)]));
  const base = Object.fromEntries(baseManifests.map((p) => [p, read(baseDir, p)]));
  const changed: ChangedManifest[] = [];
  for (const p of Object.keys(head))
    if (base[p] !== head[p])
      changed.push({
        path: p,
        status: base[p] === undefined ? "added" : "modified",
        patch: patchOf(p, base[p] ?? "", head[p]!),
      });
  if (changed.length === 0) io.stderr("burn-triage: no Cargo.toml differs between the two checkouts\n");
  const snapshot: PrSnapshot = {
    repo: { owner: "local", repo: "local" },
    headSha: "local",
    changed,
    head,
    base,
    tree: headFiles,
    evidence: {},
    previous: { review: null, checkRuns: {} },
    notices: [],
    options: { checkRun: false, conclusion: "neutral", reviewBurnRepo: true },
  };
  await gatherEvidence(snapshot, async (p) => (headFiles.includes(p) ? read(headDir, p) : null));
  return snapshot;
}
