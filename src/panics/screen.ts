import type { Has } from "./normalize.js";

/**
 * The first, cheapest question about a text: could it hold one of these messages at all? Each
 * message is reduced to its words (runs of four or more letters). Cleaning a report only removes
 * colour codes, entities, escapes and line breaks between words, never letters inside one, so a
 * raw text that lacks a word of every message holds none of them; and a text that lacks a piece
 * of a word lacks the word.
 *
 * The screen is exact for that rule. Its keys are pieces of 4 to 6 letters of the messages'
 * words, chosen so that every message holds one, and chosen cheap for text without a message
 * (data/screen-frequency.json, from real rustc output and the issues the bot must not answer):
 * V8 finds a pattern under 7 characters by a memchr scan for its first letter, so a key whose
 * first letter text rarely has costs almost nothing to rule out (`DEVICE`, `xpect`: 0.5 µs on a
 * 48 KiB rustc log), where `Expected` or `backend` cost 20–27 µs each; and a key that rarely
 * occurs sends few texts on to its messages' words, looked up cheapest first. The plain greedy
 * cover keyed on `feature`, which every rustc note about another crate's features holds, and the
 * 48 KiB log then cost 190 µs: a word of each of 21 messages searched.
 */
export interface ScreenCosts {
  /** Occurrences of each letter per KiB of text without a message. */
  letterPerKiB?: Readonly<Record<string, number>>;
  /** Occurrences of each piece per MiB of that text (absent: none seen). */
  perMiB?: Readonly<Record<string, number>>;
}

/** Pieces of 4 to 6 letters of a word (the word itself when it is that short). */
function pieces(word: string): string[] {
  const out: string[] = [];
  for (let len = 4; len <= Math.min(6, word.length); len++)
    for (let i = 0; i + len <= word.length; i++) out.push(word.slice(i, i + len));
  return out;
}

/** Per message, the pieces of its words: the candidate keys. */
export function pieceSets(words: string[][]): string[][] {
  return words.map((w) => [...new Set(w.flatMap(pieces))]);
}

/** A key's cost: the memchr hits of its first letter, and the lookups its own occurrences send on. */
export function keyCost(costs: ScreenCosts): (key: string) => number {
  return (k) => 1 + (costs.letterPerKiB?.[k[0]!] ?? 0) + (costs.perMiB?.[k] ?? 0) / 4;
}

const wordsOf = (messages: readonly string[]) => messages.map((m) => [...new Set(m.match(/[A-Za-z]{4,}/g) ?? [])]);

/** The keys of the screen of `messages` (null: a message has no word, nothing can be screened out). */
export function keysFor(messages: readonly string[], costs: ScreenCosts): string[] | null {
  const words = wordsOf(messages);
  return words.some((w) => w.length === 0) ? null : screenKeys(pieceSets(words), keyCost(costs));
}

/** The screen of a set of messages, asked two ways. */
export interface Screens {
  /** Whether the text may hold any of the messages. */
  any(has: Has): boolean;
  /**
   * Per message, whether the text may hold it: every key that is a piece of one of its words
   * occurs (asked first: `any` has asked most of them), then every word, cheapest first. The
   * detector then searches the cleaned text for those messages alone. A burn issue about its
   * backends passes the screen on `No backend feature enabled.`; by their keys alone, seven
   * messages were left to search for, 88 µs over 64 KiB.
   */
  each(has: Has): boolean[];
}

/**
 * What the screen asks, as data the build can keep (data/.cache/): per message its words,
 * cheapest first (`byCost`) and the keys that are pieces of them (`own`); per key, the messages
 * whose words it is a piece of. null: a message has no word, so nothing can be screened out.
 */
export interface ScreenPlan {
  byCost: string[][];
  byKey: Array<{ key: string; messages: number[] }>;
  own: string[][];
}

/** `keys`: keysFor's answer, computed here when not given. */
export function screenPlan(
  messages: readonly string[],
  costs: ScreenCosts = {},
  keys = keysFor(messages, costs),
): ScreenPlan | null {
  if (keys === null) return null;
  const cost = keyCost(costs);
  const words = wordsOf(messages);
  // Words looked up after a key hit: the cheapest to rule out first.
  const byCost = words.map((w) => [...w].sort((a, b) => cost(a) - cost(b)));
  const holds = (w: string[], k: string) => w.some((x) => x.includes(k));
  return {
    byCost,
    byKey: keys.map((key) => ({ key, messages: byCost.flatMap((w, i) => (holds(w, key) ? [i] : [])) })),
    own: words.map((w) => keys.filter((k) => holds(w, k))),
  };
}

/** The screen of `count` messages by their plan (null: every text may hold any of them). */
export function screensOf(plan: ScreenPlan | null, count: number): Screens {
  if (plan === null) return { any: () => true, each: () => Array.from({ length: count }, () => true) };
  const { byCost, byKey, own } = plan;
  return {
    any: (has) => {
      for (const { key, messages } of byKey) {
        if (!has(key)) continue;
        for (const i of messages) if (byCost[i]!.every(has)) return true;
      }
      return false;
    },
    each: (has) => own.map((ks, i) => ks.every(has) && byCost[i]!.every(has)),
  };
}

/** The screen of a set of messages. */
export function messageScreens(messages: readonly string[], costs: ScreenCosts = {}): Screens {
  return screensOf(screenPlan(messages, costs), messages.length);
}

/**
 * Keys such that every set holds one: a weighted greedy set cover, each step taking the key that
 * covers the most uncovered sets per unit of cost, the longer on a tie. With every cost equal it
 * is the plain greedy cover.
 */
export function screenKeys(sets: string[][], cost: (key: string) => number): string[] {
  const costs = new Map<string, number>();
  for (const set of sets) for (const w of set) if (!costs.has(w)) costs.set(w, cost(w));
  const keys: string[] = [];
  let left = sets;
  while (left.length > 0) {
    const count = new Map<string, number>();
    for (const set of left) for (const w of set) count.set(w, (count.get(w) ?? 0) + 1);
    // One pass for the best (a sort per step cost the CLI 13 ms at start).
    let best = "";
    let bestScore = -1;
    for (const [w, n] of count) {
      const score = n / costs.get(w)!;
      const better =
        score > bestScore ||
        (score === bestScore && (w.length > best.length || (w.length === best.length && w < best)));
      if (better) [best, bestScore] = [w, score];
    }
    keys.push(best);
    left = left.filter((set) => !set.includes(best));
  }
  return keys;
}
