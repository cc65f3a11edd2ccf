// The README promises `burn-triage / autodiff` "on every PR that changes a burn manifest" and says
// what a burn manifest is. Each kind that sentence names is a case here, with a change that
// leaves the feature alone (a version bump), so only the promise posts the check; and the kinds
// it leaves out post none.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { decidePullRequest, type PrSnapshot } from "../../src/review/pull-request.js";
import { projectRoot } from "../support/root.js";

const README = readFileSync(join(projectRoot(import.meta.url), "README.md"), "utf8");

type Side = Record<string, string>;
const pkg = (name: string, version: string, deps: string) =>
  `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\n\n[dependencies]\n${deps}\n`;
const root = (version: string, wsDeps: string, extra = "") =>
  `[workspace]\nmembers = ["crates/*"]\n\n[workspace.package]\nversion = "${version}"\n\n[workspace.dependencies]\n${wsDeps}\n${extra}`;
const BURN = 'burn = { version = "0.22.0-pre.2", features = ["wgpu", "train"] }';
const INHERIT = "burn = { workspace = true }";

function pr(path: string, base: Side, head: Side): PrSnapshot {
  return {
    repo: { owner: "alice", repo: "demo" },
    headSha: "b".repeat(40),
    changed: [{ path, status: "modified", patch: "@@ -1,1 +1,1 @@\n-x\n+y" }],
    base,
    head,
    tree: Object.keys(head),
    evidence: {},
    previous: { review: null, checkRuns: {} },
    notices: [],
    options: { checkRun: true, conclusion: "neutral", reviewBurnRepo: false },
  };
}

/** Each kind of manifest the README's sentence names, changed by a version bump alone. */
const posted: Array<[string, PrSnapshot]> = [
  [
    "a crate that depends on burn",
    pr("Cargo.toml", { "Cargo.toml": pkg("demo", "0.1.0", BURN) }, { "Cargo.toml": pkg("demo", "0.1.1", BURN) }),
  ],
  [
    "a crate that depends on another burn crate",
    pr(
      "Cargo.toml",
      { "Cargo.toml": pkg("demo", "0.1.0", 'burn-ndarray = "0.22.0-pre.2"') },
      { "Cargo.toml": pkg("demo", "0.1.1", 'burn-ndarray = "0.22.0-pre.2"') },
    ),
  ],
  [
    "a workspace root whose [workspace.dependencies] declares burn, bumped alone (members inherit it)",
    pr(
      "Cargo.toml",
      { "Cargo.toml": root("0.1.0", BURN), "crates/app/Cargo.toml": pkg("app", "0.1.0", INHERIT) },
      { "Cargo.toml": root("0.1.1", BURN), "crates/app/Cargo.toml": pkg("app", "0.1.0", INHERIT) },
    ),
  ],
  [
    "a workspace root whose [workspace.dependencies] declares burn, no member inheriting it",
    pr(
      "Cargo.toml",
      { "Cargo.toml": root("0.1.0", BURN), "crates/app/Cargo.toml": pkg("app", "0.1.0", 'serde = "1"') },
      { "Cargo.toml": root("0.1.1", BURN), "crates/app/Cargo.toml": pkg("app", "0.1.0", 'serde = "1"') },
    ),
  ],
  [
    "a member that inherits burn from its root, bumped alone",
    pr(
      "crates/app/Cargo.toml",
      { "Cargo.toml": root("0.1.0", BURN), "crates/app/Cargo.toml": pkg("app", "0.1.0", INHERIT) },
      { "Cargo.toml": root("0.1.0", BURN), "crates/app/Cargo.toml": pkg("app", "0.2.0", INHERIT) },
    ),
  ],
  [
    "a crate whose burn is a release before burn-dispatch",
    pr(
      "Cargo.toml",
      { "Cargo.toml": pkg("demo", "0.1.0", 'burn = "0.13"') },
      { "Cargo.toml": pkg("demo", "0.1.1", 'burn = "0.13"') },
    ),
  ],
  ...(
    [
      ["renamed", 'nn = { package = "burn", version = "0.20" }'],
      ["from git", 'burn = { git = "https://github.com/tracel-ai/burn" }'],
      ["from a path", 'burn = { path = "../burn" }'],
    ] as const
  ).map(([how, dep]): [string, PrSnapshot] => [
    `a crate that depends on burn ${how}`,
    pr("Cargo.toml", { "Cargo.toml": pkg("demo", "0.1.0", dep) }, { "Cargo.toml": pkg("demo", "0.1.1", dep) }),
  ]),
  [
    "a crate that adds burn",
    pr(
      "Cargo.toml",
      { "Cargo.toml": pkg("demo", "0.1.0", 'serde = "1"') },
      { "Cargo.toml": pkg("demo", "0.1.1", BURN) },
    ),
  ],
  [
    "a crate that removes burn",
    pr(
      "Cargo.toml",
      { "Cargo.toml": pkg("demo", "0.1.0", BURN) },
      { "Cargo.toml": pkg("demo", "0.1.1", 'serde = "1"') },
    ),
  ],
];

const silent: Array<[string, PrSnapshot]> = [
  [
    "a crate without burn",
    pr(
      "Cargo.toml",
      { "Cargo.toml": pkg("demo", "0.1.0", 'serde = "1"') },
      { "Cargo.toml": pkg("demo", "0.1.1", 'serde = "1"') },
    ),
  ],
  [
    "a crate named like burn's that burn does not publish",
    pr(
      "Cargo.toml",
      { "Cargo.toml": pkg("demo", "0.1.0", 'burn-zzz = "1"') },
      { "Cargo.toml": pkg("demo", "0.1.1", 'burn-zzz = "1"') },
    ),
  ],
  [
    "a workspace root without burn",
    pr("Cargo.toml", { "Cargo.toml": root("0.1.0", 'serde = "1"') }, { "Cargo.toml": root("0.1.1", 'serde = "1"') }),
  ],
];

describe("the check run the README promises", () => {
  it("is said as the sentence these cases derive from", () => {
    expect(README).toContain(
      "`burn-triage / autodiff` on every PR that changes a burn manifest (a Cargo.toml that depends on burn or one of burn's crates at the base or the head, under any name and from crates.io, git or a path, or a workspace root whose `[workspace.dependencies]` declares one)",
    );
  });

  it.each(posted)("is posted for %s", (name, s) => {
    // A path checkout's version (and so its features) cannot be read from the manifest: posted,
    // neutral, "could not be checked" (issue 53: an unknown commit is never judged on main).
    const conclusion = name.endsWith("from a path") ? "neutral" : "success";
    expect(decidePullRequest(s).checks.map((c) => [c.rule, c.conclusion])).toEqual([["autodiff", conclusion]]);
  });

  it.each(silent)("is not posted for %s", (_name, s) => {
    expect(decidePullRequest(s).checks).toEqual([]);
  });
});
