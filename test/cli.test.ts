import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { runCli } from "../src/cli/run.js";
import { reviewRules } from "../src/review/rules.js";
import { fixture, root } from "./helpers/fixtures.js";

async function run(argv: string[], stdin = "") {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), stdin: () => stdin });
  return { code, out, err };
}

const tmp = mkdtempSync(join(tmpdir(), "burn-triage-cli-"));
const write = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

describe("burn-triage explain", () => {
  it("prints the comment the bot would post", async () => {
    const r = await run(["explain", join(root, "fixtures/issues/pos-registry-backtrace.md")]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("blob/v0.22.0-pre.2/crates/burn-dispatch/src/backend.rs#L824");
  });
  it("--json from stdin", async () => {
    const r = await run(["explain", "-", "--json"], fixture("issues/pos-qtensor-windows-git.md"));
    const json = JSON.parse(r.out);
    expect(json.findings[0]).toMatchObject({ id: "dispatch-qtensor-autodiff-context" });
    expect(json.comment).toContain("qtensor.rs");
  });
  it("--json carries a panic's version, source, target and fix", async () => {
    const json = JSON.parse(
      (await run(["explain", "-", "--json", "--offline"], fixture("issues/pos-registry-backtrace.md"))).out,
    );
    expect(json).toMatchObject({
      schemaVersion: 1,
      kind: "issue",
      verdict: "feature-off",
      findings: [{ kind: "panic", id: "dispatch-autodiff-stub" }],
      release: { version: "0.22.0-pre.2", source: "backtrace" },
      target: { feature: "burn-dispatch/autodiff" },
      manifest: { origin: "issue" },
    });
    expect(json.edits[0].changes).toEqual([
      { op: "add", feature: "autodiff", to: null, removedAt: null, turnsOn: "burn-dispatch/autodiff" },
    ]);
  });
  it("--json carries rustc findings with the same fields (path, version and source, gate, fix)", async () => {
    const text = `\`\`\`\n${fixture("evidence/rustc-1.95-e0432-group.txt")}\`\`\`\n\n\`\`\`toml\n[package]\nname = "mnist"\n\n[dependencies]\nburn = { version = "0.20.0-pre.2", default-features = false, features = ["std"] }\n\`\`\`\n`;
    const json = JSON.parse((await run(["explain", "-", "--json", "--offline"], text)).out);
    expect(json.findings.map((f: { path: string }) => f.path)).toEqual(["burn::backend::Wgpu", "burn::train"]);
    expect(json.findings[0]).toMatchObject({ kind: "compile", id: "E0432", gate: 'feature = "burn/wgpu"' });
    expect(json).toMatchObject({
      verdict: "gated-path",
      release: { version: "0.20.0-pre.2", source: "crate-path" },
      manifest: { origin: "issue" },
    });
    expect(json.edits[0].changes.map((c: { feature: string }) => c.feature).sort()).toEqual(["train", "wgpu"]);
    expect(json.comment).toContain("burn::train");
  });
  it("exit 0 with findings: [] when nothing is recognised", async () => {
    const r = await run(["explain", join(root, "fixtures/issues/neg-node-step-registered.md"), "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ verdict: "none", findings: [], edits: [], comment: null });
  });
  it("exit 2 on unreadable input", async () => {
    const r = await run(["explain", join(tmp, "missing.md")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("cannot read");
  });
});

describe("burn-triage why / fix", () => {
  const off = write(
    "Cargo.toml",
    '[package]\nname = "a"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["wgpu"] }\n',
  );
  it("why: off, with the reason", async () => {
    const r = await run(["why", off, "--json"]);
    expect(JSON.parse(r.out)).toMatchObject({
      feature: "burn-dispatch/autodiff",
      on: false,
      verdict: "off",
      release: { version: "0.22.0-pre.2" },
      edits: [{ dependency: "burn", changes: [{ op: "add", feature: "autodiff" }] }],
    });
  });
  it("fix: prints a unified diff", async () => {
    const r = await run(["fix", off]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      '+burn = { version = "0.22.0-pre.2", default-features = false, features = ["wgpu", "autodiff"] }',
    );
  });
  it("fix --json: changes and the autodiff verdict", async () => {
    const json = JSON.parse((await run(["fix", off, "--json"])).out);
    expect(json.edits).toHaveLength(1);
    expect(json.edits[0].path).toBe(off);
    expect(json).toMatchObject({ feature: "burn-dispatch/autodiff", on: false });
    expect(json.edits[0].verification).toMatchObject({ status: "verified", targetOn: true });
  });
  it("fix: already on → exit 0, no changes, and the reason", async () => {
    const on = write("on.toml", '[dependencies]\nburn = "0.22.0-pre.2"\n');
    const r = await run(["fix", on, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ edits: [], on: true, verdict: "on" });
  });
  it("fix: malformed TOML → exit 2 with file:line:col", async () => {
    const bad = write("bad.toml", '[dependencies]\nburn = { version = "0.22"\n');
    const r = await run(["fix", bad]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: `));
  });
  it.each([
    [
      "a 5,000-deep array",
      `[dependencies]\nburn = { version = "0.22.0-pre.2", features = ${"[".repeat(5000)}${"]".repeat(5000)} }\n`,
    ],
    ["a 10,000-part dotted key", `[dependencies]\nburn.${"a.".repeat(10000)}b = 1\n`],
  ])("why and fix: %s → exit 2 with file:line:col, not a stack overflow", async (_n, text) => {
    const deep = write("deep.toml", text);
    for (const cmd of ["why", "fix"]) {
      const r = await run([cmd, deep]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/deep\.toml:2:\d+: (nested more than|a dotted key with more than) 100/);
    }
  });
  it("finds the workspace root like cargo", async () => {
    const r = await run(["fix", join(root, "fixtures/workspace/crates/trainer/Cargo.toml")]);
    expect(r.out).toContain('+burn = { workspace = true, features = ["cuda", "autodiff"] }');
  });
  it("a member inheriting burn with no workspace root above it → exit 2, not an answer for a guessed entry", async () => {
    mkdirSync(join(tmp, "lonely"), { recursive: true });
    const member = write("lonely/Cargo.toml", '[package]\nname = "m"\n\n[dependencies]\nburn = { workspace = true }\n');
    for (const cmd of ["why", "fix"]) {
      const r = await run([cmd, member, "--offline"]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toContain("no workspace root (a Cargo.toml with [workspace]) was found above it");
    }
  });
  it("fix on a member whose root keeps a removed feature: the diff is the root's", async () => {
    mkdirSync(join(tmp, "ws-refused/app"), { recursive: true });
    write(
      "ws-refused/Cargo.toml",
      '[workspace]\nmembers = ["app"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", features = ["wgpu", "server"] }\n',
    );
    const member = write(
      "ws-refused/app/Cargo.toml",
      '[package]\nname = "app"\n\n[dependencies]\nburn = { workspace = true }\n',
    );
    const r = await run(["fix", member, "--offline"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('+burn = { version = "0.22.0-pre.2", features = ["wgpu", "remote-websocket"] }');
    // stdout is the diff alone; stderr says why each change is there, one line each.
    expect(r.err).toBe("renamed `server` → `remote-websocket`: removed at 0.22.0-pre.1\n");
  });
  it("fix at a release before burn-dispatch: the edit past cargo's refusal, and exit 1 (autodiff stays off)", async () => {
    const old = write(
      "pre-dispatch.toml",
      '[dependencies]\nburn = { version = "=0.19.1", features = ["compilation-cache", "wgpu"] }\n',
    );
    const r = await run(["fix", old, "--offline"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('+burn = { version = "=0.19.1", features = ["wgpu"] }');
    expect(r.err).toContain("this edit gets cargo past its refusal; burn-dispatch/autodiff stays off");
  });
  it("why on a path dependency reads the checkout's version from disk and judges that release", async () => {
    mkdirSync(join(tmp, "checkout/burn/crates/burn"), { recursive: true });
    mkdirSync(join(tmp, "checkout/app"), { recursive: true });
    write(
      "checkout/burn/Cargo.toml",
      '[workspace]\nmembers = ["crates/*"]\n\n[workspace.package]\nversion = "0.20.1"\n',
    );
    write("checkout/burn/crates/burn/Cargo.toml", '[package]\nname = "burn"\nversion.workspace = true\n');
    const app = write(
      "checkout/app/Cargo.toml",
      '[package]\nname = "app"\n\n[dependencies]\nburn = { path = "../burn/crates/burn", default-features = false, features = ["std"] }\n',
    );
    const json = JSON.parse((await run(["why", app, "--json", "--offline"])).out);
    expect([json.release.version, json.release.source, json.assumed]).toEqual(["0.20.1", "path-version", []]);
  });
  it("a root package inherits burn from its own [workspace.dependencies]", async () => {
    const own = write(
      "own-root.toml",
      '[package]\nname = "app"\n\n[workspace]\nmembers = ["."]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["ndarray"] }\n\n[dependencies]\nburn = { workspace = true, features = ["std"] }\n',
    );
    const r = await run(["fix", own, "--offline"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('+burn = { workspace = true, features = ["std", "autodiff"] }');
  });
  it("unknown command → usage, exit 2", async () => {
    expect((await run(["frobnicate"])).code).toBe(2);
  });
});

describe("burn-triage review", () => {
  it("prints the suggestion the bot would post for a regressing change", async () => {
    const r = await run([
      "review",
      join(root, "fixtures/repos/pr-trim/base/Cargo.toml"),
      join(root, "fixtures/repos/pr-trim/head/Cargo.toml"),
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      '```suggestion\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["wgpu", "dataset", "autodiff"] }\n```',
    );
  });
  it("without the crate's sources it assumes only what an always-on rule needs, and says so", async () => {
    const r = await run([
      "review",
      join(root, "fixtures/repos/pr-trim/base/Cargo.toml"),
      join(root, "fixtures/repos/pr-trim/head/Cargo.toml"),
    ]);
    expect(r.out).toContain("(I did not read its sources; assumed to train)");
    // std speaks only when it finds a use: no sources, no std claim.
    expect(r.out).not.toContain("`std`");
  });
  it("reads the crate's sources (HEAD's folder, or --crate) for each rule's evidence", async () => {
    const crate = mkdtempSync(join(tmpdir(), "burn-triage-crate-"));
    mkdirSync(join(crate, "src"));
    writeFileSync(join(crate, "Cargo.toml"), fixture("repos/pr-trim/head/Cargo.toml"));
    writeFileSync(join(crate, "src/main.rs"), "use burn::data::dataloader::DataLoaderBuilder;\n\nfn main() {}\n");
    writeFileSync(join(crate, "src/train.rs"), fixture("repos/pr-trim/src/train.rs"));
    const base = join(root, "fixtures/repos/pr-trim/base/Cargo.toml");
    const r = await run(["review", base, join(crate, "Cargo.toml")]);
    // Files, not a commit, were reviewed: no "Checked at `local`".
    expect(r.out).not.toContain("Checked at");
    expect(r.out).toContain("`src/train.rs:6` uses `.backward()`, so that crate needs gradients");
    expect(r.out).toContain("`src/main.rs:1` uses `burn::data`, so that crate needs burn's std-only items");
    // One suggestion restores both: the two rules' edits of line 7 merged.
    expect(r.out.match(/```suggestion/g)).toHaveLength(1);
    // train.rs imports burn::optim: the merged edit restores `optim` (it brings autodiff), not `autodiff`.
    expect(r.out).toContain('features = ["wgpu", "dataset", "optim", "std"] }');
    const elsewhere = await run([
      "review",
      base,
      join(root, "fixtures/repos/pr-trim/head/Cargo.toml"),
      "--crate",
      join(root, "fixtures/repos/pr-trim"),
    ]);
    expect(elsewhere.out).toContain("`src/train.rs:6` uses `.backward()`");
    expect(elsewhere.out).not.toContain("`std`");
    const empty = await run(["review", base, base, "--crate", tmp]);
    expect(empty.code).toBe(2);
  });
  it("names a suggestion over several lines by its range, not its last line", async () => {
    const manifest = (v: string) =>
      `[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nburn = { version = "${v}", default-features = false, features = [\n    "std",\n    "server",\n    "dispatch",\n] }\n`;
    mkdirSync(join(tmp, "range-base"), { recursive: true });
    mkdirSync(join(tmp, "range-head"), { recursive: true });
    const base = write("range-base/Cargo.toml", manifest("0.21.0"));
    const head = write("range-head/Cargo.toml", manifest("0.22.0-pre.2"));
    const r = await run(["review", base, head]);
    // `server` (line 8) renamed and `dispatch` (line 9) dropped: one suggestion replacing both lines.
    expect(r.out).toContain("The suggestion on lines 8–9 gets past it.");
    expect(r.out).toMatch(/^Cargo\.toml:8-9$/m);
  });

  it("stays quiet for a harmless change, and --json says so", async () => {
    const base = join(root, "fixtures/repos/pr-trim/base/Cargo.toml");
    const out = JSON.parse((await run(["review", base, base, "--json"])).out);
    expect(out).toMatchObject({ schemaVersion: 1, kind: "review", verdict: "fine", review: false });
    // Every rule's result, not only the first one's.
    expect(out.results.map((r: { kind: string }) => r.kind)).toEqual(reviewRules().map(() => "fine"));
  });

  it("--json carries every rule's result: the verdict is the regression whichever rule found it", async () => {
    const base = join(root, "fixtures/repos/pr-trim/base/Cargo.toml");
    const head = join(root, "fixtures/repos/pr-trim/head/Cargo.toml");
    const out = JSON.parse(
      (await run(["review", base, head, "--crate", join(root, "fixtures/repos/pr-trim"), "--json"])).out,
    );
    expect(out.verdict).toBe("regression");
    expect(out.results).toHaveLength(reviewRules().length);
    expect(out.results.find((r: { rule?: string }) => r.rule === "autodiff")).toMatchObject({ kind: "regression" });
  });
});

describe("the built binary", () => {
  it("runs as package.json's bin (the bundle `npm run build` writes) and via npm run cli", async () => {
    const bin = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin["burn-triage"];
    expect(bin).toBe("dist/cli/cli.js");
    expect(readFileSync(join(root, bin), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    const out = execFileSync(
      process.execPath,
      [join(root, bin), "explain", join(root, "fixtures/issues/pos-title-only.md")],
      { encoding: "utf8" },
    );
    expect(out).toContain("0.22.0-pre.1");
    const r = spawnSync("npm", ["run", "--silent", "cli", "--", "explain", "-", "--json"], {
      cwd: root,
      input: "nothing here",
      encoding: "utf8",
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).findings).toEqual([]);
  });

  it("writes its whole answer into a pipe, and stops quietly when the reader has gone (`| true`)", () => {
    const issue = join(root, "fixtures/issues/pos-registry-backtrace.md");
    const args = [join(root, "dist/cli/cli.js"), "explain", "--offline", issue];
    const whole = spawnSync(process.execPath, args, { encoding: "utf8" });
    expect(whole.status).toBe(0);
    expect(whole.stdout).toContain("```diff");
    const cut = spawnSync("sh", ["-c", '"$0" "$@" | true', process.execPath, ...args], {
      encoding: "utf8",
    });
    expect(cut.stderr).toBe("");
  });
});

describe("fix on a member whose root and own entry both name a removed feature", () => {
  it("prints one diff over both files, each named as asked (relative here), which git apply takes whole", () => {
    const ws = mkdtempSync(join(tmpdir(), "burn-triage-two-files-"));
    mkdirSync(join(ws, "crates/node/src"), { recursive: true });
    writeFileSync(
      join(ws, "Cargo.toml"),
      '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "server"] }\n',
    );
    const member =
      '[package]\nname = "node"\nversion = "0.1.0"\n\n[dependencies]\nburn = { workspace = true, features = ["server"] }\n';
    writeFileSync(join(ws, "crates/node/Cargo.toml"), member);
    const r = spawnSync(
      process.execPath,
      [join(root, "dist/cli/cli.js"), "fix", "crates/node/Cargo.toml", "--offline"],
      {
        cwd: ws,
        encoding: "utf8",
      },
    );
    expect(r.status).toBe(0);
    expect([...r.stdout.matchAll(/^\+\+\+ (.*)$/gm)].map((m) => m[1])).toEqual([
      "Cargo.toml",
      "crates/node/Cargo.toml",
    ]);
    writeFileSync(join(ws, "fix.diff"), r.stdout);
    execFileSync("git", ["apply", "fix.diff"], { cwd: ws });
    expect(readFileSync(join(ws, "Cargo.toml"), "utf8")).toContain('"remote-websocket"');
    expect(readFileSync(join(ws, "crates/node/Cargo.toml"), "utf8")).toContain('features = ["remote-websocket"]');
  });
});

describe("CLI: any feature, local source, offline", () => {
  it("why --feature burn-core/std: off with default-features = false, and the enablers", async () => {
    const path = write(
      "nostd.toml",
      '[dependencies]\nburn = { version = "0.21.0", default-features = false, features = ["ndarray"] }\n',
    );
    const json = JSON.parse((await run(["why", path, "--feature", "burn-core/std", "--json", "--offline"])).out);
    expect(json).toMatchObject({
      feature: "burn-core/std",
      on: false,
      verdict: "off",
      edits: [{ dependency: "burn", changes: [{ op: "add", feature: "std", turnsOn: "burn-core/std" }] }],
    });
    const fix = await run(["fix", path, "--feature", "burn-core/std"]);
    expect(fix.out).toContain(
      '+burn = { version = "0.21.0", default-features = false, features = ["ndarray", "std"] }',
    );
  });

  it("--feature must be CRATE/FEATURE", async () => {
    const path = write("any.toml", '[dependencies]\nburn = "0.21.0"\n');
    const r = await run(["why", path, "--feature", "std"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--feature wants CRATE/FEATURE");
  });

  it("explain --source DIR reads the file of a release the data lacks from a checkout", async () => {
    const text =
      "thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.1/src/backend.rs:63:9:\nnot implemented: Requires `autodiff` feature\n";
    const without = await run(["explain", "-"], text);
    expect(without.out).toContain("the link follows your backtrace's line");
    const withSource = await run(["explain", "-", "--source", join(root, "fixtures/burn-src/v0.22.1")], text);
    expect(withSource.out).toContain(
      "(https://github.com/tracel-ai/burn/blob/v0.22.1/crates/burn-dispatch/src/backend.rs#L63)",
    );
    expect(withSource.out).toContain("read from burn's source at `v0.22.1`");
  });

  it("explain --source DIR answers a rustc error at a release the data lacks from that release's source", async () => {
    const text = [
      "error[E0432]: unresolved import `burn::backend::NdArray`",
      " --> src/main.rs:1:5",
      "  |",
      "1 | use burn::backend::NdArray;",
      "  |     ^^^^^^^^^^^^^^^^^^^^^^ no `NdArray` in `backend`",
      "",
      "   Compiling burn v0.23.0-pre.1 (/home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-0.23.0-pre.1)",
    ].join("\n");
    const without = await run(["explain", "-", "--offline"], text);
    expect(without.out).toContain("Assumed burn `0.22.0-pre.2`");
    // A folder with one directory per tag, as data:refresh reads it, or a checkout at the tag.
    const checkout = join(root, "fixtures/burn-src/v0.23.0-pre.1");
    const withSource = await run(["explain", "-", "--offline", "--source", checkout], text);
    expect(withSource.out).toContain("### `burn::backend::NdArray` does not exist in burn 0.23.0-pre.1");
  });

  it("explain answers a rustc error for a gated path", async () => {
    const r = await run(["explain", join(root, "fixtures/issues/neg-compile-error-021.md"), "--offline"]);
    expect(r.out).toContain("`<burn::Dispatch as burn::tensor::backend::AutodiffBackend>` sits under");
    expect(r.out).toContain('`features = ["autodiff", "dispatch"]`');
  });
});

describe("burn-triage review --base DIR --head DIR", () => {
  const checkout = (name: string, files: Record<string, string>) => {
    const dir = join(tmp, name);
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(join(dir, p, ".."), { recursive: true });
      writeFileSync(join(dir, p), text);
    }
    return dir;
  };
  const member =
    '[package]\nname = "gpu"\nversion = "0.1.0"\n\n[features]\ncuda = ["burn/cuda-jit"]\n\n[dependencies]\nburn = { workspace = true }\n';
  const rootAt = (v: string) =>
    `[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nburn = { version = "${v}", features = ["wgpu"] }\n`;

  it("a root bump reaches the member that forwards a feature the new release removed, untouched by the change", async () => {
    const base = checkout("ws-base", {
      "Cargo.toml": rootAt("0.16.0"),
      "crates/gpu/Cargo.toml": member,
      "crates/gpu/src/lib.rs": "",
    });
    const head = checkout("ws-head", {
      "Cargo.toml": rootAt("0.17.1"),
      "crates/gpu/Cargo.toml": member,
      "crates/gpu/src/lib.rs": "",
    });
    const r = await run(["review", "--base", base, "--head", head]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("`crates/gpu/Cargo.toml`");
    expect(r.out).toContain("Your `[features]` entry `cuda` asks `burn` 0.17.1 for feature `cuda-jit`");
    // 0.17.1 predates burn-dispatch: the edit past the refusal is shown on its own.
    expect(r.out).toContain('+cuda = ["burn/cuda"]');
    const same = await run(["review", "--base", base, "--head", base]);
    expect([same.code, same.err]).toEqual([0, expect.stringContaining("no Cargo.toml differs")]);
  });

  it("the file pair says what the tree form says: each side under its own root, a pair of roots with its members", async () => {
    const ws = (side: string, p = "") => join(root, "fixtures/repos/workspace-bump", side, p);
    const tree = await run(["review", "--base", ws("base"), "--head", ws("head")]);
    expect(tree.code).toBe(1);
    const said = "`crates/gpu/Cargo.toml`: the `[features]` entry `cuda` asks `burn` 0.17.1 for `cuda-jit`";
    expect(tree.out).toContain(said);
    for (const pair of [
      // The member, unchanged, in two checkouts whose roots differ: each side reads its own root.
      [ws("base", "crates/gpu/Cargo.toml"), ws("head", "crates/gpu/Cargo.toml")],
      // The roots, with the crate that inherits: the members beside HEAD are read.
      [ws("base", "Cargo.toml"), ws("head", "Cargo.toml"), "--crate", ws("head", "crates/gpu")],
      [ws("base", "Cargo.toml"), ws("head", "Cargo.toml")],
    ]) {
      const r = await run(["review", ...pair]);
      expect([r.code, r.out]).toEqual([1, expect.stringContaining(said)]);
      expect(r.out).not.toContain("No review");
      const json = JSON.parse((await run(["review", ...pair, "--json"])).out);
      expect(json.verdict).toBe("refused");
      expect(json.results.filter((x: { kind: string }) => x.kind === "refused")).toHaveLength(1);
    }
    // The root copied away from its members cannot be judged, and says so rather than "No review: … does not turn off".
    const alone = mkdtempSync(join(tmpdir(), "burn-triage-root-"));
    writeFileSync(join(alone, "Cargo.toml"), fixture("repos/workspace-bump/head/Cargo.toml"));
    const r = await run(["review", ws("base", "Cargo.toml"), join(alone, "Cargo.toml")]);
    expect(r.out).toContain("could not be judged: it is a workspace root that declares burn");
    expect(r.out).not.toContain("does not turn off");
  });

  it("takes two directories and nothing else", async () => {
    await expect(run(["review", "--base", tmp])).resolves.toMatchObject({ code: 2 });
    await expect(run(["review", "--base", tmp, "--head", tmp, "x.toml"])).resolves.toMatchObject({ code: 2 });
  });
});
