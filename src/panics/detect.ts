import { type Cause, cachedScreenPlan, type Entry, loadCatalog, screenCosts } from "./catalog.js";
import { type Location, parseLocation } from "./location.js";
import { cleanText, collapse, collapsedFinder, collapseSpaces, type Has, textLookup } from "./normalize.js";
import { reportView } from "./quoted.js";
import { messageScreens, type Screens, screensOf } from "./screen.js";

export interface Finding {
  id: string;
  message: string;
  /** The line as the user's program printed it, e.g. `not implemented: Requires …`. */
  printed: string;
  crate: string;
  cause: Cause;
  location: Location | null;
}

/** Bodies above this are cut: GitHub caps issue bodies at 65,536 characters, logs rarely matter past 2 MiB. */
export const MAX_INPUT = 2 * 1024 * 1024;
const MAX_HITS_PER_ENTRY = 32;
const PLACEHOLDER_MAX = 160;
const PANICKED_AT = "panicked at ";
/** How far before a message the `panicked at PATH:L:C:` header may be (collapsed characters). */
const HEADER_WINDOW = 700;
const PRINT_PREFIXES = ["not implemented: ", "internal error: entered unreachable code: ", "not yet implemented: "];

interface Matcher {
  entry: Entry;
  variants: string[][];
  /** Whether a cleaned text, before it is collapsed, holds each variant's first piece. */
  firsts: Array<(clean: string) => boolean>;
}

const RAISING = /^(?:panic|unimplemented|unreachable|todo|compile_error|assert\w*)!$/;

/**
 * burn itself panics (or fails to compile) with the entry's message, so a printed location is
 * burn's. Asked only of the entries a text holds: the sites load on first use (catalog.ts).
 */
const raises = (entry: Entry) => entry.sites.length === 0 || entry.sites.some((s) => RAISING.test(s.macro));

/** Each entry's matcher, made when a text first passes the screen for it (a pattern each). */
const matchers: Array<Matcher | undefined> = [];
const matcherOf = (i: number) => (matchers[i] ??= matcherFor(loadCatalog().entries[i]!));

function splitMessage(message: string): string[] {
  // Format placeholders (`{}`, `{other:?}`) are filled at run time; match the literal pieces in order.
  return message
    .split(/\{[^{}]*\}/)
    .map((s) => collapseSpaces(s.replace(/\{\{/g, "{").replace(/\}\}/g, "}")))
    .filter((s) => s.length > 0);
}

let screens: Screens | undefined;
const catalogScreens = () => {
  if (!screens) {
    const cached = cachedScreenPlan();
    screens =
      cached === undefined
        ? messageScreens(screenMessages(), screenCosts())
        : screensOf(cached, cached?.own.length ?? screenMessages().length);
  }
  return screens;
};

/** Most issues on burn's tracker hold no message at all: they cost the screen's scans, not a normalisation pass. */
export function mayHoldPanic(has: Has): boolean {
  return catalogScreens().any(has);
}

/** The messages as the screen reads them: their literal pieces, placeholders left out. */
export function screenMessages(): string[] {
  return loadCatalog().entries.map((e) => splitMessage(e.message).join(" "));
}

function matcherFor(entry: Entry): Matcher {
  const exact = splitMessage(entry.message);
  // Text copied from rendered Markdown loses its backticks.
  const bare = splitMessage(entry.message.replace(/`/g, ""));
  const variants = JSON.stringify(exact) === JSON.stringify(bare) ? [exact] : [exact, bare];
  return { entry, variants, firsts: variants.map((v) => collapsedFinder(v[0]!)) };
}

interface Hit {
  start: number;
  end: number;
}

function findHits(text: string, segments: string[]): Hit[] {
  const hits: Hit[] = [];
  const first = segments[0]!;
  let from = 0;
  while (hits.length < MAX_HITS_PER_ENTRY) {
    const start = text.indexOf(first, from);
    if (start < 0) break;
    let end = start + first.length;
    let ok = true;
    for (const seg of segments.slice(1)) {
      // A placeholder fills in a value, not a page of text: look only that far, which also
      // keeps the scan linear when the first piece repeats without the rest.
      const next = text.slice(end, end + PLACEHOLDER_MAX + seg.length).indexOf(seg);
      if (next < 0) {
        ok = false;
        break;
      }
      end += next + seg.length;
    }
    if (ok) hits.push({ start, end });
    from = start + first.length;
  }
  return hits;
}

/**
 * The message inside a macro call or a string literal of Rust source (`unimplemented!("Requires…`,
 * a `+` line of a diff of burn's code): quoted source, not output the user's program printed.
 */
const SOURCE_BEFORE =
  /(?:\b(?:unimplemented|panic|todo|unreachable|compile_error|format|expect|assert|e?println|e?print|writeln|write)!?\s*\(|\.expect\()(?:\s*[+-])*\s*(?:r#*)?["']$/;

/** A literal that goes on as Rust does (`".into()`, `");`): source, not output. */
const SOURCE_AFTER = /^["']\s*(?:\.(?:into|to_string|to_owned)\(\)|\)\s*;)/;

function quotedSource(text: string, hit: Hit): boolean {
  return (
    SOURCE_BEFORE.test(text.slice(Math.max(0, hit.start - 40), hit.start)) ||
    SOURCE_AFTER.test(text.slice(hit.end, hit.end + 30))
  );
}

/** Where a panic hook other than std's (color-eyre, tracing-panic) or rustc (` --> path:L:C`) prints the location after the message. */
const LOCATION_AFTER = /^['"]?(?:,\s|\s*Location:\s*|\s*panic\.location\s*=\s*["']?|\s*-->\s*)/;

function locate(text: string, hit: Hit): Location | null {
  const header = text.lastIndexOf(PANICKED_AT, hit.start);
  if (header >= 0 && hit.start - header <= HEADER_WINDOW) {
    const between = text.slice(header + PANICKED_AT.length, hit.start);
    // Old form: panicked at 'MESSAGE', path:L:C — the location follows the message.
    if (between.startsWith("'") || between.startsWith('"')) return parseLocation(text.slice(hit.end, hit.end + 400));
    const loc = parseLocation(between, { whole: true });
    if (loc) return loc;
  }
  const after = text.slice(hit.end, hit.end + 400);
  const m = LOCATION_AFTER.exec(after);
  if (m) return parseLocation(after.slice(m[0].length), { whole: true }) ?? parseLocation(after);
  return null;
}

function belongsTo(entry: Entry, loc: Location | null): boolean {
  if (!loc) return true;
  if (loc.crate) return loc.crate === entry.crate || loc.crate.replace(/_/g, "-") === entry.crate;
  // A bare relative path (`src/backend.rs`) is only ours if it names a file the message lives in.
  return entry.sites.some((s) => s.file.endsWith(`/${loc.path}`)) || loc.path.includes(entry.crate);
}

/** A value printed for a trailing placeholder: one plain word (`I16`), never a value with spaces cut short. */
const TRAILING_VALUE = /^ ([A-Za-z0-9_]{1,40})(?=$|[\s.,;:)])/;

/**
 * The message as the user's program printed it (placeholders filled), with its std prefix. A
 * trailing placeholder's value (`unsupported index dtype {other:?}` → `… dtype I16`) is the one
 * fact the user gave: it stays in the quote.
 */
function printedForm(text: string, hit: Hit, message: string): string {
  const before = text.slice(Math.max(0, hit.start - 50), hit.start);
  const prefix = PRINT_PREFIXES.find((p) => before.endsWith(p)) ?? "";
  const value = /\{[^{}]*\}$/.test(message) ? TRAILING_VALUE.exec(text.slice(hit.end, hit.end + 48))?.[0] : undefined;
  return prefix + text.slice(hit.start, hit.end) + (value ?? "");
}

/**
 * Finds catalog panics in free text (issue bodies, comments, logs). Pure and linear in the input.
 * A message without a location that the text only quotes as documentation (src/panics/quoted.ts)
 * is not a finding; one with its `panicked at` location is output wherever it sits.
 */
export function detect(input: string): Finding[] {
  const found = findAll(input);
  if (found.every((f) => f.location)) return found;
  const view = reportView(input.replace(/\r\n?/g, "\n"), {
    holds: (s) => findAll(s).length > 0,
    output: (line) => line.includes(PANICKED_AT) || PRINT_PREFIXES.some((p) => line.includes(p)),
  });
  const reported = new Set(findAll(view).map((f) => f.id));
  return found.filter((f) => f.location || reported.has(f.id));
}

function findAll(input: string): Finding[] {
  const head = input.length > MAX_INPUT ? input.slice(0, MAX_INPUT) : input;
  const has = textLookup(head);
  if (!mayHoldPanic(has)) return [];
  const may = catalogScreens().each(has);
  const clean = cleanText(head);
  // The entries whose first piece the collapsed text holds, found before collapsing it: a text
  // that passed the screens on common words (a burn issue about backends) holds none.
  const live = may.flatMap((maybe, i) => {
    const m = maybe ? matcherOf(i) : null;
    return m?.firsts.some((holdsFirst) => holdsFirst(clean)) ? [m] : [];
  });
  if (live.length === 0) return [];
  const text = collapse(clean);
  const findings: Finding[] = [];
  for (const { entry, variants } of live) {
    const burnRaises = raises(entry);
    const seen = new Set<string>();
    const own: Finding[] = [];
    for (const segments of variants) {
      for (const hit of findHits(text, segments)) {
        if (quotedSource(text, hit)) continue;
        // A message burn returns as an error value (format!, a literal) is printed by the user's
        // own unwrap or `main`: the location nearby is theirs, not burn's.
        const location = burnRaises ? locate(text, hit) : null;
        if (!belongsTo(entry, location)) continue;
        const key = location ? `${location.path}:${location.line}` : "";
        if (seen.has(key)) continue;
        seen.add(key);
        own.push({
          id: entry.id,
          message: entry.message,
          printed: printedForm(text, hit, entry.message),
          crate: entry.crate,
          cause: entry.cause,
          location,
        });
      }
    }
    // A message also quoted in a title or prose adds nothing once a located copy exists.
    const located = own.filter((f) => f.location);
    findings.push(...(located.length > 0 ? located : own.slice(0, 1)));
  }
  return findings;
}
