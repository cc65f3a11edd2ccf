// The only URLs the bot writes into a comment. Each is built from an allow-listed shape, never
// by pasting user text into a URL: a ref that is a release tag, a commit or `main`, and a path
// inside one of burn's crates made of plain file-name characters. Anything else gets no link.
const BURN_BLOB = "https://github.com/tracel-ai/burn/blob";
const REF = /^(?:v\d{1,4}\.\d{1,4}\.\d{1,4}(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?|[0-9a-f]{7,40}|main)$/;
const SEGMENT = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}";
const PATH = new RegExp(`^crates/[a-z0-9_-]{1,64}/(?:${SEGMENT}/){0,8}${SEGMENT}\\.rs$`);
const MAX_LINE = 1_000_000;

const validLine = (n: number) => Number.isInteger(n) && n > 0 && n < MAX_LINE;

/** `https://github.com/tracel-ai/burn/blob/<ref>/<path>#L<n>[-L<m>]`, or null when any part is not of that shape. */
export function burnPermalink(
  ref: string,
  repoPath: string,
  line: number,
  lineEnd: number | null = null,
): string | null {
  if (!REF.test(ref) || !PATH.test(repoPath) || repoPath.split("/").includes("..") || !validLine(line)) return null;
  if (lineEnd !== null && (!validLine(lineEnd) || lineEnd < line)) return null;
  return `${BURN_BLOB}/${ref}/${repoPath}#L${line}${lineEnd !== null ? `-L${lineEnd}` : ""}`;
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const REPO_PATH = new RegExp(`^(?:${SEGMENT}/){0,20}${SEGMENT}$`);

/** `https://github.com/<owner>/<repo>/blob/<sha>/<path>#L<n>` in the PR's repository, or null for any part of another shape. */
export function repoPermalink(owner: string, repo: string, sha: string, path: string, line: number): string | null {
  if (!NAME.test(owner) || !NAME.test(repo) || /^\.+$/.test(owner) || /^\.+$/.test(repo) || !/^[0-9a-f]{40}$/.test(sha))
    return null;
  if (!REPO_PATH.test(path) || path.split("/").includes("..") || !validLine(line)) return null;
  return `https://github.com/${owner}/${repo}/blob/${sha}/${path}#L${line}`;
}

/** Every URL shape the bot may emit, for the tests that parse its comments. */
export const ALLOWED_URL = new RegExp(
  `^(?:${BURN_BLOB.replace(/[./]/g, "\\$&")}/[0-9A-Za-z.-]+/crates/[a-z0-9_-]+/[A-Za-z0-9_./-]+\\.rs#L\\d+(?:-L\\d+)?|https://github\\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/blob/[0-9a-f]{40}/[A-Za-z0-9_./-]+#L\\d+)$`,
);

/**
 * burn's data writes its pull requests as `#4985`; in a comment on another repository GitHub
 * links a bare `#N` to that repository's own issue N. Qualified as `tracel-ai/burn#N`, the link
 * goes to burn's. A `#N` already qualified, or inside a word or URL, is left as it is.
 */
export function qualifyBurnRefs(s: string): string {
  return s.replace(/(^|[^\w/#&-])#(\d{1,7})\b/g, "$1tracel-ai/burn#$2");
}
