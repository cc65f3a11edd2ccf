// `fix` and `why` on a typo near two feature names give the answer the issue comment gives (one
// verified edit per near name, the nearer first, none chosen): `fix` prints no patch, since a
// patch is one choice, and says each edit on stderr.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { analyze } from "../src/answer/analyze.js";
import { answerIssue } from "../src/answer/answer.js";
import { runCli } from "../src/cli/run.js";
import { fixture } from "./helpers/fixtures.js";

async function run(argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), stdin: () => "" });
  return { code, out, err };
}

const tmp = mkdtempSync(join(tmpdir(), "burn-triage-typo-"));
const manifest = (features: string) =>
  `[package]\nname = "myapp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", features = [${features}] }\n`;
const write = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};
const line = (f: string) => `+burn = { version = "0.22.0-pre.2", features = ["${f}", "train"] }`;

describe("fix / why on `rocn` (near `rocm` and `doc`)", () => {
  const rocn = write("rocn.toml", manifest('"rocn", "train"'));

  it("fix: no patch on stdout; stderr says the typo, none chosen, and each verified diff, the nearer first", async () => {
    const r = await run(["fix", rocn, "--offline"]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).not.toContain("no change proposed");
    expect(r.err).toContain(
      "no change chosen: `rocn` is taken as a typo of `rocm` or `doc`, and nothing says which you meant",
    );
    expect(r.err).toContain("if you meant `rocm` (verified on burn `0.22.0-pre.2`):");
    expect(r.err).toContain("if you meant `doc` (verified on burn `0.22.0-pre.2`):");
    expect(r.err.indexOf(line("rocm"))).toBeGreaterThan(r.err.indexOf("if you meant `rocm`"));
    expect(r.err.indexOf(line("doc"))).toBeGreaterThan(r.err.indexOf(line("rocm")));
    // Each diff is whole (its headers too), so the one meant can be cut out for `git apply`.
    expect(r.err.split(`--- ${rocn}\n`).length - 1).toBe(2);
  });

  it("fix --json and why --json: the same answer, both edits as the issue's answer carries them", async () => {
    const fix = await run(["fix", rocn, "--offline", "--json"]);
    const why = await run(["why", rocn, "--offline", "--json"]);
    expect(fix.out).toBe(why.out);
    const json = JSON.parse(fix.out);
    expect(json).toMatchObject({ verdict: "refused", on: false, noFix: null });
    expect(json.edits.map((e: { changes: unknown[] }) => e.changes)).toEqual([
      [{ op: "rename", feature: "rocn", to: "rocm", removedAt: null, turnsOn: null, near: ["rocm", "doc"] }],
      [{ op: "rename", feature: "rocn", to: "doc", removedAt: null, turnsOn: null, near: ["rocm", "doc"] }],
    ]);
    // The issue comment's answer on the same manifest (with cargo's refusal pasted) has the same edits.
    const text = `\`\`\`\n${fixture("cargo/refusal-typo-rocn-0.22-build.txt")}\`\`\`\n\n\`\`\`toml\n${manifest('"rocn", "train"')}\`\`\`\n`;
    const issue = answerIssue(analyze({ text }));
    expect(issue.edits.map((e) => e.changes)).toEqual(json.edits.map((e: { changes: unknown[] }) => e.changes));
  });

  it("an edit that also adds a feature says why, under its own diff", async () => {
    const bare = write(
      "rocn-std.toml",
      manifest('"rocn"').replace("features =", "default-features = false, features ="),
    );
    const r = await run(["fix", bare, "--offline"]);
    expect(r.out).toBe("");
    const rocm = r.err.slice(r.err.indexOf("if you meant `rocm`"), r.err.indexOf("if you meant `doc`"));
    expect(rocm).toContain("added `autodiff` to `burn`: turns on burn-dispatch/autodiff");
    // The rename was said once above the diffs, not again under each.
    expect(r.err).not.toContain("renamed `rocn`");
  });

  it("a typo near one name (`wgpuu`) is still the patch, said as taken for `wgpu`", async () => {
    const r = await run(["fix", write("wgpuu.toml", manifest('"wgpuu", "train"')), "--offline"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(line("wgpu"));
    expect(r.err).toBe(
      "renamed `wgpuu` → `wgpu`: no release of `burn` has it; taken as a typo of `wgpu`, the one name of 0.22.0-pre.2 near it\n",
    );
  });
});
