/**
 * The first, cheapest question about a text: could it hold one of these messages at all? Each
 * message is reduced to its words (runs of four or more letters). Cleaning a report only removes
 * colour codes, entities, escapes and line breaks between words, never letters inside one, so a
 * raw text that lacks a word of every message holds none of them.
 *
 * The screen is exact for that rule and costs a few `includes` (V8 scans about ten times faster
 * per character with one than with a regex alternation): a handful of keys, chosen so that every
 * message holds one, and chosen *rare*. A key is weighed by how often it occurs in text that holds
 * no message (data/screen-frequency.json, per MiB, from real rustc output and the issues the bot
 * must not answer): `feature` covers most messages but is in every rustc note about another
 * crate's features, and a key that occurs sends the text on to its messages' other words. Those
 * are then looked up rarest first, so a message that is not there is dismissed by its first.
 */
export function wordScreen(
  messages: readonly string[],
  frequency: Readonly<Record<string, number>> = {},
): (raw: string) => boolean {
  const often = (w: string) => frequency[w] ?? 0;
  const words = messages.map((m) => [...new Set(m.match(/[A-Za-z]{4,}/g) ?? [])].sort((a, b) => often(a) - often(b)));
  // A message without such a word cannot be screened out: it may be in any text.
  if (words.some((w) => w.length === 0)) return () => true;
  const keys = screenKeys(words, often);
  const byKey = keys.map((k) => ({
    key: k,
    messages: words.filter((w) => w.includes(k)).map((w) => w.filter((x) => x !== k)),
  }));
  // The keys are runs of letters: nothing to escape.
  const any = new RegExp(keys.join("|"));
  return (raw) =>
    any.test(raw) &&
    byKey.some(({ key, messages }) => raw.includes(key) && messages.some((w) => w.every((x) => raw.includes(x))));
}

/**
 * Words such that every set holds one: a weighted greedy set cover, each step taking the word
 * that covers the most uncovered sets per unit of cost (1 + its frequency per MiB), the longer on
 * a tie. Without frequencies it is the plain greedy cover.
 */
export function screenKeys(sets: string[][], often: (w: string) => number): string[] {
  const keys: string[] = [];
  let left = sets;
  while (left.length > 0) {
    const count = new Map<string, number>();
    for (const set of left) for (const w of set) count.set(w, (count.get(w) ?? 0) + 1);
    const score = (w: string, n: number) => n / (1 + often(w));
    const [best] = [...count].sort(
      (a, b) => score(b[0], b[1]) - score(a[0], a[1]) || b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1),
    )[0]!;
    keys.push(best);
    left = left.filter((set) => !set.includes(best));
  }
  return keys;
}
