// The paths a Rust `use` declaration imports, from the source lines rustc prints with an error:
// `use burn::{backend::{Autodiff, Wgpu as W}, train::*};` imports `burn::backend::Autodiff`,
// `burn::backend::Wgpu` and the module `burn::train`. Groups, nested groups, `self`, `as` and
// globs, as the Reference's UseTree grammar has them. One pass over at most MAX_SOURCE
// characters, and groups nest at most MAX_DEPTH deep: the text comes from an issue.
const MAX_SOURCE = 4096;
const MAX_DEPTH = 8;
const MAX_PATHS = 64;

type Tok = string;

function tokens(source: string): Tok[] {
  return source.match(/::|[A-Za-z_][A-Za-z0-9_]*|[{},;*]|\S/g) ?? [];
}

class Parser {
  private i = 0;
  readonly paths: string[] = [];
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok | undefined {
    return this.toks[this.i];
  }

  private emit(segs: string[]) {
    if (segs.length > 0 && this.paths.length < MAX_PATHS) this.paths.push(segs.join("::"));
  }

  /** One UseTree under `prefix`; false when the text is not one (the rest is not read). */
  tree(prefix: string[], depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    const segs = [...prefix];
    if (this.peek() === "::") this.i++;
    for (;;) {
      const t = this.peek();
      if (t === "{") {
        this.i++;
        return this.group(segs, depth + 1);
      }
      if (t === "*") {
        this.i++;
        this.emit(segs);
        return true;
      }
      if (t === undefined || !/^[A-Za-z_]/.test(t)) return false;
      this.i++;
      if (t !== "self") segs.push(t);
      if (this.peek() === "::") {
        this.i++;
        continue;
      }
      if (this.peek() === "as") this.i += 2;
      this.emit(segs);
      return true;
    }
  }

  private group(prefix: string[], depth: number): boolean {
    while (this.peek() !== "}") {
      if (!this.tree(prefix, depth)) return false;
      if (this.peek() === ",") this.i++;
      else if (this.peek() !== "}") return false;
    }
    this.i++;
    return true;
  }

  /** Every `use …;` in the tokens. */
  all(): string[] {
    while (this.i < this.toks.length) {
      if (this.toks[this.i++] === "use") this.tree([], 0);
    }
    return this.paths;
  }
}

/** The paths imported by the `use` declarations in `source` (rustc's printed source lines). */
export function usePaths(source: string): string[] {
  return new Parser(tokens(source.slice(0, MAX_SOURCE))).all();
}
