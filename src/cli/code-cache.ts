// A command's bundle loaded with V8's code for it, as one call left it. Node's own compile cache
// (module.enableCompileCache) records a file's code when the file is compiled, before it runs,
// and V8 compiles a function only when it is first called: so it holds little more than a
// bundle's top level, and every call compiled the functions it ran again. Here the code is
// recorded at the end of the first call (vm.Script's createCachedData), functions compiled
// included, and later calls start with it (BENCHMARKS.md: `explain` 88 → 63 ms, `why` 73 → 56).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { cacheHome } from "./cache-home.js";
import type { Commands } from "./run.js";

/**
 * The file a bundle's code is kept in. V8 checks a cache against its own version and flags, and
 * the source only by its length: the key names the content itself (`hash`, written by the build
 * in bundles.json), and the file's size and time, so that a bundle edited after the build, or
 * another version installed in the same place, never meets code made for other source. `call`
 * keeps one cache per command (why and fix share a bundle and run different code).
 */
export function cacheFile(dir: string, f: { hash: string; size: number; mtimeMs: number; call: string }): string {
  const node = `${process.version}-${process.arch}`;
  return join(dir, `${f.call}-${f.hash.slice(0, 32)}-${f.size}-${Math.floor(f.mtimeMs)}-${node}.bin`);
}

/** Where the caches live: in the user's cache folder, beside `scan`'s state. */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  return join(cacheHome(env), "code");
}

export interface Loaded {
  exports: unknown;
  /** Writes the code the call compiled, when there was no usable cache; call it at exit. */
  persist: () => void;
}

/**
 * Runs a CommonJS bundle as `require` would, with the cached code when there is one. Without a
 * hash for it (an unbuilt tree) or a cache folder it can write, it simply runs; a cache V8
 * rejects is written again.
 */
export function loadBundle(file: string, call: string, hash: string | undefined, root: string | null): Loaded {
  const source = readFileSync(file, "utf8");
  const { size, mtimeMs } = statSync(file);
  const path = hash && root ? cacheFile(root, { hash, size, mtimeMs, call }) : null;
  let cachedData: Buffer | undefined;
  try {
    if (path) cachedData = readFileSync(path);
  } catch {
    // none yet
  }
  // One line with the bundle's first, so that stack traces keep its line numbers.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const persist = () => {
    if (!path || (cachedData && !script.cachedDataRejected)) return;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const tmp = `${path}.${process.pid}`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, path);
      pruneOlder(dirname(path), call);
    } catch {
      // A folder it cannot write: the next call compiles again, as without the cache.
    }
  };
  return { exports: module.exports, persist };
}

/** Caches kept per command: a few builds or Node versions side by side, not every one ever run. */
export const KEPT_PER_COMMAND = 4;

/** A write older than this that was never renamed into place is a killed call's, not a running one's. */
export const ABANDONED_WRITE_MS = 10 * 60_000;

/**
 * Removes a command's oldest caches beyond KEPT_PER_COMMAND, and the half-written files of calls
 * killed while writing (`….bin.PID`), so that the folder ends as a clean run leaves it. Run only
 * when a cache was written.
 */
function pruneOlder(dir: string, call: string): void {
  const now = Date.now();
  const mine = readdirSync(dir)
    .filter((f) => f.startsWith(`${call}-`))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }));
  const done = mine.filter(({ f }) => f.endsWith(".bin")).sort((a, b) => b.at - a.at);
  const abandoned = mine.filter(({ f, at }) => /\.bin\.\d+$/.test(f) && now - at > ABANDONED_WRITE_MS);
  for (const { f } of [...done.slice(KEPT_PER_COMMAND), ...abandoned]) rmSync(join(dir, f), { force: true });
}

/** The build's hash of each command's bundle (scripts/build-cli.mjs), beside the entry. */
export const BUNDLE_HASHES = "bundles.json";

/**
 * The commands loaded from the bundles beside the entry, each with its cached code; undefined
 * where there are no bundles (lib/, whose modules `import` loads).
 */
export function bundledCommands(dir: string, env: NodeJS.ProcessEnv): Commands | undefined {
  let hashes: Record<string, string>;
  try {
    hashes = JSON.parse(readFileSync(join(dir, BUNDLE_HASHES), "utf8")) as Record<string, string>;
  } catch {
    return undefined;
  }
  let root: string | null = null;
  try {
    root = cacheRoot(env);
  } catch {
    // no home folder: no cache
  }
  const load = (name: string) => async (call: string) => {
    const loaded = loadBundle(join(dir, `${name}.js`), call, hashes[`${name}.js`], root);
    process.once("exit", loaded.persist);
    // biome-ignore lint/suspicious/noExplicitAny: the bundle's exports are the module's, typed by Commands
    return loaded.exports as any;
  };
  return { explain: load("explain"), manifest: load("manifest"), review: load("review"), scan: load("scan") };
}
