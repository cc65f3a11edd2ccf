// burn-triage explain | why | fix | review — the same pure core the bot runs, on local files.
// Each command's modules load only when it runs: `--help` costs no analysis code at all.
import { type Io, isUsageError, UsageError } from "./usage.js";

export type { Io } from "./usage.js";

const USAGE = `usage:
  burn-triage explain [FILE|-] [--source DIR] [--json]
                                              explain burn's feature panics found in a text; with
                                              --source, read burn's files from a checkout of the
                                              user's release when the bundled data lacks it
  burn-triage why MANIFEST [--feature CRATE/FEATURE] [--workspace-root DIR] [--lock Cargo.lock] [--json]
                                              say whether the feature (default burn-dispatch/autodiff)
                                              is on, and why
  burn-triage fix MANIFEST [--feature CRATE/FEATURE] [--workspace-root DIR] [--json]
                                              print the verified Cargo.toml edit that turns it on
  burn-triage review BASE HEAD [--crate DIR] [--json]
                                              what the bot would say on a PR changing BASE into
                                              HEAD; the crate's sources (--crate, or HEAD's folder)
                                              are read for what its code needs
  burn-triage review --base DIR --head DIR [--json]
                                              the same over two checkouts of a repository: every
                                              Cargo.toml that differs, and the workspace members a
                                              bumped root reaches
  burn-triage scan OWNER/REPO [--all] [--since DATE] [--markdown|--json] [--apply] [--state FILE]
                   [--write-interval-ms MS] [--content-limits M/H] [--max-pages N] [--progress]
                                              what the bot would answer on the repository's open
                                              issues (--all: closed too), and whether its comment is
                                              there and current; without --apply it cannot write.
                                              --apply posts, updates or retracts them as the bot
                                              would, one write a second (--write-interval-ms) and
                                              under GitHub's content limits (--content-limits,
                                              default 80 a minute, 500 an hour; a comment and its
                                              label are two writes), and a rerun resumes
                                              where an interrupted one
                                              stopped. --max-pages caps the listing (default 100
                                              pages of 100 issues). Token: GITHUB_TOKEN, or
                                              'gh auth token'; GITHUB_API_URL for GitHub Enterprise

  explain, why and fix read burn's feature graph from crates.io's index (CRATES_INDEX_URL, or
  https://index.crates.io); --offline or CRATES_INDEX_URL=off uses the bundled data alone.
`;

const COMMANDS = new Set(["explain", "why", "fix", "review", "scan"]);

/** One command's lines of the usage text (`burn-triage scan --help`). */
export function usageOf(cmd: string): string {
  const blocks = USAGE.split(/\n(?= {2}burn-triage |\n)/);
  const mine = blocks.filter((b) => b.startsWith(`  burn-triage ${cmd} `));
  return `usage:\n${mine.join("\n")}\n`;
}

/**
 * How a command's module is loaded: by `import` (the tests, lib/), or from its bundle with its
 * cached code (dist/cli/cli.js, through code-cache.ts). `call` is the command it is loaded for.
 */
export interface Commands {
  explain(call: string): Promise<typeof import("./explain.js")>;
  manifest(call: string): Promise<typeof import("./manifest.js")>;
  review(call: string): Promise<typeof import("./review.js")>;
  scan(call: string): Promise<typeof import("./scan.js")>;
}

const IMPORTED: Commands = {
  explain: () => import("./explain.js"),
  manifest: () => import("./manifest.js"),
  review: () => import("./review.js"),
  scan: () => import("./scan.js"),
};

/**
 * Runs one command line. `bundled` gives the commands' bundles (dist/cli/cli.js passes it); it is
 * asked only for a command, so that `--help` loads nothing more, and `import` is the fallback.
 */
export async function runCli(
  argv: string[],
  io: Io,
  bundled: () => Promise<Commands | undefined> = async () => undefined,
): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd && COMMANDS.has(cmd) && (rest.includes("--help") || rest.includes("-h"))) {
    io.stdout(usageOf(cmd));
    return 0;
  }
  const commands = cmd && COMMANDS.has(cmd) ? ((await bundled()) ?? IMPORTED) : IMPORTED;
  try {
    switch (cmd) {
      case "explain":
        return await (await commands.explain(cmd)).explain(rest, io);
      case "why":
        return await (await commands.manifest(cmd)).whyCmd(rest, io);
      case "fix":
        return await (await commands.manifest(cmd)).fixCmd(rest, io);
      case "review":
        return await (await commands.review(cmd)).reviewCmd(rest, io);
      case "scan":
        return await (await commands.scan(cmd)).scanCmd(rest, io);
      case undefined:
      case "-h":
      case "--help":
      case "help":
        io.stdout(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command: ${cmd}`);
    }
  } catch (e) {
    if (isUsageError(e) || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr(`burn-triage: ${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}
