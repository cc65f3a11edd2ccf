// The answer to an issue's text, built once from the analysis: what was found, the release judged
// and where it came from, each claim with what it rests on, each edit with its verification, and
// what could not be seen. The issue comment, `/explain-panic`, `explain` (text and `--json`) and
// scan's per-issue line all read this one object (its shape: answer-schema.ts).
import { isPinSource } from "../cargo/manifest/burn-version.js";
import { targetName } from "../cargo/resolve/resolve.js";
import type { CompileAnalysis } from "../compile/analyze.js";
import type { SourceLink } from "../panics/source-link.js";
import type { Analysis, ManifestVerdict, PanicAnalysis, RefusalResult } from "./analyze.js";
import { compileDetail, panicDetail, refusalDetail } from "./answer-detail.js";
import { type Build, chainSteps, editOf } from "./answer-edit.js";
import {
  ANSWER_SCHEMA_VERSION,
  type AnswerClaim,
  type AnswerEdit,
  type IssueAnswer,
  type Unseen,
} from "./answer-schema.js";
import { editPlace } from "./find-manifest.js";

export type { IssueAnswer, ManifestAnswer } from "./answer-schema.js";

/** The answer a renderer takes: plain data, all of it in its JSON. */
export type Answer = IssueAnswer;

/** A fresh answer that found nothing. */
const none = (): IssueAnswer => ({
  schemaVersion: ANSWER_SCHEMA_VERSION,
  kind: "issue",
  verdict: "none",
  findings: [],
  release: null,
  target: { feature: null, choices: [] },
  manifest: null,
  claims: [],
  edits: [],
  unseen: [],
  detail: null,
});

/** The line the comment names for the edit (null: the text shown is not the whole file). */
function lineOf(m: ManifestVerdict): number | null {
  return m.plan.kind === "fixed" ? editPlace(m, m.plan.change).line : null;
}

function manifestOf(m: ManifestVerdict | null): IssueAnswer["manifest"] {
  if (!m) return null;
  return {
    origin: m.origin,
    path: m.origin === "assumed" ? null : m.file.path,
    // A verdict on the Cargo.toml the bot assumed is no verdict on the user's: "unseen" (its claim keeps the detail).
    verdict:
      m.origin === "assumed" ? "unseen" : m.plan.kind === "invalid-toml" ? "invalid-toml" : m.plan.diagnosis.verdict,
  };
}

function manifestClaim(m: ManifestVerdict | null): AnswerClaim[] {
  if (!m || m.plan.kind === "invalid-toml") return [];
  const d = m.plan.diagnosis;
  const dep = d.primary?.effective;
  const detail = dep
    ? `${dep.key}: default-features ${dep.defaultFeatures === false ? "off" : "on"}, features [${dep.features.join(", ")}]`
    : "no burn dependency";
  return [
    {
      about: "manifest-verdict",
      subject: d.verdict,
      evidence: [
        {
          kind: "manifest",
          detail: `${m.origin === "assumed" ? "assumed " : ""}${m.file.path} (${detail})`,
          url: null,
        },
        {
          kind: "feature-graph",
          detail: `${dep?.name ?? "burn"} ${d.graphVersion ?? d.selected?.preDispatch ?? "(no release)"} from ${d.registryLabel}${d.enablers.length > 0 ? `; turned on by ${d.enablers.join(", ")}` : ""}`,
          url: null,
        },
        // The assumed line's features, when they are the ones the issue's words name.
        ...(m.named ? [{ kind: "issue-text" as const, detail: m.named.said, url: null }] : []),
      ],
    },
  ];
}

function manifestUnseen(m: ManifestVerdict | null): Unseen[] {
  if (!m || m.origin === "assumed") return ["manifest"];
  const out: Unseen[] = [];
  if (!m.whole) out.push("manifest-part");
  if (m.assumedMember) out.push("workspace-member");
  return out;
}

/** What the data has instead of (or besides) the printed line: the same words as the comment's. */
function siteNotes(l: SourceLink): string {
  const ref = (s: SourceLink["sameLine"][number]) => (s.version && s.ref.startsWith("v") ? s.version : s.ref);
  const macros = [...new Set(l.macros.map((m) => `${m.name} (${m.file.replace(/^crates\/[^/]+\//, "")}:${m.line})`))];
  const same = l.sameLine.map((s) => `${ref(s)}${s.method ? ` (${s.method})` : ""}`);
  return `${macros.length > 0 ? `; raised in macro_rules! ${macros.join(", ")}: the printed line is a call site` : ""}${same.length > 0 ? `; the data also has a site at that line at ${same.join(", ")}` : ""}`;
}

function panicClaims(a: PanicAnalysis): AnswerClaim[] {
  const l = a.link;
  const claims: AnswerClaim[] = [
    {
      about: "raised-at",
      subject: a.primary.printed,
      evidence: l
        ? [
            {
              kind: l.from === "source" ? "burn-source" : "source-line",
              detail: `${l.crate} ${l.ref} ${l.file}:${l.line}${l.lineEnd !== null ? `-${l.lineEnd}` : ""}${l.cfg ? ` ${l.cfg}` : ""}${l.verified ? "" : " (as printed, not in the data)"}${siteNotes(l)}`,
              url: l.url,
            },
          ]
        : [],
    },
  ];
  // The method that reached the site, only when its proof names one (a verified line, a frame).
  const c = a.firstCall;
  if (c && c.method !== null)
    claims.push({
      about: "reached-by",
      subject: c.method,
      evidence: [
        c.from === "frame"
          ? { kind: "backtrace", detail: c.frame, url: null }
          : c.from === "prose"
            ? { kind: "issue-text", detail: c.said, url: null }
            : { kind: "source-line", detail: `${c.ref} ${c.file}:${c.line}`, url: null },
      ],
    });
  if (a.tooOld)
    claims.push({
      about: "release-lacks-message",
      subject: a.tooOld.named,
      evidence: [{ kind: "source-line", detail: `first in ${a.tooOld.firstWith}`, url: null }],
    });
  if (a.broughtBy)
    claims.push({
      about: "brought-by",
      subject: a.entry.crate,
      evidence: [{ kind: "lock", detail: a.broughtBy.join(" -> "), url: null }],
    });
  return [...claims, ...choiceClaims(a), ...manifestClaim(a.manifest)];
}

/** A choice of backends narrowed: those this build already has (the resolver's chain), and the GPU ones the issue asked for. */
function choiceClaims(a: PanicAnalysis): AnswerClaim[] {
  const t = a.target;
  const claims: AnswerClaim[] = a.alreadyOn.map((o) => ({
    about: "already-on",
    subject: targetName(o.diagnosis.target),
    evidence: [{ kind: "feature-graph", detail: chainSteps(o.diagnosis.state.chain).join(" -> "), url: null }],
  }));
  if (t.kind === "choose" && t.gpu)
    claims.push({
      about: "gpu-backends",
      subject: t.features.join(", "),
      evidence: [
        { kind: "issue-text", detail: t.gpu.said, url: null },
        { kind: "burn-source", detail: t.gpu.source, url: null },
      ],
    });
  return claims;
}

/** With the plan's own edit: those of a typo's other near names (`rocn`: `doc` after `rocm`), in order. */
function withAlternatives(first: AnswerEdit | null, m: ManifestVerdict | null, build: Build): AnswerEdit[] {
  if (!first || !m) return first ? [first] : [];
  const others = (m.alternatives ?? []).map((p) => editOf(p, m.origin, build, null, editPlace(m, p.change).line));
  return [first, ...others.filter((e) => e !== null)];
}

function panicEdits(a: PanicAnalysis): AnswerEdit[] {
  // Only a feature left off has a Cargo.toml edit (render/issue.ts shows the same ones).
  if (a.entry.cause !== "feature-off") return [];
  const origin = a.manifest?.origin ?? "assumed";
  const m = a.manifest;
  if (a.target.kind === "choose")
    return a.choices
      .map((c) => editOf(c.plan, origin, a.version, c.feature, m ? editPlace(m, c.plan.change).line : null))
      .filter((e) => e !== null);
  const e = m ? editOf(m.plan, origin, a.version, null, lineOf(m)) : null;
  return withAlternatives(e, m, a.version);
}

function panicAnswer(a: PanicAnalysis): IssueAnswer {
  const seen = new Set<string>();
  const findings = a.findings.filter((f) => !seen.has(`${f.id}\0${f.printed}`) && seen.add(`${f.id}\0${f.printed}`));
  const unseen: Unseen[] = a.entry.cause === "feature-off" ? manifestUnseen(a.manifest) : [];
  if (a.version.source === "assumed" || a.version.source === "message") unseen.push("version");
  if ((a.link && a.link.lineEnd !== null) || a.firstCall?.method === null) unseen.push("location");
  if (a.target.kind === "choose") unseen.push("backend");
  const edits = panicEdits(a);
  if (edits.some((e) => e.verification.status !== "verified")) unseen.push("build-graph");
  return {
    ...none(),
    verdict: a.entry.cause,
    findings: findings.map((f) => ({ kind: "panic", id: f.id, printed: f.printed, path: null, gate: null })),
    release: {
      version: a.version.version,
      commit: a.version.commit,
      source: a.version.source,
      requirement: a.version.requirement ?? null,
    },
    target: {
      feature: a.target.kind === "one" ? targetName(a.target.target) : null,
      choices: a.target.kind === "choose" ? a.target.features : [],
    },
    manifest: a.entry.cause === "feature-off" ? manifestOf(a.manifest) : null,
    claims: panicClaims(a),
    edits,
    unseen: [...new Set(unseen)],
    detail: panicDetail(a),
  };
}

function compileAnswer(c: CompileAnalysis): IssueAnswer {
  if (c.items.length === 0 && c.absent.length === 0) return none();
  // A release the build itself printed (a crate path, a lock) is the one "verified" must name.
  const build: Build = isPinSource(c.release.source) && !c.beyond ? { version: c.release.version, commit: null } : null;
  const plan = c.manifest?.plan;
  const edit =
    c.items.length > 0 && c.manifest && plan && plan.kind !== "already-on"
      ? editOf(plan, c.manifest.origin, build, null, lineOf(c.manifest))
      : null;
  const about = c.findings.filter((f) => c.absent.includes(f.path) || c.items.some((i) => i.findings.includes(f)));
  const gateOf = (path: string) => c.items.find((i) => i.findings.some((f) => f.path === path))?.gate.gate ?? null;
  const unseen: Unseen[] = c.items.length > 0 ? manifestUnseen(c.manifest) : [];
  if (c.release.source === "assumed" || c.beyond) unseen.push("version");
  if (c.items.length > 0 && !edit && plan?.kind !== "already-on") unseen.push("fix");
  return {
    ...none(),
    verdict: c.items.length > 0 ? "gated-path" : "absent-path",
    findings: about.map((f) => ({
      kind: "compile",
      id: f.code,
      printed: f.printed,
      path: f.path,
      gate: gateOf(f.path),
    })),
    release: {
      version: c.release.version,
      commit: c.release.commit,
      source: c.release.source,
      requirement: c.release.requirement ?? null,
    },
    target: { feature: c.target ? targetName(c.target) : null, choices: [] },
    manifest: c.items.length > 0 ? manifestOf(c.manifest) : null,
    claims: [
      ...c.items.map((i) => ({
        about: "gated-path" as const,
        subject: i.path,
        evidence: [
          {
            kind: "cfg" as const,
            detail: `${i.gate.crate} ${i.gate.file}:${i.gate.cfg_line} ${i.gate.gate}`,
            url: i.url,
          },
        ],
      })),
      ...c.absent.map((p) => ({
        about: "absent-path" as const,
        subject: p,
        evidence: [{ kind: "burn-source" as const, detail: `no public item at ${c.ref}`, url: null }],
      })),
      ...manifestClaim(c.manifest),
    ],
    edits: withAlternatives(edit, c.manifest, build),
    unseen: [...new Set(unseen)],
    detail: compileDetail(c, build),
  };
}

function refusalAnswer(result: RefusalResult): IssueAnswer {
  const r = result.refusal;
  const plan = r.manifest?.plan;
  const refused = plan && plan.kind !== "invalid-toml" && plan.diagnosis.verdict === "refused";
  const edit =
    refused && r.manifest
      ? editOf(plan, r.manifest.origin, { version: r.version, commit: null }, null, lineOf(r.manifest))
      : null;
  const history = r.history;
  const unseen: Unseen[] = manifestUnseen(r.manifest);
  if (!r.version) unseen.push("release-source");
  if (refused && !edit) unseen.push("fix");
  return {
    ...none(),
    verdict: "cargo-refuses",
    findings: [{ kind: "refusal", id: "cargo", printed: r.found.printed, path: null, gate: null }],
    release: r.version
      ? { version: r.version, commit: null, source: "cargo", requirement: r.found.requirement ?? null }
      : null,
    manifest: manifestOf(r.manifest),
    claims: [
      {
        about: "refused-feature",
        subject: `${r.found.crate}/${r.found.feature}`,
        evidence: [
          { kind: "cargo", detail: r.found.printed, url: null },
          ...(history ? [{ kind: "history" as const, detail: JSON.stringify(history), url: null }] : []),
        ],
      },
      ...manifestClaim(r.manifest),
    ],
    edits: withAlternatives(edit, r.manifest, { version: r.version, commit: null }),
    unseen,
    detail: refusalDetail(result),
  };
}

/** The answer to an issue's text. Pure. */
export function answerIssue(a: Analysis): Answer {
  switch (a.kind) {
    case "none":
      return none();
    case "panic":
      return panicAnswer(a);
    case "compile":
      return compileAnswer(a.compile);
    case "refusal":
      return refusalAnswer(a);
  }
}
