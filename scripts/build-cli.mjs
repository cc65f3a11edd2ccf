// Builds the command line's bundle, dist/cli/: src/cli.ts and its dependencies as ES modules, one
// chunk per command (the commands import their modules dynamically, so `--help` loads none of
// them). One file per command instead of a few hundred modules is most of a CLI call's start
// (BENCHMARKS.md). `npm run build` writes it; it is not committed (the Action's bundle is).
import { rmSync } from "node:fs";
import { build } from "esbuild";
import { options as action } from "./build-action.mjs";

const { outfile: _outfile, entryPoints: _entryPoints, ...shared } = action;

export const options = {
  ...shared,
  entryPoints: ["src/cli.ts"],
  outdir: "dist/cli",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
};

if (import.meta.url === `file://${process.argv[1]}`) {
  // Chunk names carry a content hash: without this, every build would leave the last one's behind.
  rmSync(options.outdir, { recursive: true, force: true });
  await build(options);
}
