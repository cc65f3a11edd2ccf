// burn-triage review: what the bot would say on a PR changing BASE into HEAD.
import { dirname, relative, resolve as resolvePath, sep } from "node:path";
import { parseArgs } from "node:util";
import { reviewPullRequest, unresolvedText } from "../render/review.js";
import { assess, type PrSnapshot } from "../review/pull-request.js";
import { findRoot, type Io, read, UsageError } from "./io.js";
import { reviewRules } from "../review/rules.js";
import { targetName } from "../cargo/resolve.js";

export function reviewCmd(args: string[], io: Io): number {
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
  const [first] = assess(snapshot);
  const actions = reviewPullRequest(snapshot);
  if (values.json) {
    const out =
      first?.kind === "regression"
        ? { kind: first.kind, suggestion: first.plan.change.suggestion, diff: first.plan.change.diff }
        : first?.kind === "invalid-toml" || first?.kind === "unresolved"
          ? first
          : { kind: first?.kind ?? "fine" };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
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
  return first?.kind === "invalid-toml" ? 2 : 0;
}
