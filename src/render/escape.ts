// Everything that comes from user text goes through here before it reaches a comment: no
// @mention can ping, no HTML renders, and no code span or fence can be closed from inside.

function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/** An inline code span that holds `s` verbatim. */
export function code(s: string): string {
  const oneLine = s.replace(/[\r\n]+/g, " ");
  const ticks = "`".repeat(longestRun(oneLine, "`") + 1);
  const pad = oneLine.startsWith("`") || oneLine.endsWith("`") ? " " : "";
  return `${ticks}${pad}${oneLine}${pad}${ticks}`;
}

/** A fenced block that user text cannot close. */
export function fence(body: string, info = ""): string {
  const ticks = "`".repeat(Math.max(3, longestRun(body, "`") + 1));
  return `${ticks}${info}\n${body.replace(/\r\n/g, "\n").replace(/\n$/, "")}\n${ticks}`;
}

/** Plain Markdown text: HTML and Markdown syntax are shown literally, mentions do not ping. */
export function text(s: string): string {
  return (
    s
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/([\\`*_[\]#|~])/g, "\\$1")
      .replace(/@(?=[A-Za-z0-9-])/g, "@\u200b")
      // GitHub links references and bare URLs in text after Markdown is parsed, so a backslash
      // does not stop them; a zero-width space inside the trigger does.
      .replace(/#(?=\d)/g, "#\u200b")
      .replace(/\b(GH)-(?=\d)/gi, "$1-\u200b")
      .replace(/:\/\//g, ":\u200b//")
      .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\u200b.`)
  );
}

/** `a`, `b` or `c` (quoted by `quote`: code spans unless the caller says otherwise). */
export function orList(items: string[], quote: (s: string) => string = code): string {
  const c = items.map(quote);
  if (c.length <= 1) return c.join("");
  return `${c.slice(0, -1).join(", ")} or ${c.at(-1)}`;
}

export function andList(items: string[]): string {
  const c = items.map(code);
  if (c.length <= 1) return c.join("");
  return `${c.slice(0, -1).join(", ")} and ${c.at(-1)}`;
}

/** Prefixes the hidden marker and defuses any copy of a marker that user text smuggled in. */
export function withMarker(marker: string, body: string): string {
  return `${marker}\n${body.replaceAll("<!-- burn-triage", "<!-- burn\u200b-triage")}`;
}

/**
 * Places a sentence names together: "Lines 7 and 16" when each is a bare line (`word` N), else the
 * places as a list ("line 7 and the `[features]` entry `gpu`"); null for the caller's own list.
 */
export function linesTogether(wheres: string[], word: "Line" | "line"): string | null {
  if (wheres.length === 1) return wheres[0]!;
  const at = new RegExp(`^${word} (\\d+)$`);
  const numbers = wheres.map((w) => at.exec(w)?.[1]);
  if (!numbers.every((n) => n !== undefined)) return null;
  return `${word}s ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}
