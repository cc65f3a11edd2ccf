// burn-triage's folder in the user's cache (`$XDG_CACHE_HOME`, else `~/.cache`): where `scan`
// keeps its state and the commands keep their compiled code. Never a shared folder.
import { homedir } from "node:os";
import { join } from "node:path";

export function cacheHome(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "burn-triage");
}
