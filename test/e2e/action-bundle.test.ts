// The Action runs the committed dist/action.js: it must be exactly what the source builds today.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "@jest/globals";
import { load } from "js-yaml";
import { root } from "../helpers/fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "burn-triage-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("dist/action.js is the bundle of today's source (run `npm run build:action` and commit it)", async () => {
  const { build } = await import("esbuild");
  const { options } = (await import(join(root, "scripts/build-action.mjs"))) as { options: Record<string, unknown> };
  const out = join(dir, "action.js");
  await build({ ...options, absWorkingDir: root, outfile: out });
  const fresh = readFileSync(out, "utf8");
  const committed = readFileSync(join(root, "dist/action.js"), "utf8");
  // A byte count first: a whole-bundle diff in the failure output helps nobody.
  expect(committed.length).toBe(fresh.length);
  expect(committed === fresh).toBe(true);
}, 60_000);

it("action.yml runs that bundle on Node 24", () => {
  const action = load(readFileSync(join(root, "action.yml"), "utf8")) as { runs: { using: string; main: string } };
  expect(action.runs).toEqual({ using: "node24", main: "dist/action.js" });
});
