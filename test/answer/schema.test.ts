// answer.schema.json is what src/answer/answer-published.ts writes (`npm run docs:answer`), and
// every `--json` of the command line is an instance of it: explain, why, fix (test/answer/
// surfaces.test.ts checks each fixture) and review, here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { Ajv } from "ajv";
import { answerSchemaJson } from "../../src/answer/answer-published.js";
import { runCli } from "../../src/cli/run.js";
import { root } from "../helpers/fixtures.js";

const committed = readFileSync(join(root, "answer.schema.json"), "utf8");
const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(committed));

async function json(argv: string[]): Promise<unknown> {
  let out = "";
  await runCli(argv, { stdout: (s) => (out += s), stderr: () => {}, stdin: () => "" });
  return JSON.parse(out);
}

describe("answer.schema.json", () => {
  it("is what npm run docs:answer writes", () => {
    expect(committed).toBe(answerSchemaJson());
  });

  it.each([
    [
      "a bump cargo refuses",
      ["--base", "fixtures/repos/renovate-bump/base", "--head", "fixtures/repos/renovate-bump/head"],
    ],
    [
      "a trimmed feature list",
      [
        "fixtures/repos/pr-trim/base/Cargo.toml",
        "fixtures/repos/pr-trim/head/Cargo.toml",
        "--crate",
        "fixtures/repos/pr-trim",
      ],
    ],
  ])("review --json (%s) is one of its answers", async (_name, args) => {
    const answer = await json(["review", ...args.map((a) => (a.startsWith("--") ? a : join(root, a))), "--json"]);
    expect(validate(answer) ? [] : validate.errors).toEqual([]);
    expect(answer).toMatchObject({ kind: "review", schemaVersion: 1 });
  });

  it("an answer of no known kind is not one of its answers", () => {
    expect(validate({ schemaVersion: 1, kind: "other" })).toBe(false);
  });
});
