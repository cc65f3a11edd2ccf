import type { ProbotOctokit } from "probot";

export type Octokit = InstanceType<typeof ProbotOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/**
 * A list page as an array. A truncated or non-JSON body reaches Octokit's caller as a string;
 * that is a failed read (retried later), never an empty list that would make the bot comment twice.
 */
export function pageItems<T>(data: unknown, what: string): T[] {
  if (Array.isArray(data)) return data as T[];
  throw malformed(what);
}

function malformed(what: string, cause?: unknown): Error {
  return Object.assign(new Error(`malformed ${what} listing from GitHub`, { cause }), { status: 502 });
}

/** A listing longer than this many pages is refused rather than read forever. */
export const DEFAULT_MAX_PAGES = 100;

/**
 * Octokit's paginator reads each page's body before we see it, and a truncated body (a string)
 * makes it throw a TypeError: that is GitHub's malformed answer, a failure that passes, not a
 * bug of the bot's. HTTP errors (with a status) pass through unchanged. A listing is bounded: a
 * `Link` back to a page already read, or more than `maxPages` pages, ends it with an error that
 * says so (the paginator itself follows `rel="next"` for as long as the server offers one).
 */
export async function* listPages<T>(
  pages: AsyncIterable<{ data: unknown; url?: string }>,
  what: string,
  maxPages = DEFAULT_MAX_PAGES,
): AsyncGenerator<T[]> {
  const it = pages[Symbol.asyncIterator]();
  const seen = new Set<string>();
  for (let read = 0; ; read++) {
    let next: IteratorResult<{ data: unknown; url?: string }>;
    try {
      next = await it.next();
    } catch (e) {
      if (e instanceof TypeError || e instanceof SyntaxError) throw malformed(what, e);
      throw e;
    }
    if (next.done) return;
    const url = next.value.url;
    if (url !== undefined && seen.has(url))
      throw Object.assign(new Error(`GitHub's ${what} listing links back to a page already read (${url})`), {
        status: 502,
      });
    if (url !== undefined) seen.add(url);
    if (read >= maxPages) throw new PageCapError(what, maxPages);
    yield pageItems<T>(next.value.data, what);
  }
}

/** A listing longer than the cap: not a failure that passes, so nothing retries it. */
export class PageCapError extends Error {
  constructor(
    readonly what: string,
    readonly maxPages: number,
  ) {
    super(`GitHub's ${what} listing has more than ${maxPages} pages; stopped there`);
  }
}

/** The `page` of a Link header's `rel="last"` URL, or null (one page, or no such link). */
export function lastPage(link: string | undefined): number | null {
  const m = /<([^>]+)>;\s*rel="last"/.exec(link ?? "");
  if (!m) return null;
  try {
    const page = Number(new URL(m[1]!).searchParams.get("page"));
    return Number.isSafeInteger(page) && page > 1 ? page : null;
  } catch {
    return null;
  }
}

/**
 * A listing's pages newest first: page 1 (which says which page is last), then the last page
 * down to page 2. What the bot looks for (its own latest review) is near the end of a long list,
 * so this finds it in two requests where a forward walk pays for every page. Pages are asked by
 * number from the same route, never by a URL the answer supplies.
 */
export async function* pagesNewestFirst<T>(
  fetchPage: (page: number | undefined) => Promise<{ data: unknown; headers: { link?: string } }>,
  what: string,
  maxPages = DEFAULT_MAX_PAGES,
): AsyncGenerator<T[]> {
  const first = await fetchPage(undefined);
  const last = lastPage(first.headers.link);
  if (last !== null && last > maxPages) throw new PageCapError(what, maxPages);
  for (let page = last ?? 1; page >= 2; page--) yield pageItems<T>((await fetchPage(page)).data, what);
  yield pageItems<T>(first.data, what);
}
