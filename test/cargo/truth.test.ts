// Real-style manifests where the bot used to be confidently wrong: version rules, releases
// without burn-dispatch, user crates named burn-*, git/path sources, every array style, 0.21's
// minimal addition, CRLF diffs. Each states what it selected, from where, and what it assumed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";
import { parsePlain } from "../../src/cargo/manifest/toml.js";
import { runCli } from "../../src/cli/run.js";
import { assumptionText, crateVersionNote } from "../../src/render/manifest.js";
import { why } from "../../src/render/why.js";
import { fixture } from "../helpers/fixtures.js";

const manifest = (name: string) => fixture(`manifests/${name}`);
const diag = (text: string, opts: Parameters<typeof diagnose>[1] = {}) => diagnose(parseManifest(text), opts);
const plan = (text: string, opts: Parameters<typeof planFix>[1] = {}) => planFix({ path: "Cargo.toml", text }, opts);

async function cli(args: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(args, { stdout: (s) => (out += s), stderr: (s) => (err += s), stdin: () => "" });
  return { code, out, err };
}

describe("version selection follows cargo", () => {
  it('version = "*" selects the newest release, never a pre-release', async () => {
    const d = diag(manifest("version-star.toml"));
    expect(d.selected).toEqual({ version: "0.21.0", source: "requirement", preDispatch: null, mainCommit: null });
    expect(d.graphVersion).toBe("0.21.0");
    expect(d.verdict).toBe("no-dispatch");
    expect(d.fix?.add).toEqual(["autodiff", "dispatch"]);
    // `*` admits releases after the data's: the release is assumed, and said so (reader finding 13).
    expect(d.assumed).toEqual({
      version: { kind: "floating", key: "burn", requirement: "*", assumed: "0.21.0" },
    });
  });

  it("a requirement resolves each burn crate by the requirements on it: burn 0.14.0 builds burn-core 0.14.1", () => {
    const text = '[dependencies]\nburn = { version = "0.14", default-features = false }\n';
    const d = diag(text, { target: { crate: "burn-core", feature: "std" } });
    expect([d.primary?.resolved, d.state.version]).toEqual(["0.14.0", "0.14.1"]);
    expect(crateVersionNote(d, (x) => x)).toBe(
      "burn-core resolves to 0.14.1 in this build, while burn is 0.14.0: cargo selects each burn crate by the requirements on it, and a tag need not publish every crate.",
    );
    // A version the build is known to have (a lock) pins every crate, as the lock does.
    const locked = diag(text, {
      target: { crate: "burn-core", feature: "std" },
      burnVersion: "0.14.0",
      burnVersionSource: "lock",
    });
    expect(locked.state.version).toBe("0.14.0");
  });

  it("a Cargo.lock pin wins over the requirement, and says so", async () => {
    const d = diag(manifest("version-star.toml"), { burnVersion: "0.22.0-pre.2", burnVersionSource: "lock" });
    expect(d.selected).toMatchObject({ version: "0.22.0-pre.2", source: "lock" });
    expect(d.verdict).toBe("off");
    expect(d.fix?.add).toEqual(["autodiff"]);
  });
});

describe("releases without burn-dispatch", () => {
  it("burn 0.13 is answered as pre-dispatch, not resolved on a newer graph", async () => {
    const d = diag(manifest("pre-dispatch-013.toml"));
    expect(d.verdict).toBe("pre-dispatch");
    expect(d.state.chain).toEqual([]);
    const text = why(d);
    expect(text).toContain("has no `burn-dispatch`");
    expect(text).toContain("`Autodiff<B>` backend wrapper");
    expect(text).not.toContain("→");
    const p = plan(manifest("pre-dispatch-013.toml"));
    expect(p.kind).toBe("no-fix");
  });

  it("a Cargo.lock naming 0.20.1 is pre-dispatch even under a * requirement", async () => {
    expect(diag(manifest("version-star.toml"), { burnVersion: "0.20.1" }).verdict).toBe("pre-dispatch");
  });

  it("a git tag older than burn-dispatch is pre-dispatch", async () => {
    const d = diag(
      '[dependencies]\nburn = { git = "https://github.com/tracel-ai/burn", tag = "v0.18.0", features = ["wgpu"] }\n',
    );
    expect(d.verdict).toBe("pre-dispatch");
    expect(d.selected?.source).toBe("git");
  });
});

describe("every assumption is stated", () => {
  it("a requirement newer than the data names the graph it used", async () => {
    const d = diag('[dependencies]\nburn = { version = "0.22.1", default-features = false, features = ["std"] }\n');
    expect(assumptionText(d.assumed.graph!)).toContain('`burn = "0.22.1"` matches no release in the bundled data');
    expect(d.graphVersion).toBe("0.22.0-pre.2");
  });

  it("a git dependency at an unknown branch assumes main; at the snapshot's commit it does not", async () => {
    const branch = diag(
      '[dependencies]\nburn = { git = "https://github.com/tracel-ai/burn", branch = "feat/x", default-features = false, features = ["std"] }\n',
    );
    expect(assumptionText(branch.assumed.graph!)).toContain("branch `feat/x`");
    const rev = diag(manifest("git-rev.toml"));
    expect(rev.selected?.source).toBe("git");
    expect(rev.assumed).toEqual({});
    expect(rev.fix?.add).toEqual(["autodiff"]);
  });

  it("a git rev that is a release tag's commit is that release, judged on its own graph", () => {
    const git = (rev: string) =>
      diag(
        `[dependencies]\nburn = { git = "https://github.com/tracel-ai/burn", rev = "${rev}", default-features = false, features = ["std"] }\n`,
      );
    // v0.20.1's commit (data/catalog.yml's refs), short and full.
    for (const rev of ["75b7881", "75B7881397DF1F21E5C2BF51CD3AA6B9AE2BB6A4"]) {
      const d = git(rev);
      expect([rev, d.graphVersion, d.selected?.source, d.assumed]).toEqual([rev, "0.20.1", "git", {}]);
    }
    // Too short to name one commit, or not a tag's: main's graph, said to be assumed.
    expect(git("75b78").assumed.graph).toMatchObject({ kind: "git" });
    expect(git("0123456789").assumed.graph).toMatchObject({ kind: "git" });
  });

  it("a path into a burn checkout is burn's, resolved on main and said to be assumed", async () => {
    const d = diag(manifest("burn-checkout-path.toml"));
    expect(d.primary?.decl.key).toBe("burn");
    expect(d.selected?.source).toBe("path");
    expect(assumptionText(d.assumed.graph!)).toContain("local checkout");
  });

  it("why --json and fix --json carry the selection and the assumptions", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bt-truth-"));
    try {
      const path = join(dir, "Cargo.toml");
      writeFileSync(
        path,
        '[dependencies]\nburn = { version = "0.23", default-features = false, features = ["std"] }\n',
      );
      const w = JSON.parse((await cli(["why", "--json", path])).out);
      expect(w.release).toMatchObject({ version: "0.22.0-pre.2", source: "requirement", requirement: "0.23" });
      expect(w.assumed).toEqual([{ about: "graph", kind: "outside-data", used: "0.22.0-pre.2" }]);
      expect(w.unseen).toContain("build-graph");
      // why and fix answer the same question about the manifest: the same answer.
      const f = JSON.parse((await cli(["fix", "--json", path])).out);
      expect(f).toEqual(w);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a user's own crate is not burn's", () => {
  it('burn-rl = { path = "../burn-rl" } is ignored; burn itself gets the fix', () => {
    const d = diag(manifest("user-crate-named-burn.toml"));
    expect(d.burnDeps.map((b) => b.decl.key)).toEqual(["burn"]);
    expect(d.fix).toMatchObject({ add: ["autodiff"] });
    expect(plan(manifest("user-crate-named-burn.toml")).kind).toBe("fixed");
  });
});

describe("every array and table style gets a valid edit", () => {
  it.each(["examples-style.toml", "tab-table.toml"])("%s", (name) => {
    const p = plan(manifest(name));
    expect(p.kind).toBe("fixed");
    if (p.kind !== "fixed") return;
    expect(() => parsePlain(p.change.after)).not.toThrow();
    expect(diag(p.change.after).verdict).toBe("on");
    expect(p.change.diff).toMatch(/^\+\s+"autodiff"$/m);
  });
});

describe("the minimal feature set on 0.21", () => {
  const on021 = (features: string[]) =>
    `[dependencies]\nburn = { version = "0.21.0", default-features = false, features = [${features.map((f) => `"${f}"`).join(", ")}] }\n`;
  it.each([
    [
      ["std", "wgpu"],
      ["autodiff", "dispatch"],
    ],
    [["std", "autodiff", "wgpu"], ["dispatch"]],
    [["std", "train", "ndarray"], ["dispatch"]],
    [["std", "dispatch", "cuda"], ["autodiff"]],
  ])("listing %j adds %j (never doc)", (listed, added) => {
    const d = diag(on021(listed));
    expect(d.fix?.add).toEqual(added);
    const p = plan(on021(listed));
    expect(p.kind).toBe("fixed");
  });
});

describe("CRLF manifests", () => {
  it("get a diff with CRLF lines that git apply accepts", async () => {
    const text = manifest("crlf.toml");
    const p = plan(text);
    expect(p.kind).toBe("fixed");
    if (p.kind !== "fixed") return;
    expect(p.change.diff).toContain('"autodiff"] }\r\n');
    const dir = mkdtempSync(join(tmpdir(), "bt-crlf-"));
    try {
      writeFileSync(join(dir, "Cargo.toml"), text);
      writeFileSync(
        join(dir, "fix.diff"),
        p.change.diff.replace("--- Cargo.toml", "--- a/Cargo.toml").replace("+++ Cargo.toml", "+++ b/Cargo.toml"),
      );
      execFileSync("git", ["apply", "fix.diff"], { cwd: dir });
      expect(execFileSync("cat", ["Cargo.toml"], { cwd: dir, encoding: "utf8" })).toBe(p.change.after);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
