// Tests that need a program from Debian's packages (a browser, redis-server). `.ci/run` installs
// them, so under CI a missing program fails the suite; elsewhere the suite is reported as
// skipped (never as passed) with the package to install.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, it } from "@jest/globals";

/** Absolute path of a command on PATH, or null. */
export function which(command: string): string | null {
  try {
    return execFileSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

export function browserPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", which("chromium"), which("chromium-browser")];
  return candidates.find((p): p is string => !!p && existsSync(p)) ?? null;
}

/** `describe` when `found`; under CI a suite that fails and says what is missing; else `describe.skip`. */
export function requireOrSkip(
  found: string | null,
  what: string,
): typeof describe | ((name: string, fn: () => void) => void) {
  if (found) return describe;
  if (process.env.CI) {
    return (name: string) =>
      describe(name, () => {
        it(`needs ${what}`, () => {
          throw new Error(`${what} is missing; .ci/run should have installed it`);
        });
      });
  }
  process.stderr.write(`skipping tests that need ${what}\n`);
  return describe.skip;
}
