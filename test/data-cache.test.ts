import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { CACHE_DIR, fingerprint, readCache } from "../src/data-cache.js";
import { CATALOG_CACHE, CATALOG_YAML, cachedScreenPlan, loadBaseCatalog, screenCosts } from "../src/panics/catalog.js";
import { screenMessages } from "../src/panics/detect.js";
import { screenPlan } from "../src/panics/screen.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A data folder with `files`, and a cache entry `name` derived from `sources` as they are now. */
function dataWith(files: Record<string, string>, name: string, sources: string[], value: unknown) {
  dir = mkdtempSync(join(tmpdir(), "burn-triage-cache-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(join(dir, CACHE_DIR));
  writeFileSync(join(dir, CACHE_DIR, name), JSON.stringify({ fingerprint: fingerprint(sources, dir), value }));
}

describe("the build's cache of derived data", () => {
  it("answers while its sources are unchanged, and not once one is edited, touched, added or removed", () => {
    dataWith({ "index/a/b": "one", "index/c": "two" }, "x.json", ["index"], { answer: 1 });
    expect(readCache("x.json", ["index"], dir)).toEqual({ answer: 1 });
    appendFileSync(join(dir, "index/c"), "!");
    expect(readCache("x.json", ["index"], dir)).toBeUndefined();

    dataWith({ "index/a": "one" }, "x.json", ["index"], 1);
    utimesSync(join(dir, "index/a"), new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(readCache("x.json", ["index"], dir)).toBeUndefined();

    dataWith({ "index/a": "one" }, "x.json", ["index"], 1);
    writeFileSync(join(dir, "index/new"), "");
    expect(readCache("x.json", ["index"], dir)).toBeUndefined();

    dataWith({ "index/a": "one", "index/b": "two" }, "x.json", ["index"], 1);
    rmSync(join(dir, "index/b"));
    expect(readCache("x.json", ["index"], dir)).toBeUndefined();
  });

  it("sees a file added deep in a folder it lists, or a folder replaced, without listing them again", () => {
    dataWith({ "index/a/b/c": "one" }, "x.json", ["index"], 1);
    writeFileSync(join(dir, "index/a/b/new"), "");
    expect(readCache("x.json", ["index"], dir)).toBeUndefined();

    dataWith({ "index/a/b/c": "one" }, "x.json", ["index"], 1);
    mkdirSync(join(dir, "index/a/d/e"), { recursive: true });
    expect(readCache("x.json", ["index"], dir)).toBeUndefined();

    dataWith({ "index/a/b": "one" }, "x.json", ["index"], 1);
    rmSync(join(dir, "index/a"), { recursive: true });
    mkdirSync(join(dir, "index/a/b"), { recursive: true });
    expect(readCache("x.json", ["index"], dir)).toBeUndefined();
  });

  it("answers only for the sources it was derived from", () => {
    dataWith({ "index/a": "one", "f.yml": "a: 1" }, "x.json", ["index"], 1);
    expect(readCache("x.json", ["index"], dir)).toBe(1);
    expect(readCache("x.json", ["index", "f.yml"], dir)).toBeUndefined();
    expect(readCache("x.json", ["f.yml"], dir)).toBeUndefined();
  });

  it("is no answer when it is missing or not JSON", () => {
    dataWith({ "f.yml": "a: 1" }, "x.json", ["f.yml"], 1);
    expect(readCache("y.json", ["f.yml"], dir)).toBeUndefined();
    writeFileSync(join(dir, CACHE_DIR, "x.json"), "{not json");
    expect(readCache("x.json", ["f.yml"], dir)).toBeUndefined();
  });

  it("never answers the catalog from a copy of an older catalog.yml", () => {
    const yaml = (repository: string) => `repository: ${repository}\nrefs: []\nentries: []\n`;
    dataWith({ [CATALOG_YAML]: yaml("old/one") }, CATALOG_CACHE, [CATALOG_YAML], { repository: "cached/copy" });
    expect(loadBaseCatalog(dir).repository).toBe("cached/copy");
    writeFileSync(join(dir, CATALOG_YAML), yaml("new/onee"));
    expect(loadBaseCatalog(dir).repository).toBe("new/onee");
  });

  it("holds the word screen's plan as the screen derives it (the build wrote it)", () => {
    const cached = cachedScreenPlan();
    expect(cached).toBeTruthy();
    expect(cached).toEqual(screenPlan(screenMessages(), screenCosts()));
  });
});
