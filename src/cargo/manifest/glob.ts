// `[workspace] members` globs as cargo reads them (the `glob` crate: `*`, `?`, `[...]`, `[!...]`
// within one path segment, `**` across segments; no braces, no extglobs), matched without
// backtracking blow-ups: a pattern from an installing repository is outside input, and a
// regular-expression translation (picomatch) took ~400 ms on `+(+(a|aa))` or `*a*a*…b` against
// one directory name. Segments match in O(pattern × name); `**` by a table over segments.

/** Longer patterns are refused (match nothing); cargo's own members are short paths. */
export const MAX_GLOB_LENGTH = 256;

/** Work allowed for one event's membership questions, in character steps; past it: `GlobBudgetError`. */
export class GlobBudget {
  constructor(public steps = 5_000_000) {}
  spend(n: number): void {
    this.steps -= n;
    if (this.steps < 0) throw new GlobBudgetError();
  }
}

export class GlobBudgetError extends Error {
  constructor() {
    super("workspace member globs took more work than one event allows; the workspace is not judged");
  }
}

/** One character class `[...]` at `p[i]`: its end and whether `c` is in it, or null if unclosed. */
function charClass(p: string, i: number, c: string): { end: number; hit: boolean } | null {
  let j = i + 1;
  const negate = p[j] === "!";
  if (negate) j++;
  let hit = false;
  let first = true;
  for (; j < p.length && (p[j] !== "]" || first); j++, first = false) {
    if (p[j + 1] === "-" && p[j + 2] !== undefined && p[j + 2] !== "]") {
      if (c >= p[j]! && c <= p[j + 2]!) hit = true;
      j += 2;
    } else if (p[j] === c) hit = true;
  }
  return j < p.length ? { end: j, hit: hit !== negate } : null;
}

/** One segment: `*` and `?` never match `/` (segments hold none), a leading `.` only literally. */
function segmentMatch(p: string, s: string, budget: GlobBudget): boolean {
  if (s.startsWith(".") && !p.startsWith(".")) return false;
  budget.spend(p.length + s.length);
  // The classic two-pointer wildcard match: on a mismatch, retry from the last `*` one character
  // further. Each `*` restarts at most |s| times: O(|p| × |s|), never exponential.
  let pi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < s.length) {
    const c = s[si]!;
    const cls = p[pi] === "[" ? charClass(p, pi, c) : null;
    if (pi < p.length && (p[pi] === "?" || (cls ? cls.hit : p[pi] !== "*" && p[pi] === c))) {
      pi = cls ? cls.end + 1 : pi + 1;
      si++;
    } else if (p[pi] === "*") {
      star = pi++;
      mark = si;
    } else if (star >= 0) {
      budget.spend(1);
      pi = star + 1;
      si = ++mark;
    } else return false;
  }
  while (p[pi] === "*") pi++;
  return pi === p.length;
}

/** Whether `path` (segments joined by `/`) matches `pattern`. */
export function globMatch(pattern: string, path: string, budget: GlobBudget = new GlobBudget()): boolean {
  if (pattern.length > MAX_GLOB_LENGTH) return false;
  const ps = pattern.split("/");
  const ss = path.split("/");
  // can[i][j]: pattern segments from i match path segments from j (filled from the end).
  let next: boolean[] = Array.from({ length: ss.length + 1 }, (_, j) => j === ss.length);
  for (let i = ps.length - 1; i >= 0; i--) {
    const row: boolean[] = new Array(ss.length + 1).fill(false);
    for (let j = ss.length; j >= 0; j--) {
      if (ps[i] === "**") row[j] = next[j]! || (j < ss.length && !ss[j]!.startsWith(".") && row[j + 1]!);
      else row[j] = j < ss.length && next[j + 1]! && segmentMatch(ps[i]!, ss[j]!, budget);
    }
    next = row;
  }
  return next[0]!;
}
