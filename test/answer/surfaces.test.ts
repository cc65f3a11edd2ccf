// Every issue-side fixture through every issue-side surface: the answer (what `--json` prints),
// the issue comment, the `/explain-panic` reply, `explain` (text and --json); every manifest
// fixture through `why` and `fix` (text and --json). The text says what the answer holds and
// nothing it lacks: the same verdict, the same edits, the same release; no result twice, no
// empty slot, no `undefined`/`null`/`NaN` in words; and every --json validates against the
// published answer.schema.json.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { Ajv } from "ajv";
import { analyze } from "../../src/answer/analyze.js";
import { type Answer, answerIssue } from "../../src/answer/answer.js";
import type { AnswerEdit, ManifestAnswer } from "../../src/answer/answer-schema.js";
import { runCli } from "../../src/cli/run.js";
import { commandMarker } from "../../src/render/command.js";
import { changeLines } from "../../src/render/edit.js";
import { renderAnswerComment } from "../../src/render/issue.js";
import { root } from "../helpers/fixtures.js";
import { issueTexts, manifestPaths, medianAndMax, visibleWords } from "../support/issue-texts.js";

const schema = JSON.parse(readFileSync(join(root, "answer.schema.json"), "utf8"));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

function valid(json: unknown): string {
  return validate(json) ? "" : JSON.stringify(validate.errors?.slice(0, 3));
}

async function cli(argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), stdin: () => "" });
  return { code, out, err };
}

/** The words of a text, with code spans, fences, links' targets and the user's quoted lines out. */
function prose(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, "FENCE")
    .replace(/``[\s\S]*?``/g, "CODE")
    .replace(/`[^`\n]+`/g, "CODE")
    .replace(/\]\([^)]*\)/g, "]");
}

/** Slots left unfilled: words that are not words, and punctuation around nothing. */
const EMPTY_SLOT = /\b(?:undefined|null|NaN)\b|\[object Object\]|\(\s*\)|``(?!`)|(?<![`\w])` `|\s[,;:](?=\s|$)|: \./;

function slots(text: string): string[] {
  const found = EMPTY_SLOT.exec(prose(text));
  return found ? [found[0]] : [];
}

/** Paragraphs said twice (a line of more than a few words, outside fences). */
function repeated(text: string): string[] {
  const paras = text
    .replace(/```[\s\S]*?```/g, "")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.split(/\s+/).length > 6);
  return paras.filter((p, i) => paras.indexOf(p) !== i);
}

/** The lines an edit adds, as the comment shows them (its diff's `+` lines). */
const added = (e: AnswerEdit) =>
  e.diff
    .split(/\r?\n/)
    .filter((l) => l.startsWith("+") && !l.startsWith("+++"))
    .map((l) => l.replace(/\r$/, ""));

/** What each verdict's comment says, and only it says. */
const VERDICT_WORDS: Record<Answer["verdict"], RegExp | null> = {
  "feature-off": /\*\*(?:Why it is off|Why it is not obvious|Your manifest|Which backend\?|Note:\*\*|I could not)/,
  misuse: /This is not a missing Cargo feature/,
  "removed-feature": /No Cargo\.toml change to this build fixes it/,
  "gated-path": /behind (?:a cargo feature|cargo features) that (?:is|are) off|exists only when/,
  "absent-path": /does not exist in burn|do not exist in burn/,
  "cargo-refuses": /has no feature .* at this release/,
  none: null,
};

function issueChecks(name: string, answer: Answer, comment: string | null): string[] {
  const problems: string[] = [];
  const say = (ok: boolean, what: string) => ok || problems.push(`${name}: ${what}`);
  say(valid({ ...answer, comment }) === "", `answer invalid: ${valid({ ...answer, comment })}`);
  say(
    (answer.verdict === "none") === (comment === null),
    `verdict ${answer.verdict} but comment ${comment === null ? "absent" : "present"}`,
  );
  const keys = answer.findings.map((f) => `${f.kind}|${f.id}|${f.printed}|${f.path}`);
  say(new Set(keys).size === keys.length, "a finding listed twice");
  if (comment === null) return problems;
  const words = VERDICT_WORDS[answer.verdict];
  say(!words || words.test(comment), `verdict ${answer.verdict} not said`);
  // The release: the one the answer holds (a main-branch commit, or a version) is the one the comment names.
  const r = answer.release;
  const names = [r?.commit?.slice(0, 7), r?.version].filter((x): x is string => !!x);
  if (names.length > 0)
    say(
      names.some((n) => comment.includes(`\`${n}\``) || comment.includes(` ${n}`)),
      `release ${names.join("/")} not named`,
    );
  // The edits: each the answer holds is shown (its added lines, or its feature among the choices), and no other.
  const chosen = answer.edits.filter((e) => e.forFeature !== null);
  const single = answer.edits.filter((e) => e.forFeature === null);
  for (const e of single) for (const l of added(e)) say(comment.includes(l), `edit line not shown: ${l}`);
  // A choice is shown as the string to add (`"wgpu"`), or named once among the ways out (`wgpu`).
  const shown = (f: string | null) => comment.includes(JSON.stringify(f)) || comment.includes(`\`${f}\``);
  for (const e of chosen) say(shown(e.forFeature), `choice ${e.forFeature} not shown`);
  say(
    single.length > 0 === comment.includes("**Fix**"),
    `${single.length} edits but Fix ${comment.includes("**Fix**")}`,
  );
  say(/```diff/.test(comment) === single.length > 0, "a diff the answer lacks, or none for its edit");
  for (const e of single) {
    const status = { verified: "Verified on", checked: "Checked on", "assumed-graph": "Checked on an assumed graph" }[
      e.verification.status
    ];
    say(comment.includes(status), `edit ${e.verification.status} but the comment lacks "${status}"`);
  }
  for (const s of slots(comment)) problems.push(`${name}: empty slot ${JSON.stringify(s)}`);
  for (const p of repeated(comment)) problems.push(`${name}: paragraph twice: ${p.slice(0, 60)}`);
  return problems;
}

const texts = issueTexts();

describe("every issue fixture, every issue-side surface", () => {
  it("the answer, the issue comment and the /explain-panic reply agree, with no empty slot", () => {
    const problems: string[] = [];
    let answered = 0;
    for (const [name, text] of texts) {
      const answer = answerIssue(analyze({ text }));
      const comment = renderAnswerComment(answer);
      if (comment) answered++;
      problems.push(...issueChecks(name, answer, comment));
      const reply = renderAnswerComment(answer, commandMarker(1), "command");
      problems.push(...issueChecks(`${name} (command)`, answer, reply));
    }
    expect(problems).toEqual([]);
    expect(answered).toBeGreaterThan(100);
  });

  it("the comment rendered from the answer's JSON alone is the live answer's, and what explain prints", async () => {
    // Every renderer takes only the answer: what survives JSON (what `--json` prints) is all it reads.
    const problems: string[] = [];
    for (const [name, text] of texts) {
      const answer = answerIssue(analyze({ text }));
      const plain = JSON.parse(JSON.stringify(answer));
      for (const [marker, to] of [
        [undefined, "issue"],
        [commandMarker(1), "command"],
      ] as const) {
        let fromJson: string | null;
        try {
          fromJson = renderAnswerComment(plain, marker, to);
        } catch (e) {
          fromJson = `threw ${e}`;
        }
        if (fromJson !== renderAnswerComment(answer, marker, to))
          problems.push(`${name} (${to}): JSON's comment differs`);
      }
      let out = "";
      await runCli(["explain", "-", "--offline"], { stdout: (s) => (out += s), stderr: () => {}, stdin: () => text });
      if ((renderAnswerComment(answer) ?? "No known burn panic found.\n") !== out)
        problems.push(`${name}: explain differs`);
    }
    expect(problems).toEqual([]);
  });

  it("explain and explain --json print the same answer, valid against answer.schema.json", async () => {
    const problems: string[] = [];
    for (const [name, text] of texts.filter((_t, i) => i % 3 === 0)) {
      // Through stdin, as `explain -` reads a pasted issue.
      const arg = "-";
      const run = async (argv: string[]) => {
        let out = "";
        await runCli(argv, { stdout: (s) => (out += s), stderr: () => {}, stdin: () => text });
        return out;
      };
      const json = JSON.parse(await run(["explain", arg, "--json", "--offline"]));
      const plain = await run(["explain", arg, "--offline"]);
      const err = valid(json);
      if (err) problems.push(`${name}: ${err}`);
      if ((json.comment ?? "No known burn panic found.\n") !== plain) problems.push(`${name}: text and --json differ`);
    }
    expect(problems).toEqual([]);
  });

  it("visible words of the issue comment: median ≤ 120, longest ≤ 180", () => {
    const counts = texts
      .map(([, text]) => renderAnswerComment(answerIssue(analyze({ text }))))
      .filter((c): c is string => c !== null)
      .map(visibleWords);
    const { median, max } = medianAndMax(counts);
    expect(median).toBeLessThanOrEqual(120);
    expect(max).toBeLessThanOrEqual(180);
  });
});

function manifestChecks(
  name: string,
  why: ManifestAnswer & { text: string },
  whyOut: string,
  fix: Awaited<ReturnType<typeof cli>>,
  fixJson: unknown,
): string[] {
  const problems: string[] = [];
  const say = (ok: boolean, what: string) => ok || problems.push(`${name}: ${what}`);
  say(valid(why) === "", `why --json invalid: ${valid(why)}`);
  say(valid(fixJson) === "", `fix --json invalid: ${valid(fixJson)}`);
  say(JSON.stringify(why) === JSON.stringify(fixJson), "why --json and fix --json differ");
  const head = whyOut.split("\n")[0]!;
  say(
    head.startsWith(`${why.feature}: ${why.on === null ? "unknown" : why.on ? "on" : "off"}`),
    `why says "${head}", the answer ${why.on}`,
  );
  const release = why.release?.commit ?? why.release?.version;
  if (release) say(head.includes(release), `release ${release} not in "${head}"`);
  for (const s of slots(whyOut)) problems.push(`${name}: why empty slot ${JSON.stringify(s)}`);
  const edit = why.edits[0];
  say((edit?.diff ?? "") === fix.out, "fix's stdout is not the answer's diff");
  if (edit)
    say(
      changeLines(edit).every((l) => fix.err.includes(l)),
      "fix's stderr lacks a change's reason",
    );
  return problems;
}

describe("every manifest fixture through why and fix", () => {
  it("text and --json agree and validate against answer.schema.json", async () => {
    const problems: string[] = [];
    for (const [name, path] of manifestPaths()) {
      const why = JSON.parse((await cli(["why", path, "--json", "--offline"])).out);
      const whyOut = (await cli(["why", path, "--offline"])).out;
      const fix = await cli(["fix", path, "--offline"]);
      const fixJson = JSON.parse((await cli(["fix", path, "--json", "--offline"])).out);
      problems.push(...manifestChecks(name, why, whyOut, fix, fixJson));
    }
    expect(problems).toEqual([]);
  });
});
