// The maintainer's review of the bot's PR reviews (reader findings 1, 2, 3): what `review` says
// about a checkout it reads must be what the files show, never more.
import { describe, expect, it } from "@jest/globals";
import { runCli } from "../../src/cli/run.js";
import { root } from "../helpers/fixtures.js";

async function run(argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), stdin: () => "" });
  return { code, out, err };
}

const repo = (name: string, side: string) => `${root}/fixtures/repos/${name}/${side}`;

describe("a crate none of whose sources was found (finding 3)", () => {
  // pr-trim's head/ holds only Cargo.toml; its src/train.rs sits beside it, outside the checkout.
  const args = ["review", "--base", repo("pr-trim", "base"), "--head", repo("pr-trim", "head")];

  it("is not said to show no use: whether its code needs the feature is unknown, and said so", async () => {
    const r = await run(args);
    expect(r.out).not.toContain("show no use");
    expect(r.out).toContain(
      "burn-dispatch/autodiff in Cargo.toml and burn-core/std in Cargo.toml: could not be judged: I found no Rust source",
    );
    const json = JSON.parse((await run([...args, "--json"])).out);
    expect(json.results.map((x: { kind: string }) => x.kind)).toEqual(["unresolved", "unresolved"]);
    // autodiff always speaks: its check is neutral, not a success over code nobody read.
    expect(json.results[0]).toMatchObject({ rule: "autodiff", reported: true });
    expect(json.verdict).toBe("unresolved");
  });
});

describe("burn's own repository under a changed root (finding 1)", () => {
  const args = ["review", "--base", repo("burn-4717", "base"), "--head", repo("burn-4717", "head")];

  it("reads each member's burn checkout version through version.workspace, as `why` does, and names each rule once", async () => {
    const r = await run(args);
    // The root's [workspace.package] version = "0.22.0-pre.1" is what every crates/* inherits.
    expect(r.out).not.toContain("no version I could read");
    expect(r.out).not.toContain("show no use");
    for (const line of r.out.split("\n"))
      for (const rule of ["burn-dispatch/autodiff", "burn-core/std"])
        expect(line.split(rule).length - 1).toBeLessThanOrEqual(1);
    expect(r.out).toContain("burn-dispatch/autodiff in crates/burn-rl/Cargo.toml");
  });
});

describe("the edit restores what the crate's imports need (finding 2)", () => {
  // src/train.rs: `use burn::optim::AdamConfig;` — burn::optim is behind `optim` at 0.22.0-pre.2
  // (gated data, crates/burn/src/lib.rs:155), and `optim` turns autodiff on too.
  const args = [
    "review",
    repo("pr-trim", "base/Cargo.toml"),
    repo("pr-trim", "head/Cargo.toml"),
    "--crate",
    `${root}/fixtures/repos/pr-trim`,
  ];

  it("suggests `optim`, not `autodiff`, which would leave `use burn::optim` unresolved", async () => {
    const r = await run(args);
    expect(r.out).toContain('features = ["wgpu", "dataset", "optim"] }');
    expect(r.out).not.toContain('"dataset", "autodiff"');
    const json = JSON.parse((await run([...args, "--json"])).out);
    const reported = json.results.find((x: { reported: boolean }) => x.reported);
    expect(reported).toMatchObject({ rule: "autodiff", kind: "regression", edit: { added: ["optim"] } });
  });
});
