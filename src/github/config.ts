// Reads `.github/burn-triage.yml` from the repository, or from the owner's `.github` repository
// when the repository has none (Probot's lookup). Read here rather than through Probot's
// `context.config`: its YAML parser checks duplicate keys quadratically (30,000 keys stall the
// process for ~20 s), and it reads files of any size. Here the size is capped before parsing
// and js-yaml parses in linear time.

import { CONFIG_FILE, type LoadedConfig, resolveConfig } from "../config/config.js";
import { jsYaml } from "../util/lazy-modules.js";
import {
  BLOB_FIELDS,
  type BlobNode,
  type BlobResult,
  blobResult,
  type ExtraFields,
  queryErrors,
} from "./blob-reads.js";
import { type FileResult, readFile } from "./files.js";
import type { Log, Octokit, RepoRef } from "./types.js";

/** A real config is a few hundred bytes. */
export const MAX_CONFIG_BYTES = 16 * 1024;
const PATH = `.github/${CONFIG_FILE}`;

interface ConfigContext {
  octokit: Octokit;
  log: Log;
  repo(): RepoRef;
}

/** The file exists or may exist, but GitHub would not serve it: the repository's wishes are unknown. */
export class ConfigUnreadable extends Error {
  readonly status = 503;
}

type RawConfig = { text: string } | { missing: true } | { refused: string };

/** A read of the config file, by REST or GraphQL, as the config resolution sees it. */
function rawFrom(f: FileResult | BlobResult): RawConfig {
  if (f.ok) return { text: f.text };
  if (f.reason === "missing" || f.reason === "directory") return { missing: true };
  return { refused: f.reason === "too-large" ? `larger than ${MAX_CONFIG_BYTES} bytes` : "not UTF-8 text" };
}

async function readRaw(octokit: Octokit, where: RepoRef): Promise<RawConfig> {
  return rawFrom(await readFile(octokit, { ...where, path: PATH }, MAX_CONFIG_BYTES));
}

/**
 * The repository's config. Invalid keys, unparseable YAML and oversize files fall back to the
 * defaults, loudly. A failed read (5xx, timeout, after Octokit's retries) throws, so the event
 * does nothing now and is retried later: a repository that turned the bot off never hears from
 * it because GitHub had a bad minute.
 */
export async function loadConfig(context: ConfigContext): Promise<LoadedConfig> {
  const repo = context.repo();
  let raw: RawConfig;
  try {
    raw = await readRaw(context.octokit, repo);
    if ("missing" in raw && repo.repo !== ".github")
      raw = await readRaw(context.octokit, { owner: repo.owner, repo: ".github" });
  } catch (e) {
    const err = e as { status?: number; message?: string };
    context.log.error(
      { ...repo, file: PATH, status: err.status, error: err.message?.split("\n")[0] },
      "config unreadable; doing nothing for this event",
    );
    throw new ConfigUnreadable(`${PATH} could not be read: ${err.message?.split("\n")[0]}`, { cause: e });
  }
  return resolveRaw(raw, context);
}

/** The file's text (or why there is none) resolved: parsed, validated, its defaults filled in. */
export function resolveRaw(raw: RawConfig, context: Pick<ConfigContext, "log" | "repo">): LoadedConfig {
  const where = { ...context.repo(), file: PATH };
  if ("missing" in raw) return resolveConfig(null);
  if ("refused" in raw) {
    context.log.warn({ ...where, reason: raw.refused }, "config refused; using defaults");
    return { ...resolveConfig(null), errors: [`${PATH}: ${raw.refused}`] };
  }
  let parsed: unknown;
  try {
    parsed = jsYaml().load(raw.text);
  } catch (e) {
    const message = (e as Error).message.split("\n")[0];
    context.log.warn({ ...where, error: message }, "config is not valid YAML; using defaults");
    return { ...resolveConfig(null), errors: [`${PATH}: ${message}`] };
  }
  const loaded = resolveConfig(parsed);
  if (loaded.errors.length > 0)
    context.log.warn(
      { ...where, errors: loaded.errors.slice(0, 20), count: loaded.errors.length },
      "invalid config keys fall back to defaults",
    );
  return loaded;
}

/**
 * The config's two places read in a GraphQL query beside other reads: the repository's file and
 * the owner's `.github` repository's (a second root), both at their default branch's HEAD, as
 * the contents API reads them without a ref.
 */
export function configFields(): ExtraFields {
  const blob = `object(expression: $config) { ${BLOB_FIELDS} }`;
  return {
    fields: `config: ${blob}`,
    roots: `org: repository(owner: $owner, name: $orgRepo) { config: ${blob} }`,
    decls: ["$config: String!", "$orgRepo: String!"],
    variables: { config: `HEAD:${PATH}`, orgRepo: ".github" },
  };
}

interface ConfigAnswer {
  repository?: { config?: BlobNode | null } | null;
  org?: { config?: BlobNode | null } | null;
}

function rawOf(node: BlobNode | null | undefined): RawConfig {
  if ((node?.byteSize ?? 0) > MAX_CONFIG_BYTES) return { refused: `larger than ${MAX_CONFIG_BYTES} bytes` };
  return rawFrom(blobResult(node));
}

/**
 * The config from the answer to `configFields`, resolved as `loadConfig` resolves it; null when
 * the answer does not say (the owner's `.github` unanswered for another reason than not being
 * there): then REST reads it.
 */
export function configFromAnswer(
  data: Record<string, unknown> | null,
  context: Pick<ConfigContext, "log" | "repo">,
): LoadedConfig | null {
  if (!data) return null;
  const a = data as ConfigAnswer;
  let raw = rawOf(a.repository?.config);
  if ("missing" in raw && context.repo().repo !== ".github") {
    // No `.github` repository (or one this installation cannot see) answers null with NOT_FOUND,
    // as the contents API answers 404.
    const orgMissing = a.org === null && queryErrors(data).some((e) => e.path?.[0] === "org" && e.type === "NOT_FOUND");
    if (a.org === undefined || (a.org === null && !orgMissing)) return null;
    raw = rawOf(a.org?.config);
  }
  return resolveRaw(raw, context);
}
