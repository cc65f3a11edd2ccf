// The npm package is what runs: `npm pack` ships the built code, the data and the App's and
// Action's descriptions, never tests, bench, fixtures or sources, and the packed tarball,
// installed into an empty folder, answers `npx burn-triage explain`. (The install resolves the
// package's dependencies through npm's cache, or the npm registry where the cache lacks them.)
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "@jest/globals";
import { root } from "../helpers/fixtures.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "burn-triage-pack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** Budget for a pack, an install and one CLI call on a loaded 2-core machine (unloaded: about 8 s). */
const BUDGET_MS = 180_000;

it(
  "npm pack ships what runs, and npx burn-triage runs from the installed tarball",
  async () => {
    // --ignore-scripts: the suite has built lib/ and dist/ already (`npm test` builds first).
    const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: root });
    const [pack] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = pack!.files.map((f) => f.path);
    const tops = new Set(files.map((f) => f.split("/")[0]));
    expect([...tops].sort()).toEqual(
      [
        "LICENSE",
        "README.md",
        "action.yml",
        "answer.schema.json",
        "app.yml",
        "data",
        "dist",
        "lib",
        "package.json",
        "schema.json",
      ].sort(),
    );
    for (const f of [
      "dist/cli/cli.js",
      "dist/action.js",
      "lib/index.js",
      "lib/main.js",
      "data/catalog.yml",
      "data/.cache/catalog.json",
      "data/.cache/tags-snapshot.json",
    ])
      expect(files).toContain(f);
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    // The web page is published on its own (GitHub Pages), not in the package.
    expect(files.filter((f) => f.startsWith("dist/web"))).toEqual([]);

    const app = join(dir, "app");
    await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--ignore-scripts",
        "--prefix",
        app,
        join(dir, pack!.filename),
      ],
      { cwd: dir },
    );
    const issue = join(root, "fixtures/issues/pos-registry-backtrace.md");
    const out = await run("npx", ["--no-install", "burn-triage", "explain", issue, "--offline"], {
      cwd: app,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dir },
    });
    expect(out.stdout).toContain("### `burn-dispatch` was built without its `autodiff` feature");
    expect(out.stdout).toContain(
      '+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "dataset", "autodiff"] }',
    );
  },
  BUDGET_MS,
);
