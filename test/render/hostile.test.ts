// Every kind of comment the bot writes, rendered from inputs where every user-controlled field is
// hostile, then parsed as GitHub parses Markdown: nothing may ping, link elsewhere, cross-
// reference or render HTML outside code.
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../../src/answer/analyze.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { commandMarker, renderHelp, renderNothingFound } from "../../src/render/command.js";
import { renderResolvedComment } from "../../src/render/issue.js";
import { renderReviewState, reviewPullRequest } from "../../src/render/review.js";
import { burnPermalink } from "../../src/util/links.js";
import { activeMarkdown, expectInert } from "../helpers/markdown.js";

const EVIL =
  "@octocat @org/team #123 tracel-ai/burn#9 GH-7 https://evil.example/x www.evil.example <img src=x onerror=alert(1)> ](https://evil.example) ![i](https://evil.example/i.png) </details> <!-- burn-triage:issue -->";
/** The same, without the characters a TOML basic string or a path cannot hold. */
const EVIL_TOML = EVIL.replace(/["\\]/g, "");
const REG = "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f";
const panicAt = (path: string, line = 824) =>
  `thread 'main' panicked at ${path}:${line}:9:\nnot implemented: Requires \`autodiff\` feature\n`;
const stub = panicAt(`${REG}/burn-dispatch-0.22.0-pre.2/src/backend.rs`);
/** A vendored build: the path names no version, so the manifest decides it. */
const vendored = panicAt("/work/app/vendor/burn-dispatch/src/backend.rs");
const toml = (body: string) => `\`\`\`toml\n${body}\n\`\`\`\n`;

const ISSUES: Array<[string, string]> = [
  [
    "a backtrace path that closes the link",
    panicAt(`${REG}/burn-dispatch-0.22.0-pre.2/src/a)[x](https://evil.example) ${EVIL_TOML}/backend.rs`),
  ],
  [
    "a git-checkout path with a crafted crate",
    panicAt(
      `/h/.cargo/git/checkouts/burn-0123456789abcdef/2c06be3/crates/burn-dispatch/src/x](https://evil.example)/backend.rs`,
    ),
  ],
  [
    "a version requirement",
    stub + toml(`[dependencies]\nburn = { version = "9.9.9 ${EVIL_TOML}", default-features = false }`),
  ],
  [
    "an unknown requirement without a pin",
    vendored + toml(`[dependencies]\nburn = { version = "99.0 ${EVIL_TOML}", default-features = false }`),
  ],
  [
    "a git branch",
    vendored +
      toml(
        `[dependencies]\nburn = { git = "https://github.com/tracel-ai/burn", branch = "${EVIL_TOML}", default-features = false }`,
      ),
  ],
  [
    "a git rev",
    vendored +
      toml(
        `[dependencies]\nburn = { git = "https://github.com/tracel-ai/burn", rev = "${EVIL_TOML}", default-features = false }`,
      ),
  ],
  [
    "a path dependency",
    vendored + toml(`[dependencies]\nburn = { path = "../burn/crates/burn ${EVIL_TOML}", default-features = false }`),
  ],
  [
    "feature names",
    stub +
      toml(
        `[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["${EVIL_TOML}", "@octocat"] }`,
      ),
  ],
  [
    "a renamed dependency",
    stub +
      toml(`[dependencies]\n"${EVIL_TOML}" = { package = "burn", version = "0.22.0-pre.2", default-features = false }`),
  ],
  [
    "own feature names that gate burn",
    stub +
      toml(
        `[features]\n"${EVIL_TOML}" = ["burn/train"]\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false }`,
      ),
  ],
  [
    "malformed TOML echoing user text",
    stub + toml(`[dependencies]\nburn = { version = "0.22.0-pre.2", ${EVIL_TOML} }`),
  ],
  ["a prose version", `${vendored}I use burn 0.22 ${EVIL}`],
  ["a Cargo.lock pin", vendored + toml(`[[package]]\nname = "burn"\nversion = "0.22.0-pre.2 ${EVIL_TOML}"`)],
  [
    "a rustc error line",
    `error[E0432]: unresolved imports \`burn::train\`, ${EVIL}\n --> src/main.rs:1:5\n  |\n1 | use burn::train; ${EVIL}\n  |     ^ could not find \`train\` in \`burn\`\n${toml(`[dependencies]\nburn = { version = "0.20.1", default-features = false, features = ["std", "${EVIL_TOML}"] }`)}`,
  ],
  [
    "a rustc error without a manifest",
    `burn 0.20.1\nerror[E0433]: failed to resolve: could not find \`train\` in \`burn\` ${EVIL}\n`,
  ],
];

describe("hostile values in every field stay text", () => {
  it("the checker itself sees mentions, references, foreign links and HTML", () => {
    expect(
      activeMarkdown(`hi @octocat see #12 and https://evil.example <img src=x> [a](https://evil.example) ![i](x.png)`),
    ).toHaveLength(6);
    expect(activeMarkdown("`@octocat #12 https://evil.example <img>`")).toEqual([]);
  });

  it.each(ISSUES)("issue comment and command reply: %s", (_name, issue) => {
    const a = analyze({ text: issue });
    const comment = renderIssueComment(a);
    expect(comment).not.toBeNull();
    expectInert(comment!);
    expectInert(renderIssueComment(a, commandMarker(7), "command")!);
  });

  it("help, nothing-found and resolved replies", () => {
    for (const md of [renderHelp(commandMarker(1)), renderNothingFound(commandMarker(1)), renderResolvedComment()])
      expectInert(md);
  });

  /** A one-manifest pull request through every review surface: body, line comments, checks, state note. */
  function surfaces(path: string, base: string | null, head: string, repo: { owner: string; repo: string }) {
    const a = reviewPullRequest({
      repo,
      headSha: "b".repeat(40),
      changed: [
        { path, status: base === null ? "added" : "modified", patch: "@@ -1,2 +1,2 @@\n [dependencies]\n+x\n" },
      ],
      base: { [path]: base },
      head: { [path]: head },
      tree: [path, path.replace("Cargo.toml", "src/train.rs")],
      evidence: {
        autodiff: { [path]: { path: path.replace("Cargo.toml", "src/train.rs"), line: 3, what: ".backward()" } },
      },
      previous: { review: null, checkRuns: {} },
      notices: [],
      options: { checkRun: true, conclusion: "neutral", reviewBurnRepo: true },
    });
    expect(a.review).not.toBeNull();
    return [
      a.review!.body,
      ...a.review!.comments.map((c) => c.body),
      // Annotations are plain text on GitHub, not Markdown: only the summaries render.
      ...a.checks.map((c) => c.output.summary),
    ];
  }

  it.each([
    [
      "renamed key",
      (f: string) => `[dependencies]\n"${EVIL_TOML}" = { package = "burn", version = "0.22.0-pre.2"${f} }\n`,
    ],
  ])("review body, suggestion, check output and superseded note: %s", (_n, manifest) => {
    // The crate path, the source path and the repository's names are user-controlled too.
    const path = `crates/${EVIL_TOML}/Cargo.toml`;
    const repo = { owner: "@octocat", repo: "x](https://evil.example)" };
    const all = surfaces(path, manifest(""), manifest(", default-features = false"), repo);
    expect(all.length).toBeGreaterThan(2);
    for (const md of [...all, renderReviewState("b".repeat(40), "fixed", ["autodiff"])]) expectInert(md);
    const alice = surfaces(path, manifest(""), manifest(", default-features = false"), {
      owner: "alice",
      repo: "mnist-demo",
    });
    expect(alice.join("\n")).not.toContain("](https://github.com/alice/mnist-demo/blob/");
  });

  it("a feature name cargo will refuse, in the review body and the check", () => {
    const repo = { owner: "@octocat", repo: "x](https://evil.example)" };
    const all = surfaces(
      `crates/${EVIL_TOML}/Cargo.toml`,
      `[dependencies]\nburn = { version = "0.22.0-pre.2" }\n`,
      `[dependencies]\nburn = { version = "0.22.0-pre.2", features = ["${EVIL_TOML}"] }\n`,
      repo,
    );
    expect(all[0]).toContain("cargo will refuse");
    for (const md of all) expectInert(md);
  });

  it("an unparseable head manifest in a review", () => {
    const all = surfaces("Cargo.toml", null, `[dependencies]\nburn = { ${EVIL_TOML} }\n`, {
      owner: "alice",
      repo: "mnist-demo",
    });
    expect(all[0]).toContain("does not parse");
    for (const md of all) expectInert(md);
  });
});

describe("permalinks only of the allowed shape", () => {
  it.each([
    [
      "v0.22.0-pre.2",
      "crates/burn-dispatch/src/backend.rs",
      824,
      "https://github.com/tracel-ai/burn/blob/v0.22.0-pre.2/crates/burn-dispatch/src/backend.rs#L824",
    ],
    [
      "2c06be3",
      "crates/burn-dispatch/src/ops/qtensor.rs",
      41,
      "https://github.com/tracel-ai/burn/blob/2c06be3/crates/burn-dispatch/src/ops/qtensor.rs#L41",
    ],
  ])("%s %s", (ref, path, line, url) => {
    expect(burnPermalink(ref, path, line)).toBe(url);
  });
  it.each([
    ["a path that closes the link", "v0.22.0", "crates/burn-dispatch/src/a)[x](https://e.x)/b.rs"],
    ["a path that climbs out", "v0.22.0", "crates/burn-dispatch/../../x.rs"],
    ["a lone surrogate", "v0.22.0", "crates/burn-dispatch/src/\ud800.rs"],
    ["spaces and mentions", "v0.22.0", "crates/burn-dispatch/src/@octocat x.rs"],
    ["a ref with a query", "v0.22.0?x=1", "crates/burn-dispatch/src/backend.rs"],
    ["a branch name", "feature/x", "crates/burn-dispatch/src/backend.rs"],
  ])("refuses %s", (_n, ref, path) => {
    expect(burnPermalink(ref, path, 1)).toBeNull();
  });
});
