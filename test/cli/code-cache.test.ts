// The commands' code cached after a call (src/cli/code-cache.ts): used only for the very source
// it was made from, written once, rewritten when V8 rejects it, and never in the way of an answer.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { ABANDONED_WRITE_MS, cacheFile, KEPT_PER_COMMAND, loadBundle } from "../../src/cli/code-cache.js";
import { root } from "../helpers/fixtures.js";

const scratch = mkdtempSync(join(tmpdir(), "burn-triage-code-cache-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("loadBundle", () => {
  // Two bundles of one length: V8 checks a cache against the source's length only.
  const A = "module.exports = { which: () => 'made from A' };\n";
  const B = "module.exports = { which: () => 'made from B' };\n";
  const which = (exports: unknown) => (exports as { which: () => string }).which();

  function bundle(name: string, text: string, mtime: Date) {
    const file = join(scratch, name);
    // A line of its own per file: V8 reuses what it compiled in this process for the same text.
    writeFileSync(file, `// ${name}\n${text}`);
    utimesSync(file, mtime, mtime);
    return file;
  }

  it("runs a bundle as require would, then keeps its code for the next call, written once", () => {
    const dir = mkdtempSync(join(scratch, "cache-"));
    const file = bundle("once.js", A, new Date(500_000_000_000));
    const first = loadBundle(file, "why", "hash-a", dir);
    expect(which(first.exports)).toBe("made from A");
    first.persist();
    const [written] = readdirSync(dir);
    const before = statSync(join(dir, written!)).mtimeMs;
    const second = loadBundle(file, "why", "hash-a", dir);
    expect(which(second.exports)).toBe("made from A");
    second.persist();
    expect(readdirSync(dir)).toEqual([written]);
    expect(statSync(join(dir, written!)).mtimeMs).toBe(before);
  });

  it("never meets code made for other source: another version in the same place, same size and time", () => {
    const dir = mkdtempSync(join(scratch, "cache-"));
    // npm gives every file of a package one fixed time: an upgrade in place may keep size and time.
    const time = new Date(499_162_500_000);
    // Each load in a process of its own: V8 keeps what it compiled in memory, by source text.
    const inProcess = (hash: string) => {
      const r = spawnSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const { loadBundle } = await import(${JSON.stringify(join(root, "lib/cli/code-cache.js"))});
           const l = loadBundle(${JSON.stringify(join(scratch, "same.js"))}, "explain", ${JSON.stringify(hash)}, ${JSON.stringify(dir)});
           process.stdout.write(l.exports.which()); l.persist();`,
        ],
        { encoding: "utf8" },
      );
      expect(r.stderr).toBe("");
      return r.stdout;
    };
    bundle("same.js", A, time);
    expect(inProcess("hash-a")).toBe("made from A");
    bundle("same.js", B, time);
    expect(inProcess("hash-b")).toBe("made from B");
    // What the hash in the key prevents: V8 itself takes A's code for B, and runs it.
    expect(inProcess("hash-a")).toBe("made from A");
  });

  it("rewrites a cache V8 rejects, and answers from the source meanwhile", () => {
    const dir = mkdtempSync(join(scratch, "cache-"));
    const file = bundle("rejected.js", A, new Date(600_000_000_000));
    const { size, mtimeMs } = statSync(file);
    const path = cacheFile(dir, { hash: "hash-a", size, mtimeMs, call: "fix" });
    writeFileSync(path, "not V8's code cache");
    const loaded = loadBundle(file, "fix", "hash-a", dir);
    expect(which(loaded.exports)).toBe("made from A");
    loaded.persist();
    expect(readFileSync(path, "utf8")).not.toBe("not V8's code cache");
    expect(which(loadBundle(file, "fix", "hash-a", dir).exports)).toBe("made from A");
  });

  it("runs without a cache where it has no hash or no folder it can write", () => {
    const file = bundle("plain.js", A, new Date(700_000_000_000));
    const notADir = join(scratch, "a-file");
    writeFileSync(notADir, "");
    for (const [hash, dir] of [
      [undefined, scratch],
      ["hash-a", null],
      ["hash-a", join(notADir, "code")],
    ] as const) {
      const loaded = loadBundle(file, "why", hash, dir);
      expect(which(loaded.exports)).toBe("made from A");
      expect(() => loaded.persist()).not.toThrow();
    }
  });

  it("keeps a command's newest caches, a few builds side by side, and leaves other commands' alone", () => {
    const dir = mkdtempSync(join(scratch, "cache-"));
    writeFileSync(join(dir, "fix-other-build.bin"), "kept: another command");
    const built = (n: number) => {
      const file = bundle(`build-${n}.js`, A, new Date(800_000_000_000 + n * 1000));
      loadBundle(file, "why", `hash-${n}`, dir).persist();
      // Written one after another: a second apart, as builds are.
      for (const f of readdirSync(dir)) if (f.includes(`hash-${n}`)) utimesSync(join(dir, f), n, n);
    };
    for (let n = 1; n <= KEPT_PER_COMMAND + 2; n++) built(n);
    const why = readdirSync(dir).filter((f) => f.startsWith("why-"));
    expect(why).toHaveLength(KEPT_PER_COMMAND);
    expect(why.some((f) => f.includes("hash-1-") || f.includes("hash-2-"))).toBe(false);
    expect(readdirSync(dir)).toContain("fix-other-build.bin");
  });

  it("removes what a call killed while writing left, once it is old, and not a write under way", () => {
    const dir = mkdtempSync(join(scratch, "cache-"));
    const killed = join(dir, "why-hash-k-10-1-v0-x64.bin.4242");
    const running = join(dir, "why-hash-r-10-1-v0-x64.bin.4343");
    writeFileSync(killed, "half");
    writeFileSync(running, "half");
    const old = new Date(Date.now() - ABANDONED_WRITE_MS - 60_000);
    utimesSync(killed, old, old);
    loadBundle(bundle("after-kill.js", A, new Date(900_000_000_000)), "why", "hash-n", dir).persist();
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith(".bin"))).toHaveLength(1);
  });

  it("keys by command, content hash, size, time and Node", () => {
    const base = { hash: "h".repeat(64), size: 10, mtimeMs: 1000.7, call: "why" };
    const key = cacheFile("/c", base);
    expect(key).toContain(process.version);
    for (const other of [{ hash: `x${"h".repeat(63)}` }, { size: 11 }, { mtimeMs: 2000 }, { call: "fix" }])
      expect(cacheFile("/c", { ...base, ...other })).not.toBe(key);
  });
});

describe("dist/cli/cli.js with the cache", () => {
  const manifest = join(root, "fixtures/manifests/examples-style.toml");
  const cli = (args: string[], cacheHome: string) =>
    spawnSync(process.execPath, [join(root, "dist/cli/cli.js"), ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", CRATES_INDEX_URL: "off", XDG_CACHE_HOME: cacheHome },
    });

  it("answers the same with and without a cache, one file per command, none for --help", () => {
    const home = mkdtempSync(join(scratch, "home-"));
    const code = join(home, "burn-triage", "code");
    expect(cli(["--help"], home).status).toBe(0);
    expect(() => readdirSync(code)).toThrow();
    const cold = cli(["why", manifest, "--offline"], home);
    const warm = cli(["why", manifest, "--offline"], home);
    expect({ status: warm.status, stdout: warm.stdout, stderr: warm.stderr }).toEqual({
      status: cold.status,
      stdout: cold.stdout,
      stderr: cold.stderr,
    });
    expect(readdirSync(code).map((f) => f.split("-")[0])).toEqual(["why"]);
    cli(["fix", manifest, "--offline"], home);
    expect(
      readdirSync(code)
        .map((f) => f.split("-")[0])
        .sort(),
    ).toEqual(["fix", "why"]);
  });

  it("takes a usage error raised in a command's bundle for one (exit 2 and the usage), though each bundle has its own class", () => {
    const home = mkdtempSync(join(scratch, "home-"));
    for (const args of [
      ["fix", join(scratch, "missing.toml")],
      ["explain", join(scratch, "missing.md")],
    ]) {
      const r = cli(args, home);
      expect({ status: r.status, first: r.stderr.split("\n")[0] }).toEqual({
        status: 2,
        first: `burn-triage: cannot read ${args[1]}: ENOENT`,
      });
      expect(r.stderr).toContain("usage:");
    }
  });

  it("answers where the cache folder cannot be made, and says nothing of it", () => {
    const blocked = join(scratch, "blocked");
    writeFileSync(blocked, "a file where the cache folder would go");
    const r = cli(["why", manifest, "--offline"], blocked);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("burn-dispatch/autodiff: off");
  });
});
