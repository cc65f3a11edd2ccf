// What an analysis is given: the text, and whatever the shell read for it. One type for the
// panic and the compile-error paths, the bot, the CLI and the command.

import type { ManifestFile } from "../cargo/fix/fix.js";
import type { Registries } from "../cargo/index/registry.js";
import type { Platform } from "../cargo/resolve/cfg.js";
import type { BurnSources } from "./burn-files.js";

export interface AnalyzeInput {
  text: string;
  /** Manifests read from the repository, member manifests first; used when the text has none. */
  repoManifests?: ManifestFile[];
  repoRoot?: ManifestFile | null;
  repoLock?: string | null;
  /** Index data to resolve with; the bundled snapshot when absent. */
  registries?: Registries;
  /** burn source files the shell read for a release the data lacks, by `sourceKey(ref, path)`. */
  sources?: BurnSources;
  /** The platform cargo resolves for; read from the text (paths, names) when absent. */
  platform?: Platform;
}
