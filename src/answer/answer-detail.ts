// The answer's `detail`: what the comment's sentences rest on, picked field by field from the
// analysis (answer-detail-schema.ts says each shape), so that the JSON holds all the text says.
import type { Change } from "../cargo/fix/change.js";
import type { FixPlan } from "../cargo/fix/fix-plan.js";
import type { Diagnosis } from "../cargo/judge/diagnosis.js";
import type { Refusal } from "../cargo/judge/refusal.js";
import type { Assumption } from "../cargo/manifest/burn-version.js";
import type { DepDecl } from "../cargo/manifest/manifest.js";
import type { Reason } from "../cargo/resolve/resolve.js";
import type { CompileAnalysis } from "../compile/analyze.js";
import type { FragmentShown } from "../evidence/index.js";
import { removedBy } from "../panics/site-claims.js";
import type { PanicAnalysis, RefusalResult } from "./analyze.js";
import type {
  AssumptionData,
  CompileDetail,
  History,
  Judgement,
  ManifestDetail,
  PanicDetail,
  RefusalDetail,
} from "./answer-detail-schema.js";
import { type Build, chainSteps, othersOf, verificationStatus } from "./answer-edit.js";
import { editPlace, linesAreFiles, type ManifestVerdict } from "./find-manifest.js";

/** Only the keys that are set: an absent optional field stays absent (as JSON keeps it). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const declOf = (d: DepDecl) => ({
  key: d.key,
  name: d.name,
  form: d.form,
  kind: d.kind,
  target: d.target,
  inherits: d.inherits,
  defaultFeatures: d.defaultFeatures,
  features: [...d.features],
});

function reasonOf(r: Reason): Judgement["state"]["chain"][number] {
  const pkg = (p: { name: string; version: string } | null) => (p ? { name: p.name, version: p.version } : null);
  switch (r.kind) {
    case "root-feature":
      return { kind: r.kind, feature: r.feature };
    case "feature":
      return { kind: r.kind, pkg: pkg(r.pkg), feature: r.feature };
    case "depends":
    case "defaults":
      return { kind: r.kind, pkg: pkg(r.pkg), dep: r.dep };
    case "declares":
      return { kind: r.kind, pkg: pkg(r.pkg), dep: r.dep, feature: r.feature };
    case "activates":
      return { kind: r.kind, via: { pkg: pkg(r.via.pkg), feature: r.via.feature }, dep: r.dep };
  }
}

function assumptionOf(a: Assumption | undefined): AssumptionData | undefined {
  if (!a) return undefined;
  switch (a.kind) {
    case "no-requirement":
      return { kind: a.kind, key: a.key, assumed: a.assumed };
    case "git":
      return defined({ kind: a.kind, ref: a.ref ? defined({ ...a.ref }) : null, head: a.head, unread: a.unread });
    case "path":
      return defined({ kind: a.kind, path: a.path, head: a.head, unread: a.unread });
    case "floating":
      return { kind: a.kind, key: a.key, requirement: a.requirement, assumed: a.assumed };
    case "outside-data":
      return {
        kind: a.kind,
        key: a.key,
        requirement: a.requirement,
        pin: a.pin ? { version: a.pin.version, source: a.pin.source } : null,
        newest: a.newest,
        used: a.used,
      };
  }
}

export function historyOf(h: Refusal["history"]): History {
  if (h.kind === "never") return { kind: h.kind, closest: [...h.closest] };
  if (h.kind === "gone") return { kind: h.kind, lastIn: h.lastIn };
  return defined({
    kind: h.kind,
    at: h.at,
    replacement: h.replacement ? [...h.replacement] : null,
    advice: h.advice,
    inferred: h.inferred,
    likeForLike: h.likeForLike ? { from: h.likeForLike.from, kept: [...h.likeForLike.kept] } : undefined,
  });
}

function refusedOf(r: Refusal): NonNullable<Judgement["refused"]>[number] {
  return {
    crate: r.crate,
    version: r.version,
    feature: r.feature,
    where:
      r.where.kind === "features"
        ? { kind: "features", entry: r.where.entry }
        : { kind: "dependency", decl: { key: r.where.decl.key, line: r.where.decl.line }, inRoot: r.where.inRoot },
    line: r.line,
    history: historyOf(r.history),
  };
}

/** A Diagnosis as data: the facts render/why.ts words. */
export function judgementOf(d: Diagnosis): Judgement {
  const s = d.selected;
  return defined({
    verdict: d.verdict,
    target: defined({ crate: d.target.crate, feature: d.target.feature, gate: d.target.gate, label: d.target.label }),
    primary: d.primary
      ? { decl: declOf(d.primary.decl), effective: declOf(d.primary.effective), resolved: d.primary.resolved }
      : null,
    state: { version: d.state.version, chain: d.state.chain.map(reasonOf) },
    graphVersion: d.graphVersion,
    selected: s ? { version: s.version, source: s.source, preDispatch: s.preDispatch, mainCommit: s.mainCommit } : null,
    assumed: defined({ version: assumptionOf(d.assumed.version), graph: assumptionOf(d.assumed.graph) }),
    registryLabel: d.registryLabel,
    unknownCrates: [...d.unknownCrates],
    enablers: [...d.enablers],
    defaultEnablers: [...d.defaultEnablers],
    gatedBehind: [...d.gatedBehind],
    fix: d.fix ? { add: [...d.fix.add] } : null,
    gateFeatures: d.gateFeatures === undefined ? undefined : d.gateFeatures ? [...d.gateFeatures] : null,
    refused: d.refused?.map(refusedOf),
  });
}

function changeOf(c: Change) {
  return defined({
    path: c.path,
    diff: c.diff,
    dependency: c.dependency,
    added: [...c.added],
    declares: c.declares,
    suggestion: { startLine: c.suggestion.startLine, endLine: c.suggestion.endLine },
    others: othersOf(c),
    turnsOn: c.turnsOn ? [...c.turnsOn] : undefined,
    targetUnmet: c.targetUnmet,
    resolves: c.resolves
      ? {
          renamed: c.resolves.renamed.map((r) =>
            defined({
              feature: r.feature,
              to: r.to,
              others: [...r.others],
              typo: r.typo,
              likeForLike: r.likeForLike ? { from: r.likeForLike.from, kept: [...r.likeForLike.kept] } : undefined,
            }),
          ),
          dropped: [...c.resolves.dropped],
        }
      : undefined,
  });
}

/** The manifest judged and its plan, with the edit's place and status for the build the answer names. */
/** A fixed plan as the answer holds it: the change, where it goes, and how it was checked. */
function fixedDetail(m: ManifestVerdict, p: FixPlan & { kind: "fixed" }, build: Build) {
  const { line, inRoot } = editPlace(m, p.change);
  return {
    kind: p.kind,
    diagnosis: judgementOf(p.diagnosis),
    change: changeOf(p.change),
    place: { line, inRoot },
    status: verificationStatus(p.diagnosis, build),
    build: build ? { version: build.version, commit: build.commit } : null,
  };
}

export function manifestDetail(m: ManifestVerdict | null, build: Build): ManifestDetail | null {
  if (!m) return null;
  const p = m.plan;
  const plan: ManifestDetail["plan"] =
    p.kind === "invalid-toml"
      ? { kind: p.kind, error: { line: p.error.line, column: p.error.column, message: p.error.message } }
      : p.kind === "fixed"
        ? fixedDetail(m, p, build)
        : p.kind === "no-fix"
          ? { kind: p.kind, diagnosis: judgementOf(p.diagnosis), reason: p.reason }
          : { kind: p.kind, diagnosis: judgementOf(p.diagnosis) };
  return {
    origin: m.origin,
    path: m.file.path,
    whole: m.whole,
    assumedMember: m.assumedMember === true,
    linesAreFiles: linesAreFiles(m),
    named: m.named ? { features: [...m.named.features], said: m.named.said } : null,
    plan,
    alternatives: (m.alternatives ?? []).map((a) => fixedDetail(m, a, build)),
  };
}

const fragmentOf = (f: FragmentShown | null) =>
  f ? defined({ forwards: [...f.forwards], inherits: f.inherits }) : null;

export function panicDetail(a: PanicAnalysis): PanicDetail {
  const e = a.entry;
  const l = a.link;
  const c = a.firstCall;
  const g = a.siteGate;
  const t = a.target;
  return {
    kind: "panic",
    entry: {
      id: e.id,
      crate: e.crate,
      title: e.title,
      cause: e.cause,
      site_kind: e.site_kind,
      explanation: e.explanation,
      fixes: [...e.fixes],
      family: !!e.family,
    },
    printed: a.primary.printed,
    link: l
      ? {
          crate: l.crate,
          file: l.file,
          line: l.line,
          lineEnd: l.lineEnd,
          methods: [...l.methods],
          ref: l.ref,
          url: l.url,
          item: l.item,
          verified: l.verified,
          from: l.from,
          sameLine: l.sameLine.map((x) => ({ ref: x.ref, version: x.version, method: x.method })),
          macros: l.macros.map((m) => ({ name: m.name, file: m.file, line: m.line })),
        }
      : null,
    firstCall: c
      ? {
          method: c.method,
          from: c.from,
          frame: c.from === "frame" ? c.frame : null,
          said: c.from === "prose" ? c.said : null,
          ref: c.from === "frame" || c.from === "shared" || c.from === "prose" ? null : c.ref,
          file: c.from === "frame" || c.from === "prose" ? null : c.file,
          line: c.from === "frame" || c.from === "prose" ? null : c.line,
          dataHasRef: c.from === "unknown" ? c.dataHasRef : false,
          at: c.from === "shared" ? c.at.map((x) => ({ ref: x.ref, method: x.method })) : [],
        }
      : null,
    tooOld: a.tooOld ? { named: a.tooOld.named, firstWith: a.tooOld.firstWith, manifest: !!a.tooOld.manifest } : null,
    broughtBy: a.broughtBy ? [...a.broughtBy] : null,
    hint: t.kind === "one" ? t.hint : null,
    choiceCrate: t.kind === "choose" ? t.crate : null,
    removedBy: t.kind === "choose" ? removedBy(a.siteGate, t.features) : [],
    alreadyOn: a.alreadyOn.map((o) => ({ feature: o.feature, chain: chainSteps(o.diagnosis.state.chain) })),
    gpu: t.kind === "choose" && t.gpu ? { said: t.gpu.said, listed: [...t.gpu.listed], source: t.gpu.source } : null,
    siteGate: g ? { kind: g.kind, cfg: g.kind === "under" ? g.cfg : null, crate: g.crate } : null,
    fragment: fragmentOf(a.fragment),
    manifest: manifestDetail(a.manifest, a.version),
    oneTarget: t.kind === "one" ? { crate: t.target.crate, feature: t.target.feature } : null,
    tree: a.tree
      ? { crate: a.tree.crate, features: a.tree.features ? [...a.tree.features] : null, proof: a.tree.proof }
      : null,
  };
}

/** An import whose gated part is an ancestor module (`use burn::optim::x` gated at `burn::optim`); never an impl's bound. */
const importThroughModule = (i: CompileAnalysis["items"][number]) =>
  !i.finding.member && i.finding.code !== "E0277" && !i.path.startsWith("<") && i.path !== i.finding.path;

export function compileDetail(c: CompileAnalysis, build: Build): CompileDetail {
  const about = (path: string) =>
    c.absent.includes(path) || c.items.some((i) => i.findings.some((f) => f.path === path));
  return {
    kind: "compile",
    printed: [...new Set(c.findings.filter((f) => about(f.path)).map((f) => f.printed))],
    firstPartGated: c.items.some(importThroughModule),
    items: c.items.map((i) => ({
      path: i.path,
      url: i.url,
      gate: defined({
        crate: i.gate.crate,
        file: i.gate.file,
        cfg_line: i.gate.cfg_line,
        cfg: i.gate.cfg,
        from: i.gate.from,
      }),
    })),
    absent: [...c.absent],
    ref: c.ref,
    release: {
      version: c.release.version,
      commit: c.release.commit,
      source: c.release.source,
      requirement: c.release.requirement ?? null,
    },
    agreeing: c.agreeing ? [...c.agreeing] : null,
    beyond: c.beyond,
    failingCrate: c.failingCrate,
    fragment: fragmentOf(c.fragment),
    suggest: {
      withDefaults: c.suggest.withDefaults ? [...c.suggest.withDefaults] : null,
      noDefaults: c.suggest.noDefaults ? [...c.suggest.noDefaults] : null,
    },
    manifest: manifestDetail(c.manifest, build),
  };
}

export function refusalDetail({ refusal: r }: RefusalResult): RefusalDetail {
  return {
    kind: "refusal",
    found: {
      crate: r.found.crate,
      feature: r.found.feature,
      printed: r.found.printed,
      requirement: r.found.requirement,
    },
    version: r.version,
    history: r.history ? historyOf(r.history) : null,
    manifest: manifestDetail(r.manifest, r.version ? { version: r.version, commit: null } : null),
  };
}
