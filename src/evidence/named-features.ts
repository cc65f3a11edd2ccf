// The features an issue's prose says the build has ("I'm using burn … with `cuda` only", "I only
// enabled `wgpu`"), for the hypothetical Cargo.toml line shown when none was pasted: without them
// the line says `["std"]`, a build the reporter told us is not theirs. Only names in code spans,
// in a sentence that speaks of enabling or of features, and in none that negates; which of them
// are features of burn at the release judged is the caller's check (the index line).

export interface NamedFeatures {
  /** In the order written, each once. */
  features: string[];
  /** The sentence that names them, as written (at most 160 characters). */
  said: string;
}

/** A sentence that says what is on: "only", "enabled", "features", "with", "using". */
const CUE = /\b(?:only|enabled?|enabling|features?|with|using)\b/i;
/** What the build lacks is not what it has ("without `std`", "I did not enable `autodiff`"). */
const NEGATION = /\b(?:not|no|without|never|instead of|disabled?|turned off|removed?)\b|n't\b/i;
const SPAN = /`([^`\n]+)`/g;
const FEATURE_NAME = /^[a-z][a-z0-9_-]*$/;
/** Only this much of the text is read: the reporter's own words come first. */
const WINDOW = 16 * 1024;

/** The prose's sentences, code spans kept (fenced code is not prose). */
function sentences(text: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of text.slice(0, WINDOW).replace(/\r\n?/g, "\n").split("\n")) {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line);
  }
  return lines.join("\n").split(/(?<=[.!?])\s+|\n\s*\n/);
}

/** The first sentence of the prose that names features as on, and those names. */
export function namedFeatures(text: string): NamedFeatures | null {
  if (!text.includes("`")) return null;
  for (const raw of sentences(text)) {
    const sentence = raw.replace(/\s+/g, " ").trim();
    if (!CUE.test(sentence) || NEGATION.test(sentence)) continue;
    const names = [...sentence.matchAll(SPAN)].map((m) => m[1]!.trim()).filter((n) => FEATURE_NAME.test(n));
    if (names.length > 0) return { features: [...new Set(names)], said: sentence.slice(0, 160) };
  }
  return null;
}
