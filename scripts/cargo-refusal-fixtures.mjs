// Writes fixtures/cargo/refusal-*.txt: what the local cargo prints for `build`, `check`, `run`,
// `test` and `tree` when a manifest names a feature its burn release does not have. The stub
// `burn` has the release's real feature names (data/index/tags, bodies empty); it is a path
// dependency here, so cargo's "versions that meet the requirements `*`" is rewritten to the
// requirement the same manifest would carry from crates.io. Run: node scripts/cargo-refusal-fixtures.mjs
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "fixtures/cargo");

function burnFeatures(version, crate = "burn") {
  const lines = readFileSync(join(root, "data/index/tags/bu/rn", crate), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const line = lines.find((l) => l.vers === version);
  return Object.keys({ ...line.features, ...(line.features2 ?? {}) }).filter((f) => f !== "default");
}

const cases = {
  "server-0.22": {
    version: "0.22.0-pre.2",
    features: ["std", "wgpu", "server"],
    own: "",
    commands: ["build", "check", "run", "test", "tree"],
  },
  "forwarded-cuda-jit-0.17": {
    version: "0.17.1",
    features: ["std"],
    own: 'gpu = ["burn/cuda-jit"]',
    commands: ["build"],
  },
  "typo-wgpuu-0.22": { version: "0.22.0-pre.2", features: ["wgpuu"], own: "", commands: ["build"] },
  // cargo names one missing feature per run, whichever it meets first.
  "several-0.22": { version: "0.22.0-pre.2", features: ["std", "dispatch", "server"], own: "", commands: ["build"] },
  // The feature is written in the root's [workspace.dependencies]; cargo names the member.
  "workspace-server-0.22": {
    version: "0.22.0-pre.2",
    features: ["std", "wgpu", "server"],
    own: "",
    commands: ["build"],
    workspace: true,
  },
};

// One more per removal burn's feature history lists at a release: the crate at that release, asked
// for the feature it no longer has.
const history = JSON.parse(readFileSync(join(root, "data/removed-features.json"), "utf8")).removed;
for (const r of history.filter((h) => h.at))
  cases[`history-${r.crate}-${r.feature}`] = {
    crate: r.crate,
    version: r.at,
    features: [r.feature],
    own: "",
    commands: ["build"],
  };

mkdirSync(out, { recursive: true });
for (const [name, c] of Object.entries(cases)) {
  const crate = c.crate ?? "burn";
  const dir = mkdtempSync(join(tmpdir(), "cargo-refusal-"));
  try {
    mkdirSync(join(dir, crate, "src"), { recursive: true });
    mkdirSync(join(dir, "myapp/src"), { recursive: true });
    const features = burnFeatures(c.version, crate)
      .map((f) => `${JSON.stringify(f)} = []`)
      .join("\n");
    writeFileSync(
      join(dir, crate, "Cargo.toml"),
      `[package]\nname = "${crate}"\nversion = "${c.version}"\nedition = "2021"\n\n[features]\n${features}\n`,
    );
    writeFileSync(join(dir, crate, "src/lib.rs"), "");
    const declared = `default-features = false, features = ${JSON.stringify(c.features)}`;
    if (c.workspace)
      writeFileSync(
        join(dir, "Cargo.toml"),
        `[workspace]\nmembers = ["myapp"]\nresolver = "2"\n\n[workspace.dependencies]\n${crate} = { path = "${crate}", ${declared} }\n`,
      );
    const dep = c.workspace ? "{ workspace = true }" : `{ path = "../${crate}", ${declared} }`;
    writeFileSync(
      join(dir, "myapp/Cargo.toml"),
      `[package]\nname = "myapp"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\n${c.own}\n\n[dependencies]\n${crate} = ${dep}\n`,
    );
    writeFileSync(join(dir, "myapp/src/main.rs"), "fn main() {}\n");
    for (const command of c.commands) {
      let log = "";
      try {
        execFileSync("cargo", [command, "--offline"], { cwd: join(dir, "myapp"), stdio: "pipe" });
        throw new Error(`${name}: cargo ${command} succeeded`);
      } catch (e) {
        if (!e.stderr) throw e;
        log = e.stderr.toString();
      }
      const shown = log
        .replaceAll(dir, "/home/dev")
        .replace("the requirements `*`", `the requirements \`^${c.version}\``);
      writeFileSync(join(out, `refusal-${name}-${command}.txt`), `$ cargo ${command}\n${shown}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log("wrote fixtures/cargo/refusal-*.txt");
