// Parses the `file:line:col` a Rust panic prints, and what the path says about where the code
// came from: a registry crate with its version, a git checkout with its commit, or a local tree.

export type Origin = "registry" | "git" | "local" | "vendor" | "unknown";

export interface Location {
  /** The path as printed, with `\` turned into `/`. */
  path: string;
  line: number;
  column: number;
  origin: Origin;
  crate: string | null;
  version: string | null;
  commit: string | null;
  /** Path inside the burn repository, e.g. `crates/burn-dispatch/src/backend.rs`, when derivable. */
  repoPath: string | null;
}

const LOCATION = /([^\s'"`(),]+\.rs):(\d+):(\d+)/;
const REGISTRY = /\/([a-z0-9_-]+?)-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?(?:\+[0-9A-Za-z.]+)?)\/(src\/.+|.+\.rs)$/;
const GIT = /\/checkouts\/[a-z0-9_-]+-[0-9a-f]{8,}\/([0-9a-f]{7,40})\/(?:crates\/)?([a-z0-9_-]+)\/(src\/.+)$/;
const LOCAL = /(?:^|\/)crates\/(burn[a-z0-9_-]*)\/(src\/.+)$/;
/** `cargo vendor` trees: `vendor/burn-dispatch/src/backend.rs`, no version in the path. */
const VENDOR = /(?:^|\/)vendor\/(burn[a-z0-9_-]*)\/(src\/.+)$/;
/** Nix store entries prefix the crate directory with a hash: `/nix/store/<32 chars>-burn-dispatch-0.22.0/…`. */
const NIX_HASH = /\/nix\/store\/[0-9a-z]{32}-/;

/** A header that holds nothing but the location may have spaces in it (`C:\Users\Bob Smith\…`). */
const WHOLE = /^\s*(\S.*?\.rs):(\d+):(\d+)(?::|\s|$)/;

/**
 * Reads the first location in `text`; only the first KiB is looked at, so the cost is bounded.
 * With `whole`, the text is the entire `panicked at …:` header and may contain spaces.
 */
export function parseLocation(text: string, { whole = false } = {}): Location | null {
  const head = text.slice(0, 1024);
  const m = (whole ? WHOLE.exec(head) : null) ?? LOCATION.exec(head);
  if (!m) return null;
  const path = m[1]!.replace(/\\/g, "/");
  const base = { path, line: Number(m[2]), column: Number(m[3]) };
  const git = GIT.exec(path);
  if (git) {
    const crate = git[2]!;
    return { ...base, origin: "git", crate, version: null, commit: git[1]!, repoPath: `crates/${crate}/${git[3]}` };
  }
  const reg = REGISTRY.exec(path.replace(NIX_HASH, "/nix/store/"));
  if (reg) {
    const crate = reg[1]!;
    return {
      ...base,
      origin: "registry",
      crate,
      version: reg[2]!,
      commit: null,
      repoPath: `crates/${crate}/${reg[3]}`,
    };
  }
  const local = LOCAL.exec(path);
  if (local) {
    const crate = local[1]!;
    return { ...base, origin: "local", crate, version: null, commit: null, repoPath: `crates/${crate}/${local[2]}` };
  }
  const vendor = VENDOR.exec(path);
  if (vendor) {
    const crate = vendor[1]!;
    return { ...base, origin: "vendor", crate, version: null, commit: null, repoPath: `crates/${crate}/${vendor[2]}` };
  }
  return { ...base, origin: "unknown", crate: null, version: null, commit: null, repoPath: null };
}
