import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { indexPath, parseBundledIndexFile, parseIndexFile } from "../../src/cargo/index/index-file.js";
import { type LineSpan, spannedLines } from "../../src/cargo/index/index-spans.js";
import { snapshot, snapshotCrates } from "../../src/cargo/index/registry.js";
import { snapshotTables } from "../../src/cargo/index/snapshot-cache.js";
import { targetApplies } from "../../src/cargo/resolve/cfg.js";
import { cargoRange, matches, selectVersion } from "../../src/cargo/resolve/requirements.js";
import { dataDir } from "../../src/data/data-dir.js";

describe("the bundled snapshot", () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir))
      statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : files.push(join(dir, f));
  };
  walk(join(dataDir, "index"));

  it("is read without the live index's checks because every file passes them with the same lines", () => {
    expect(files.length).toBeGreaterThan(30);
    for (const path of files) {
      const text = readFileSync(path, "utf8");
      const name = path.split("/").at(-1)!;
      const lines = parseBundledIndexFile(text);
      expect(lines).toMatchObject(parseIndexFile(text, name));
      expect(lines.map((l) => l.yanked === true)).toEqual(parseIndexFile(text, name).map((l) => l.yanked === true));
    }
  });

  it("reads a line's name, version and yank from its head and parses the rest on first use", () => {
    const line = (yanked: boolean, vers = "0.1.0") =>
      JSON.stringify({ name: "burn-x", vers, deps: [], features: { a: ["b"] }, yanked, v: 2 });
    const [kept, yanked] = parseBundledIndexFile(`${line(false)}\n${line(true, "0.2.0")}\n`);
    expect([kept!.vers, kept!.yanked === true, yanked!.vers, yanked!.yanked]).toEqual(["0.1.0", false, "0.2.0", true]);
    expect(kept!.features).toEqual({ a: ["b"] });
    // Another key order than cargo's is parsed whole, not misread.
    const [odd] = parseBundledIndexFile(JSON.stringify({ vers: "1.0.0", name: "burn-x", deps: [], features: {} }));
    expect([odd!.name, odd!.vers]).toEqual(["burn-x", "1.0.0"]);
    // A string that mentions "yanked":true does not yank the line: its quotes are escaped.
    const [mention] = parseBundledIndexFile(line(false).replace('"a":["b"]', '"a":["\\"yanked\\":true"]'));
    expect(mention!.yanked === true).toBe(false);
  });

  it("reads each line from where the build found it: the lines the files hold, and nothing else", () => {
    for (const which of ["tags", "main"] as const) {
      const tables = snapshotTables(which)!;
      const crates = snapshotCrates(which);
      expect(Object.keys(tables.crates).sort()).toEqual([...crates].sort());
      const registry = snapshot(which);
      for (const name of crates) {
        const whole = parseBundledIndexFile(readFileSync(join(dataDir, "index", which, indexPath(name)), "utf8"));
        const spanned = registry.versions(name);
        expect({ name, lines: spanned.map((l) => ({ ...l })) }).toEqual({ name, lines: whole.map((l) => ({ ...l })) });
      }
      expect(registry.versions("serde")).toEqual([]);
      expect(registry.versions("constructor")).toEqual([]);
    }
  });

  it("reads a line whose span no longer holds it from the whole file, and says so when the file lost it", () => {
    const path = `index/tags/${indexPath("burn")}`;
    const spans = snapshotTables("tags")!.crates.burn!;
    const [vers, yanked, start, length] = spans.lines.at(-1)!;
    const moved = { ...spans, lines: [[vers, yanked, start + 7, length] as LineSpan] };
    expect(spannedLines(path, moved)[0]!.features).toEqual(snapshot("tags").versions("burn").at(-1)!.features);
    const gone = { ...spans, lines: [["9.9.9", 0, start, length] as LineSpan] };
    expect(() => spannedLines(path, gone)[0]!.deps).toThrow(/no longer holds 9\.9\.9/);
  });
});

describe("sparse index paths", () => {
  it.each([
    ["burn", "bu/rn/burn"],
    ["burn-dispatch", "bu/rn/burn-dispatch"],
    ["syn", "3/s/syn"],
    ["cc", "2/cc"],
    ["a", "1/a"],
    ["Serde", "se/rd/serde"],
  ])("%s → %s", (name, path) => expect(indexPath(name)).toBe(path));
});

describe("cargo requirement semantics", () => {
  it("treats a bare version as a caret requirement", () => {
    expect(cargoRange("0.22.0-pre.2")).toBe("^0.22.0-pre.2");
    expect(matches("0.22.0-pre.2", "0.22.0-pre.1")).toBe(true);
    expect(matches("0.23.0", "0.22.0-pre.1")).toBe(false);
  });
  it("lets ^0.20.0-pre.1 reach 0.20.1, as burn-data notes", () => {
    expect(selectVersion(snapshot("tags").versions("burn-core"), "^0.20.0-pre.1")?.vers).toBe("0.20.1");
  });
  it("does not pick pre-releases for a plain requirement", () => {
    expect(selectVersion(snapshot("tags").versions("burn"), "0.21")?.vers).toBe("0.21.0");
    expect(selectVersion(snapshot("tags").versions("burn"), "0.22")).toBeNull();
  });
  it("honours = and comma-separated ranges", () => {
    expect(selectVersion(snapshot("tags").versions("burn"), "=0.22.0-pre.1")?.vers).toBe("0.22.0-pre.1");
    expect(selectVersion(snapshot("tags").versions("burn"), ">=0.17, <0.19")?.vers).toBe("0.18.0");
  });
  it("never selects a pre-release for *, >=, ^ or bare requirements without one", () => {
    const burn = snapshot("tags").versions("burn");
    expect(selectVersion(burn, "*")?.vers).toBe("0.21.0");
    expect(selectVersion(burn, ">=0.20")?.vers).toBe("0.21.0");
    expect(selectVersion(burn, "^0.21")?.vers).toBe("0.21.0");
    expect(selectVersion(burn, "0.20")?.vers).toBe("0.20.1");
    expect(matches("0.22.0-pre.2", "*")).toBe(false);
    expect(matches("0.22.0-pre.2", "")).toBe(false);
  });
  it("lets a pre-release requirement reach later pre-releases of the same version", () => {
    expect(selectVersion(snapshot("tags").versions("burn"), "^0.22.0-pre.1")?.vers).toBe("0.22.0-pre.2");
    expect(selectVersion(snapshot("tags").versions("burn"), "0.21.0-pre.2")?.vers).toBe("0.21.0");
  });
  it("lets a Cargo.lock pin win over the requirement when compatible, even a pre-release under *", () => {
    const burn = snapshot("tags").versions("burn");
    expect(selectVersion(burn, "*", "0.22.0-pre.2")?.vers).toBe("0.22.0-pre.2");
    expect(selectVersion(burn, "0.20", "0.20.0")?.vers).toBe("0.20.0");
    expect(selectVersion(burn, "0.20", "0.21.0")?.vers).toBe("0.20.1");
  });
  it("knows the main-branch snapshot apart from the tags", () => {
    const main = snapshot("main").versions("burn");
    expect(main).toHaveLength(1);
    expect(main[0]!.features.autodiff).toEqual(["burn-core/autodiff"]);
  });
});

describe("target cfg", () => {
  it.each([
    ['cfg(target_os = "macos")', "linux", false],
    ['cfg(target_os = "macos")', "macos", true],
    ['cfg(not(target_has_atomic = "ptr"))', "linux", false],
    ['cfg(all(unix, not(target_os = "macos")))', "linux", true],
    ['cfg(any(windows, target_arch = "wasm32"))', "windows", true],
    ["x86_64-unknown-linux-gnu", "linux", true],
    ["cfg(garbage", "linux", false],
  ] as const)("%s on %s → %s", (t, p, v) => expect(targetApplies(t, p)).toBe(v));
});
