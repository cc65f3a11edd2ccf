// Writes fixtures/cargo/lock-two-burns.lock: the Cargo.lock real cargo writes for an app that
// declares burn 0.20.1 while a dependency of it (yolo-burn) brings burn 0.22.0-pre.2 and with it
// burn-dispatch: the shape of a report whose panic comes from a burn the manifest does not name.
// Stub crates as path dependencies (no network). Run: node scripts/lock-fixtures.mjs
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(join(tmpdir(), "lock-fixture-"));
const crate = (path, name, version, deps = "") => {
  mkdirSync(join(dir, path, "src"), { recursive: true });
  writeFileSync(
    join(dir, path, "Cargo.toml"),
    `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\n\n[dependencies]\n${deps}`,
  );
  writeFileSync(join(dir, path, "src/lib.rs"), "");
};
try {
  crate("burn-020", "burn", "0.20.1");
  crate("dispatch-022", "burn-dispatch", "0.22.0-pre.2");
  crate("core-022", "burn-core", "0.22.0-pre.2", 'burn-dispatch = { path = "../dispatch-022" }\n');
  crate("burn-022", "burn", "0.22.0-pre.2", 'burn-core = { path = "../core-022" }\n');
  crate("yolo-burn", "yolo-burn", "0.3.2", 'burn = { path = "../burn-022" }\n');
  crate("myapp", "myapp", "0.1.0", 'burn = { path = "../burn-020" }\nyolo-burn = { path = "../yolo-burn" }\n');
  execFileSync("cargo", ["generate-lockfile", "--offline"], { cwd: join(dir, "myapp"), stdio: "pipe" });
  const lock = readFileSync(join(dir, "myapp/Cargo.lock"), "utf8");
  writeFileSync(join(root, "fixtures/cargo/lock-two-burns.lock"), lock);
  console.log("wrote fixtures/cargo/lock-two-burns.lock");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
