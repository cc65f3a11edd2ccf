// The paths a Rust `use` declaration imports, from the source lines rustc prints with an error:
// `use burn::{backend::{Autodiff, Wgpu as W}, train::*};` imports `burn::backend::Autodiff`,
// `burn::backend::Wgpu` and the module `burn::train`. Groups, nested groups, `self`, `as` and
// globs, as the Reference's UseTree grammar has them. One pass over at most MAX_SOURCE
// characters, and groups nest at most MAX_DEPTH deep: the text comes from an issue.
const MAX_SOURCE = 4096;
const MAX_DEPTH = 8;
const MAX_PATHS = 64;

type Tok = string;

/** One name a use declaration brings into scope: `a::b::C as D` (alias `D`), or `a::b::*` (glob). */
export interface Import {
  segs: string[];
  /** The name it is known by: the alias, else the last segment; null for a glob. */
  name: string | null;
  glob: boolean;
}

function tokens(source: string): Tok[] {
  return source.match(/::|[A-Za-z_][A-Za-z0-9_]*|[{},;*]|\S/g) ?? [];
}

class UseParser {
  private i = 0;
  readonly imports: Import[] = [];
  constructor(
    private readonly toks: Tok[],
    private readonly max = MAX_PATHS,
  ) {}

  private peek(): Tok | undefined {
    return this.toks[this.i];
  }

  private emit(segs: string[], name: string | null, glob: boolean) {
    if (segs.length > 0 && this.imports.length < this.max) this.imports.push({ segs, name, glob });
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
        this.emit(segs, null, true);
        return true;
      }
      if (t === undefined || !/^[A-Za-z_]/.test(t)) return false;
      this.i++;
      if (t !== "self") segs.push(t);
      if (this.peek() === "::") {
        this.i++;
        continue;
      }
      let name = segs.at(-1) ?? null;
      if (this.peek() === "as") {
        name = this.toks[this.i + 1] ?? null;
        this.i += 2;
      }
      this.emit(segs, name === "_" ? null : name, false);
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
  all(): Import[] {
    while (this.i < this.toks.length) {
      if (this.toks[this.i++] === "use") this.tree([], 0);
    }
    return this.imports;
  }
}

/** The imports of one use tree in burn's source (the tokens after `use`), at most `max`. */
export function useTree(toks: string[], max: number): Import[] {
  const p = new UseParser(toks, max);
  p.tree([], 0);
  return p.imports;
}

/** The paths imported by the `use` declarations in `source` (rustc's printed source lines). */
export function usePaths(source: string): string[] {
  return new UseParser(tokens(source.slice(0, MAX_SOURCE))).all().map((i) => i.segs.join("::"));
}
