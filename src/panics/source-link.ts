// Where a known panic was raised, as a link to burn's source at the user's release: the printed
// location when there is one (the truth for the user's build), else the block of stub methods
// that may have raised it; at a release newer than the data, from the file the shell read at
// that tag. And which method reached the site, when the entry says how to find it. Pure.
import { type BurnSources, sourceKey } from "../answer/burn-files.js";
import type { VersionGuess } from "../evidence/version.js";
import { burnPermalink } from "../util/links.js";
import { boundedMemo } from "../util/memo.js";
import { catalogFiles, type Entry, loadCatalog, messageLiteral, type Site } from "./catalog.js";
import type { Finding } from "./detect.js";
import { scanSource } from "./source-scan.js";

/** How far into a text a backtrace frame is looked for (GitHub's limit on an issue body). */
const FRAME_WINDOW = 65_536;

export interface SourceLink {
  crate: string;
  /** Path inside the crate (`src/backend.rs`) and in the repository. */
  file: string;
  repoPath: string;
  line: number;
  /** Set when no location was printed: the link spans every stub method of the block. */
  lineEnd: number | null;
  /** The stub methods in that span (`backward`, `grad`, …), when no location was printed. */
  methods: string[];
  ref: string;
  /** null when the printed path or ref is not of a shape a permalink may have. */
  url: string | null;
  cfg: string | null;
  item: string | null;
  /** The data holds this exact site at this ref, or the source read at that ref has it there. */
  verified: boolean;
  /** Where the site's facts come from: the bundled catalog, or burn's source read at that tag. */
  from: "catalog" | "source";
  /** When the site is live, as a cfg predicate (feature-family sites). */
  gate: string | null;
  /**
   * Other refs whose data has this message at exactly the printed file and line, with the method
   * there: a printed line shared by several refs identifies none of them (backend.rs:849 is
   * `backward` on main and `int_inner` at 0.22.0-pre.1).
   */
  sameLine: { ref: string; version: string | null; method: string | null }[];
  /**
   * A printed line the data does not have, where the message is raised only inside `macro_rules!`
   * at that ref: those macros (a panic in a macro reports where the macro was called, not the arm).
   */
  macros: { name: string; file: string; line: number }[];
}

export function refFor(version: VersionGuess): string | null {
  if (version.commit) return version.commit;
  const refs = loadCatalog().refs;
  return (
    refs.find((r) => r.version === version.version && r.ref.startsWith("v"))?.ref ??
    (version.version ? `v${version.version}` : null)
  );
}

function preferredSite(entry: Entry, sites: Site[]): Site | undefined {
  const prefer = entry.prefer_item;
  return (prefer ? sites.find((s) => s.item.includes(prefer)) : undefined) ?? sites[0];
}

/** The file to read at `ref` when the catalog has no site of this entry there. */
export function fileToRead(entry: Entry, finding: Finding, ref: string): string | null {
  if (entry.sites.some((s) => s.ref === ref)) return null;
  // The printed location names the file only when the catalog knows it; anything else (a path
  // with `..`, a file elsewhere in burn's repository) reads the message's latest known file.
  const printed = finding.location?.repoPath;
  const path =
    printed && catalogFiles().has(printed)
      ? printed
      : (entry.sites.filter((s) => s.ref.startsWith("v")).at(-1)?.file ?? null);
  return path && catalogFiles().has(path) ? path : null;
}

/** Sites of this entry found in source the shell read at `ref` (the release is newer than the data). */
function scannedSites(entry: Entry, ref: string, path: string, sources: BurnSources | undefined): Site[] {
  const text = sources?.[sourceKey(ref, path)];
  if (text === undefined || text === null) return [];
  const version = ref.startsWith("v") ? ref.slice(1) : null;
  return scanSource(text, messageLiteral(entry)).map((x) => ({
    ref,
    commit: ref,
    version,
    file: path,
    line: x.line,
    macro: x.macro ?? "literal",
    printed: entry.message,
    cfg: x.cfg,
    item: x.item,
    in_macro_rules: false,
    from: "source" as const,
  }));
}

export function linkFor(
  entry: Entry,
  finding: Finding,
  version: VersionGuess,
  sources?: BurnSources,
): SourceLink | null {
  const ref = refFor(version);
  if (!ref) return null;
  const toRead = fileToRead(entry, finding, ref);
  const read = toRead ? scannedSites(entry, ref, toRead, sources) : [];
  const atRef =
    read.length > 0
      ? read
      : entry.sites.filter((s) => s.ref === ref || (version.commit !== null && s.commit.startsWith(version.commit)));
  const loc = finding.location;
  if (loc?.repoPath) {
    // The printed location is the truth for the user's build, even where the data lacks that ref.
    const exact = atRef.find((s) => s.file === loc.repoPath && s.line === loc.line);
    const near = exact ?? atRef.find((s) => s.file === loc.repoPath) ?? preferredSite(entry, entry.sites);
    // A seed's line is a user's report, not burn's source in the data: it proves no site.
    const verified = exact !== undefined && !exact.seed_date;
    const link = make({ entry, repoPath: loc.repoPath, line: loc.line, ref, site: near, verified });
    const sameLine = entry.sites
      .filter((s) => !s.seed_date && s.file === loc.repoPath && s.line === loc.line && s !== exact)
      .filter((s) => !(exact && s.commit === exact.commit))
      .map((s) => ({ ref: s.ref, version: s.version, method: methodOf(s.item) }));
    const known = atRef.filter((s) => !s.seed_date);
    const printedHere = known.filter((s) => s.printed === finding.printed);
    const inMacros = printedHere.length > 0 ? printedHere : known;
    const macros =
      !verified && inMacros.length > 0 && inMacros.every((s) => s.in_macro_rules)
        ? inMacros.map((s) => ({ name: s.item.replace(/^macro_rules! /, ""), file: s.file, line: s.line }))
        : [];
    return { ...link, sameLine, macros };
  }
  // No location printed: any stub method of the block may have raised it. Link the block, not
  // one line presented as the place.
  const site = preferredSite(entry, atRef);
  if (!site) return null;
  const block = atRef.filter(
    (s) => s.file === site.file && s.cfg === site.cfg && s.item.split(" > ")[0] === site.item.split(" > ")[0],
  );
  const lines = block.map((s) => s.line);
  const methods = [...new Set(block.map((s) => methodOf(s.item)).filter((m): m is string => m !== null))];
  return make({
    entry,
    repoPath: site.file,
    line: Math.min(...lines),
    ref,
    site,
    verified: !site.seed_date,
    lineEnd: lines.length > 1 ? Math.max(...lines) : null,
    methods: methods.length > 1 ? methods : [],
  });
}

function methodOf(item: string): string | null {
  return /\bfn (\w+)/.exec(item.split(" > ").at(-1) ?? "")?.[1] ?? null;
}

const frames = boundedMemo<RegExp>(256);

/**
 * Which method reached the site, with its proof: the printed line is that method's at the release
 * judged (the data's sites at that ref, or burn's source read there), or a backtrace frame names
 * it. A printed line at a release whose lines the data does not have proves nothing: another
 * release's method table puts other methods on the same lines (backend.rs:849 is `int_inner` at
 * 0.22.0-pre.1 and `backward` on main), so it is `unknown`, and said so.
 */
export type MethodClaim =
  | { method: string; from: "line"; ref: string; file: string; line: number }
  | { method: string; from: "frame"; frame: string }
  /** No location printed: the issue's own words name one stub method (`loss.backward()`, "when I call backward"). */
  | { method: string; from: "prose"; said: string }
  /** `dataHasRef`: the data has this message's sites at `ref`, and the line is none of them. */
  | { method: null; from: "unknown"; ref: string; file: string; line: number; dataHasRef: boolean }
  /** The line alone chose the ref, and other refs have another method at that line: each is said. */
  | { method: null; from: "shared"; file: string; line: number; at: { ref: string; method: string }[] };

/** The method that reached the site, for an entry whose data says how to find it (`first_call`). */
export function firstCallOf(
  entry: Entry,
  finding: Finding,
  text: string,
  link: SourceLink | null,
  lineChoseRef = false,
): MethodClaim | null {
  if (!entry.first_call) return null;
  const loc = finding.location;
  const printed = loc?.repoPath && link && link.lineEnd === null ? link : null;
  const method = printed?.verified && printed.item ? methodOf(printed.item) : null;
  if (printed && method) {
    const others = printed.sameLine.filter((s): s is typeof s & { method: string } => s.method !== null);
    if (!lineChoseRef || others.every((s) => s.method === method))
      return { method, from: "line", ref: printed.ref, file: printed.repoPath, line: printed.line };
    const at = [
      { ref: /^[0-9a-f]{40}$/.test(printed.ref) ? printed.ref.slice(0, 7) : printed.ref, method },
      ...others.map((s) => ({ ref: s.version && s.ref.startsWith("v") ? s.version : s.ref, method: s.method })),
    ];
    return { method: null, from: "shared", file: printed.repoPath, line: printed.line, at };
  }
  let frame = frames.get(entry.first_call);
  if (!frame) {
    frame = new RegExp(entry.first_call);
    frames.set(entry.first_call, frame);
  }
  const m = frame.exec(text.slice(0, FRAME_WINDOW));
  if (m?.[1]) return { method: m[1], from: "frame", frame: m[0] };
  if (!printed) return link && !loc ? proseMethod(text, link.methods) : null;
  const dataHasRef = entry.sites.some((s) => s.ref === printed.ref);
  return { method: null, from: "unknown", ref: printed.ref, file: printed.repoPath, line: printed.line, dataHasRef };
}

/** The one stub method the text names as called (`backward()`, "call backward"); none or several: null. */
function proseMethod(text: string, methods: string[]): MethodClaim | null {
  const head = text.slice(0, FRAME_WINDOW);
  const hits = methods.flatMap((m) => {
    const said = new RegExp(`\\b${m}\\(\\)|\\bcall(?:s|ed|ing)?\\s+\`?\\.?${m}\\b`).exec(head);
    return said ? [{ method: m, from: "prose" as const, said: said[0] }] : [];
  });
  return hits.length === 1 ? hits[0]! : null;
}

interface LinkParts {
  entry: Entry;
  repoPath: string;
  line: number;
  ref: string;
  site: (Site & { from?: "source" }) | undefined;
  verified: boolean;
  lineEnd?: number | null;
  methods?: string[];
}

function make({ entry, repoPath, line, ref, site, verified, lineEnd = null, methods = [] }: LinkParts): SourceLink {
  return {
    crate: entry.crate,
    file: repoPath.replace(/^crates\/[^/]+\//, ""),
    repoPath,
    line,
    lineEnd,
    methods,
    ref,
    url: burnPermalink(ref, repoPath, line, lineEnd),
    // The cfg of a line the data does not have would be another line's: none is given.
    cfg: verified ? (site?.cfg ?? null) : null,
    item: site?.item ?? null,
    verified,
    from: verified && site?.from === "source" ? "source" : "catalog",
    gate: site?.gate ?? null,
    sameLine: [],
    macros: [],
  };
}
