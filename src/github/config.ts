import { CONFIG_FILE, type LoadedConfig, resolveConfig } from "../config.js";
import type { Log } from "./types.js";

interface ConfigContext {
  config<T>(file: string): Promise<T | null>;
  log: Log;
  repo(): { owner: string; repo: string };
}

/** Reads `.github/burn-triage.yml`; unreadable or invalid files fall back to defaults, loudly. */
export async function loadConfig(context: ConfigContext): Promise<LoadedConfig> {
  let raw: unknown = null;
  try {
    raw = await context.config<unknown>(CONFIG_FILE);
  } catch (e) {
    const loaded = resolveConfig(null);
    const message = (e as Error).message?.split("\n")[0];
    context.log.warn({ ...context.repo(), file: `.github/${CONFIG_FILE}`, error: message }, "config unreadable; using defaults");
    return { ...loaded, errors: [`.github/${CONFIG_FILE}: ${message}`] };
  }
  const loaded = resolveConfig(raw);
  if (loaded.errors.length > 0) {
    context.log.warn({ ...context.repo(), file: `.github/${CONFIG_FILE}`, errors: loaded.errors }, "invalid config keys fall back to defaults");
  }
  return loaded;
}
