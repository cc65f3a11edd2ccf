// Does a crate's code compute gradients, and where does it say so? Pure: Rust source text in,
// the first line that asks for gradients out, so a review can point at it.

/** What in the source shows gradients are needed, strongest first. */
const SIGNS: Array<[RegExp, string]> = [
  [/\.backward\s*\(/, ".backward()"],
  [/\bAutodiffBackend\b/, "AutodiffBackend"],
  [/\bAutodiff\s*</, "Autodiff<…>"],
  [/\bburn::train\b|\bburn_train\b/, "burn::train"],
  [/\bLearner(?:Builder)?\b/, "Learner"],
];

export interface GradientUse {
  path: string;
  /** 1-based. */
  line: number;
  /** The construct found, as written in Rust (render/ puts it in code). */
  what: string;
}

/** Lines longer than this are generated code or minified data, not a training loop. */
const MAX_LINE = 2000;

export function findGradientUse(path: string, text: string): GradientUse | null {
  const lines = text.split("\n");
  for (const [re, what] of SIGNS) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.length > MAX_LINE || /^\s*\/\//.test(line)) continue;
      if (re.test(line)) return { path, line: i + 1, what };
    }
  }
  return null;
}

/** Training-looking files first: they decide fastest. */
function priority(path: string): number {
  if (/train|learn|optim/i.test(path)) return 0;
  if (/(?:^|\/)(?:main|lib)\.rs$/.test(path)) return 1;
  return 2;
}

/** The crate's own Rust sources worth reading, best first, at most `max`. Nested crates are theirs, not this one's. */
export function sourcesToRead(
  crateDir: string,
  tree: readonly string[],
  otherCrateDirs: ReadonlySet<string>,
  max: number,
): string[] {
  const prefix = crateDir ? `${crateDir}/` : "";
  const insideOther = (p: string) =>
    [...otherCrateDirs].some((d) => d !== crateDir && d.startsWith(prefix) && p.startsWith(`${d}/`));
  return tree
    .filter(
      (p) =>
        p.endsWith(".rs") &&
        p.startsWith(prefix) &&
        /^(?:src|examples|benches|tests)\//.test(p.slice(prefix.length)) &&
        !insideOther(p),
    )
    .sort((a, b) => priority(a) - priority(b) || a.localeCompare(b))
    .slice(0, max);
}
