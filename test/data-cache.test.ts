import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { load } from "js-yaml";
import { CACHE_DIR, fingerprint, readCache } from "../src/data/data-cache.js";
import {
  CATALOG_CACHE,
  CATALOG_SITES,
  CATALOG_YAML,
  type Catalog,
  cachedCatalog,
  cachedScreenPlan,
  loadBaseCatalog,
  screenCosts,
} from "../src/panics/catalog.js";
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
    const copy = cachedCatalog({ repository: "cached/copy", refs: [], entries: [] }).catalog;
    dataWith({ [CATALOG_YAML]: yaml("old/one") }, CATALOG_CACHE, [CATALOG_YAML], copy);
    expect(loadBaseCatalog(dir).repository).toBe("cached/copy");
    writeFileSync(join(dir, CATALOG_YAML), yaml("new/onee"));
    expect(loadBaseCatalog(dir).repository).toBe("new/onee");
  });

  it("reads an entry's sites from the build's copy when they are first asked for, as catalog.yml has them", () => {
    const site = (line: number) =>
      `      - { ref: v0.1.0, commit: abc, version: 0.1.0, file: crates/a/src/lib.rs, line: ${line}, macro: panic!, printed: x, cfg: null, item: f, in_macro_rules: false }\n`;
    const entry = (id: string, lines: number[]) =>
      `  - id: ${id}\n    message: m ${id}\n    crate: a\n    cause: misuse\n    title: t\n    explanation: e\n    fixes: []\n    site_kind: check\n    sites:\n${lines.map(site).join("")}`;
    const yaml = `repository: o/r\nrefs: []\nentries:\n${entry("one", [11])}${entry("two", [21])}`;
    const parsed = load(yaml) as Catalog;
    const copy = cachedCatalog(parsed);
    dataWith({ [CATALOG_YAML]: yaml }, CATALOG_CACHE, [CATALOG_YAML], copy.catalog);
    writeFileSync(join(dir, CACHE_DIR, CATALOG_SITES), copy.sites);
    expect(loadBaseCatalog(dir)).toEqual(parsed);

    // Read on first use: a line changed after the catalog loaded (same length) is what it answers.
    const catalog = loadBaseCatalog(dir);
    const path = join(dir, CACHE_DIR, CATALOG_SITES);
    writeFileSync(path, readFileSync(path, "utf8").replace('"line":21', '"line":29'));
    expect(catalog.entries.map((e) => e.sites.map((s) => s.line))).toEqual([[11], [29]]);

    // A line that is not the entry's (two lines of one length, swapped), or none, is answered from
    // catalog.yml; an assignment is kept.
    const [first, second] = readFileSync(path, "utf8").split("\n");
    writeFileSync(path, `${second}\n${first}\n`);
    const [one, two] = loadBaseCatalog(dir).entries;
    expect(one!.sites.map((s) => s.line)).toEqual([11]);
    rmSync(path);
    expect(two!.sites.map((s) => s.line)).toEqual([21]);
    two!.sites = [];
    expect(two!.sites).toEqual([]);
  });

  it("holds the word screen's plan as the screen derives it (the build wrote it)", () => {
    const cached = cachedScreenPlan();
    expect(cached).toBeTruthy();
    expect(cached).toEqual(screenPlan(screenMessages(), screenCosts()));
  });
});
