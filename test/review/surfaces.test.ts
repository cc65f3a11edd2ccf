// Every PR review fixture through every review surface (the App's body, line comments and check
// runs; the CLI's text and --json), each checked against the one answer object they render: the
// same verdict, the same edits, the same release; no result twice, no empty slot, no paragraph
// said twice, and `review --json` valid against the published schema.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { Ajv } from "ajv";
import { REVIEW_ANSWER_SCHEMA, type ReviewAnswer, type ReviewResult } from "../../src/answer/review-answer.js";
import { runCli } from "../../src/cli/run.js";
import { code, fence } from "../../src/render/escape.js";
import { diffBody } from "../../src/render/manifest.js";
import { checkName, type PrActions, renderPrActions, reviewAnswer } from "../../src/render/review.js";
import { reviewRules } from "../../src/review/rules.js";
import { fixture, root } from "../helpers/fixtures.js";
import { prCaseSnapshots, repeatedParagraphs, reviewTexts } from "../support/review-surfaces.js";

const validate = new Ajv({ allErrors: true }).compile(REVIEW_ANSWER_SCHEMA);
function expectValid(a: unknown) {
  const ok = validate(JSON.parse(JSON.stringify(a)));
  expect(ok ? [] : validate.errors).toEqual([]);
}

const isProblem = (r: ReviewResult) =>
  r.reported && (r.kind === "refused" || r.kind === "invalid-toml" || r.kind.startsWith("regression"));

/** Text a reader sees holds no unfilled slot: no `undefined`, no empty list, no empty code span. */
function expectFilled(md: string) {
  const prose = md.replace(/^<!-- burn-triage:review .* -->$/m, "");
  expect(prose).not.toMatch(/\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]/);
  expect(prose).not.toMatch(/(?<![`\w])``(?![`\w])/); // an empty code span
  expect(prose).not.toMatch(/[ \t][.,;:](?=\s|$)|[ \t]\(\s*\)/); // a list or a value interpolated as nothing
}

/** One result per rule, manifest and member: none said twice, each named. */
function expectNoDuplicate(a: ReviewAnswer) {
  const keys = a.results.map((r) => JSON.stringify([r.rule, r.path, r.member ?? null, r.kind]));
  expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  for (const r of a.results) expect(r.rule === "cargo" || reviewRules().some((x) => x.id === r.rule)).toBe(true);
  expect(a.results.filter((r) => r.kind === "refused" || r.kind === "invalid-toml").map((r) => r.path)).toEqual([
    ...new Set(a.results.filter((r) => r.kind === "refused" || r.kind === "invalid-toml").map((r) => r.path)),
  ]);
}

/** The review text says what the answer holds: its verdict's headings, every edit, every release. */
function expectTextMatches(a: ReviewAnswer, text: string) {
  const problems = a.results.filter(isProblem);
  expect(text.includes("### cargo will refuse")).toBe(problems.some((p) => p.kind === "refused"));
  expect(text.includes("does not parse")).toBe(problems.some((p) => p.kind === "invalid-toml"));
  for (const rule of reviewRules())
    expect(text.includes(`### This PR turns off ${code(rule.target.feature)}`)).toBe(
      problems.some((p) => p.rule === rule.id),
    );
  for (const p of problems) {
    if (p.edit?.verifiedOn) expect(text).toContain(code(p.edit.verifiedOn));
    if (p.edit && p.onLines)
      for (const x of p.edit.suggestions) expect(text).toContain(fence(x.lines.join("\n"), "suggestion"));
    if (p.edit && !p.onLines) expect(text).toContain(diffBody(p.edit.diff));
    for (const r of p.refused ?? []) expect(text).toContain(`${code(r.crate)} ${r.version}`);
  }
  // A suggestion the answer does not hold is not shown.
  const shown = problems.reduce((n, p) => n + (p.edit && p.onLines ? p.edit.suggestions.length : 0), 0);
  expect(text.match(/```suggestion/g) ?? []).toHaveLength(shown);
}

function expectAgree(a: ReviewAnswer, act: PrActions) {
  expectValid(a);
  expectNoDuplicate(a);
  expect(act.review !== null).toBe(a.review);
  expect(act.checks.map((c) => [c.name, c.conclusion])).toEqual(
    a.checks.map((c) => [checkName({ id: c.rule }), c.conclusion]),
  );
  // Each check run annotates every line at fault of its rule (a shared edit's line too): each line a
  // refused feature is written on, each run of a regression's edit.
  const places = (r: ReviewResult) =>
    r.kind === "refused"
      ? Math.max(1, new Set((r.refused ?? []).filter((x) => x.line !== null).map((x) => `${x.path}:${x.line}`)).size)
      : r.kind === "regression" && r.edit
        ? r.edit.suggestions.length
        : 1;
  for (const c of a.checks) {
    const mine = a.results.filter(
      (r) => isProblem(r) && (r.rule === c.rule || r.rule === "cargo") && r.kind !== "regression-unfixable",
    );
    const output = act.checks.find((x) => x.name === checkName({ id: c.rule }))!.output;
    expect(output.annotations ?? []).toHaveLength(mine.reduce((n, r) => n + places(r), 0));
  }
  const texts = [...reviewTexts(act), ...act.checks.map((c) => c.output.summary)];
  for (const t of texts) expectFilled(t);
  if (act.review) expectTextMatches(a, reviewTexts(act).join("\n"));
  expect(repeatedParagraphs(reviewTexts(act))).toEqual([]);
}

/** pr-trim with both rules' evidence: one edit of line 7 restores autodiff and std (a shared fix). */
function sharedFix() {
  const [c] = prCaseSnapshots();
  const text = (side: string) => fixture(`repos/pr-trim/${side}/Cargo.toml`);
  return {
    ...c!.snapshot,
    changed: [
      {
        path: "Cargo.toml",
        status: "modified",
        patch: fixture("repos/pr-trim/patch.diff").replace(/^[\s\S]*?(?=@@)/, ""),
      },
    ],
    base: { "Cargo.toml": text("base") },
    head: { "Cargo.toml": text("head") },
    tree: ["Cargo.toml", "src/main.rs", "src/train.rs"],
    evidence: {
      autodiff: { "Cargo.toml": { path: "src/train.rs", line: 6, what: ".backward()" } },
      std: { "Cargo.toml": { path: "src/main.rs", line: 1, what: "burn::data" } },
    },
  };
}

describe("every PR fixture, every App surface, one answer", () => {
  it("a shared fix: one suggestion, both rules' checks annotate its line", () => {
    const a = reviewAnswer(sharedFix());
    expect(a.results.filter((r) => r.reported).map((r) => [r.rule, r.sharedWith ?? null])).toEqual([
      ["autodiff", null],
      ["std", "autodiff"],
    ]);
    expectAgree(a, renderPrActions(a));
  });

  it.each(prCaseSnapshots().map((c) => [c.name, c.snapshot] as const))("%s", (_name, snapshot) => {
    const a = reviewAnswer(snapshot);
    expectAgree(a, renderPrActions(a));
  });
});

async function cli(argv: string[]) {
  let out = "";
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: () => {}, stdin: () => "" });
  return { code, out };
}

const fx = (p: string) => join(root, "fixtures", p);
const editPairs = readdirSync(fx("edits")).map((d) => [
  `edits/${d}`,
  [fx(`edits/${d}/out.toml`), fx(`edits/${d}/in.toml`)],
]);
const manifests = readdirSync(fx("manifests")).map((m) => [
  `manifests/${m}`,
  [fx(`manifests/${m}`), fx(`manifests/${m}`)],
]);
// The workspace fixture with `std` taken out of the root's entry: a root change reaching its member.
const noStd = mkdtempSync(join(tmpdir(), "burn-triage-surfaces-"));
writeFileSync(join(noStd, "Cargo.toml"), fixture("workspace/Cargo.toml").replace('    "std",\n', ""));
mkdirSync(join(noStd, "crates/trainer"), { recursive: true });
writeFileSync(join(noStd, "crates/trainer/Cargo.toml"), fixture("workspace/crates/trainer/Cargo.toml"));
// The same root copied away from its members: it cannot be judged, and says so.
const alone = mkdtempSync(join(tmpdir(), "burn-triage-surfaces-"));
writeFileSync(join(alone, "Cargo.toml"), fixture("workspace/Cargo.toml").replace('    "std",\n', ""));
const CLI_CASES: Array<[string, string[]]> = [
  ["pr-trim", [fx("repos/pr-trim/base/Cargo.toml"), fx("repos/pr-trim/head/Cargo.toml")]],
  [
    "pr-trim --crate",
    [fx("repos/pr-trim/base/Cargo.toml"), fx("repos/pr-trim/head/Cargo.toml"), "--crate", fx("repos/pr-trim")],
  ],
  ["renovate-bump", [fx("repos/renovate-bump/base/Cargo.toml"), fx("repos/renovate-bump/head/Cargo.toml")]],
  ["workspace-bump roots", [fx("repos/workspace-bump/base/Cargo.toml"), fx("repos/workspace-bump/head/Cargo.toml")]],
  [
    "workspace-bump member",
    [fx("repos/workspace-bump/base/crates/gpu/Cargo.toml"), fx("repos/workspace-bump/head/crates/gpu/Cargo.toml")],
  ],
  ["workspace-bump dirs", ["--base", fx("repos/workspace-bump/base"), "--head", fx("repos/workspace-bump/head")]],
  ["workspace root without std", [fx("workspace/Cargo.toml"), join(noStd, "Cargo.toml")]],
  ["workspace root without std, copied alone", [fx("workspace/Cargo.toml"), join(alone, "Cargo.toml")]],
  ...(editPairs as Array<[string, string[]]>),
  ...(manifests as Array<[string, string[]]>),
];

describe("every CLI review fixture: the text and --json say the same", () => {
  it.each(CLI_CASES)("%s", async (_name, args) => {
    const text = await cli(["review", ...args]);
    const json = await cli(["review", ...args, "--json"]);
    expect(text.code).toBe(json.code);
    const a = JSON.parse(json.out) as ReviewAnswer;
    expectValid(a);
    expectNoDuplicate(a);
    expectFilled(text.out);
    expect(text.out.startsWith("<!-- burn-triage:review")).toBe(a.review);
    if (!a.review) expect(text.out).toMatch(/^No review/);
    else expectTextMatches(a, text.out);
    expect(repeatedParagraphs([text.out])).toEqual([]);
    // The exit code is the answer's: 1 when cargo refuses a manifest (reported or not).
    if (text.code !== 2) expect(text.code).toBe(a.results.some((r) => r.kind === "refused") ? 1 : 0);
    // A regression the review does not report is said in the text as well, with why.
    if (!a.review && a.results.some((x) => x.kind === "not-needed")) expect(text.out).toContain("not reported");
  });
});
