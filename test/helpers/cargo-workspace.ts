// Real cargo as the judge of a whole workspace the bot reviewed: each file written as it is, burn
// a stub crate with the release's own feature names (bodies empty, from the bundled index), and
// every `burn = { version = "…"` pointed at that stub by path, so `cargo metadata --offline`
// resolves the workspace (dev-dependencies included) without crates.io.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { allFeatures, snapshot } from "../../src/cargo/index/registry.js";

const run = promisify(execFile);

function stubBurn(dir: string, version: string): string {
  const line = snapshot("tags")
    .versions("burn")
    .find((l) => l.vers === version);
  if (!line) throw new Error(`no burn ${version} in the bundled data`);
  const own = Object.keys(allFeatures(line)).filter((f) => f !== "default");
  const at = join(dir, "burn-stub");
  mkdirSync(join(at, "src"), { recursive: true });
  writeFileSync(
    join(at, "Cargo.toml"),
    `[package]\nname = "burn"\nversion = "${version}"\nedition = "2021"\n\n[features]\n${own.map((f) => `${JSON.stringify(f)} = []`).join("\n")}\n`,
  );
  writeFileSync(join(at, "src/lib.rs"), "");
  return at;
}

/**
 * The text cargo reads offline: burn's `version = "…"` is the stub's path, and every other
 * dependency line is commented out (crates.io is not reached; only burn's features are judged).
 * Line numbers stay those of the text.
 */
function offline(text: string, stub: string): string {
  let inDeps = false;
  return text
    .split("\n")
    .map((line) => {
      const header = /^\s*\[([^\]]+)\]/.exec(line);
      if (header) inDeps = /(^|\.)(dev-|build-)?dependencies$/.test(header[1]!.trim());
      const key = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1];
      if (inDeps && key && key !== "burn") return `# ${line}`;
      return line.replace(/(burn\s*=\s*\{\s*)version\s*=\s*"[^"]*"/, `$1path = ${JSON.stringify(stub)}`);
    })
    .join("\n");
}

/**
 * What cargo says of these files (paths relative to the workspace root): null when it accepts
 * them, else its error. `version`: the burn release every `version = "…"` of burn resolves to.
 */
export async function cargoSays(
  parent: string,
  files: Record<string, string>,
  version: string,
): Promise<string | null> {
  const dir = mkdtempSync(join(parent, "ws-"));
  const stub = stubBurn(dir, version);
  for (const [path, text] of Object.entries(files)) {
    const at = join(dir, "ws", path);
    mkdirSync(join(dirname(at), "src"), { recursive: true });
    writeFileSync(at, offline(text, stub));
    if (/^\[package\]/m.test(text)) writeFileSync(join(dirname(at), "src/lib.rs"), "");
  }
  try {
    await run("cargo", ["metadata", "--offline", "--format-version", "1"], { cwd: join(dir, "ws") });
    return null;
  } catch (e) {
    const stderr = String((e as { stderr?: string }).stderr ?? "");
    if (!/does not have (?:that|these) features?|depends on `burn` with feature/.test(stderr)) throw e;
    return stderr;
  }
}

/** `text` with each suggestion's lines replaced (1-based, inclusive; applied bottom up). */
export function applySuggestions(
  text: string,
  suggestions: Array<{ startLine: number; endLine: number; lines: string[] }>,
): string {
  const lines = text.split("\n");
  for (const s of [...suggestions].sort((a, b) => b.startLine - a.startLine))
    lines.splice(s.startLine - 1, s.endLine - s.startLine + 1, ...s.lines);
  return lines.join("\n");
}
