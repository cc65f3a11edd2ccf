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

/**
 * Octokit's paginator reads each page's body before we see it, and a truncated body (a string)
 * makes it throw a TypeError: that is GitHub's malformed answer, a failure that passes, not a
 * bug of the bot's. HTTP errors (with a status) pass through unchanged.
 */
export async function* listPages<T>(pages: AsyncIterable<{ data: unknown }>, what: string): AsyncGenerator<T[]> {
  const it = pages[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<{ data: unknown }>;
    try {
      next = await it.next();
    } catch (e) {
      if (e instanceof TypeError || e instanceof SyntaxError) throw malformed(what, e);
      throw e;
    }
    if (next.done) return;
    yield pageItems<T>(next.value.data, what);
  }
}
