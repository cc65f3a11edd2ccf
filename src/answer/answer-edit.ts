// An edit as the answer carries it: where, what changes and why (each rename with the release that
// removed the feature, each addition with what it turns on), and how it was verified. The same
// verification status is what the comment's "Verified on" / "Checked on" line says
// (render/manifest.ts reads it from here), so the two cannot disagree.
import type { Change } from "../cargo/fix/change.js";
import type { FixPlan } from "../cargo/fix/fix.js";
import type { Diagnosis } from "../cargo/judge/diagnosis.js";
import { ACCEPTED } from "../cargo/judge/refusal.js";
import type { Reason } from "../cargo/resolve/resolve.js";
import { targetName } from "../cargo/resolve/resolve.js";
import {
  ANSWER_SCHEMA_VERSION,
  type AnswerEdit,
  type AnswerRelease,
  type ManifestAnswer,
  type Unseen,
} from "./answer-schema.js";

/** The release (or commit) the answer says the build has: "verified" only on its graph. */
export type Build = { version: string | null; commit: string | null } | null;

/** The judged graph is the build's own: the same release, or the snapshot commit the build is at. */
export function graphIsBuild(d: Diagnosis, build: Build): boolean {
  if (!build) return true;
  const commit = d.selected?.mainCommit;
  // A build placed at a commit (a git checkout, a line only main's snapshot has) is main's graph at it.
  if (build.commit)
    return (
      commit !== null && commit !== undefined && (build.commit.startsWith(commit) || commit.startsWith(build.commit))
    );
  return build.version === null || (build.version === d.graphVersion && !commit);
}

export function verificationStatus(d: Diagnosis, build: Build): AnswerEdit["verification"]["status"] {
  if (d.assumed.graph) return "assumed-graph";
  return graphIsBuild(d, build) ? "verified" : "checked";
}

/** What the added features turn on: the target, or the gate it names; nothing for cargo's check alone. */
function turnsOn(d: Diagnosis): string | null {
  if (d.target.gate === ACCEPTED.gate) return null;
  return targetName(d.target);
}

/** Each part of the change, with its reason as data. */
/** The other files of a two-file edit, each with the line its suggestion starts on (undefined: one file). */
export const othersOf = (c: Change): Array<{ path: string; line: number }> | undefined =>
  c.others?.length ? c.others.map((o) => ({ path: o.path, line: o.suggestion.startLine })) : undefined;

export function changesOf(c: Change, d: Diagnosis): AnswerEdit["changes"] {
  const removedAt = (feature: string) => {
    const h = d.refused?.find((r) => r.feature === feature)?.history;
    return h?.kind === "removed" ? h.at : null;
  };
  // A typo's near names, in the history's order (nearest first), whichever of them this edit takes.
  const near = (feature: string) => {
    const h = d.refused?.find((r) => r.feature === feature)?.history;
    return h?.kind === "never" ? { near: [...h.closest] } : {};
  };
  const out: AnswerEdit["changes"] = [
    ...(c.resolves?.renamed ?? []).map((r) => ({
      op: "rename" as const,
      feature: r.feature,
      to: r.to,
      removedAt: removedAt(r.feature),
      turnsOn: null,
      ...(r.typo ? near(r.feature) : {}),
    })),
    ...(c.resolves?.dropped ?? []).map((f) => ({
      op: "drop" as const,
      feature: f,
      to: null,
      removedAt: removedAt(f),
      turnsOn: null,
    })),
  ];
  const on = c.targetUnmet ? null : turnsOn(d);
  for (const f of c.added)
    out.push({ op: c.declares ? "declare" : "add", feature: f, to: null, removedAt: null, turnsOn: on });
  return out;
}

export function editOf(
  plan: FixPlan,
  origin: AnswerEdit["origin"],
  build: Build,
  forFeature: string | null = null,
  line?: number | null,
): AnswerEdit | null {
  if (plan.kind !== "fixed") return null;
  const { change: c, diagnosis: d } = plan;
  return {
    path: c.path,
    line: line === undefined ? c.suggestion.startLine : line,
    dependency: c.dependency,
    origin,
    forFeature,
    changes: changesOf(c, d),
    diff: c.diff,
    ...(c.others?.length ? { others: othersOf(c) } : {}),
    verification: {
      status: verificationStatus(d, build),
      graph: d.graphVersion,
      commit: d.selected?.mainCommit ?? null,
      registry: d.registryLabel,
      targetOn: !c.targetUnmet && d.target.gate !== ACCEPTED.gate,
      targetUnmet: c.targetUnmet ?? null,
      cratesJoining: c.turnsOn ?? null,
    },
  };
}

/** One link's step: a feature (`burn/train`), or a crate passed through (`burn-optim`). */
function chainStep(link: Reason): string | null {
  if (link.kind === "feature") return link.pkg ? `${link.pkg.name}/${link.feature}` : null;
  if (link.kind === "activates") return link.via.pkg ? `${link.via.pkg.name}/${link.via.feature}` : null;
  // A crate that declares the next one with the feature (or with its defaults) is a link of its own:
  // `burn/burn-train` → `burn-optim` → `burn-core/autodiff`; without it burn-train would seem to turn it on.
  if (link.kind === "declares" || link.kind === "defaults") return link.pkg ? link.pkg.name : null;
  return null;
}

/** `burn/default` → … → `burn-dispatch/autodiff`, as crate/feature steps, every crate on the way (render/why.ts words them). */
export function chainSteps(chain: Reason[]): string[] {
  const steps: string[] = [];
  for (const link of chain) {
    const step = chainStep(link);
    if (step && steps.at(-1) !== step) steps.push(step);
  }
  // A bare crate next to a step that names it says nothing more (`burn/x` → `burn`, `burn/burn-optim` → `burn-optim`).
  const named = (s: string, next: string | undefined) => !!next && (next.startsWith(`${s}/`) || next.endsWith(`/${s}`));
  return steps.filter((s, i) => s.includes("/") || !named(s, steps[i + 1])).reverse();
}

/** The release a diagnosis judged, and where it came from. */
export function diagnosisRelease(d: Diagnosis): AnswerRelease | null {
  const version = d.primary?.resolved ?? d.graphVersion ?? d.selected?.preDispatch ?? null;
  if (!version && !d.selected) return null;
  // At a commit the data cannot read, main's version and commit stood in and were not used: unknown.
  const unread = d.verdict === "unknown-commit";
  return {
    version: unread ? null : version,
    commit: unread ? null : (d.selected?.mainCommit ?? null),
    source: d.selected?.source ?? null,
    requirement: d.primary?.effective.version ?? null,
  };
}

function assumedOf(d: Diagnosis): ManifestAnswer["assumed"] {
  const out: ManifestAnswer["assumed"] = [];
  for (const about of ["version", "graph"] as const) {
    const a = d.assumed[about];
    if (!a) continue;
    // An unread commit's stand-in (main's head) was not used: nothing was.
    const head = "unread" in a && a.unread ? null : "head" in a ? a.head : null;
    const used =
      a.kind === "no-requirement" || a.kind === "floating" ? a.assumed : a.kind === "outside-data" ? a.used : head;
    out.push({ about, kind: a.kind, used: used ?? null });
  }
  return out;
}

/** Verdicts whose state is not known: the judge returns "off" for them only because nothing was walked. */
const CANNOT_TELL: ReadonlySet<Diagnosis["verdict"]> = new Set(["unknown-commit", "unknown-crate", "too-large"]);

/** Whether the target is on, null when the data cannot tell (every surface says that as unknown). */
export function knownOn(d: Diagnosis): boolean | null {
  return CANNOT_TELL.has(d.verdict) ? null : d.state.on;
}

/**
 * `why` and `fix` on a manifest: one answer for both. `alternatives`: a typo's other near names'
 * edits (cargo/fix/typo-choices.ts), after the plan's own, as the issue's answer lists them.
 */
export function manifestAnswer(
  plan: Exclude<FixPlan, { kind: "invalid-toml" }>,
  alternatives: Array<FixPlan & { kind: "fixed" }> = [],
): ManifestAnswer {
  const d = plan.diagnosis;
  const edit = editOf(plan, "file", null);
  const unseen: Unseen[] = [];
  if (d.assumed.version) unseen.push("version");
  if (d.assumed.graph) unseen.push("build-graph");
  return {
    schemaVersion: ANSWER_SCHEMA_VERSION,
    kind: "manifest",
    feature: targetName(d.target),
    // The judge's off at a commit, crate or graph it could not read is no finding: said as unknown.
    on: knownOn(d),
    verdict: d.verdict,
    release: diagnosisRelease(d),
    assumed: assumedOf(d),
    chain: chainSteps(d.state.chain),
    enablers: d.enablers,
    claims: [
      {
        about: "manifest-verdict",
        subject: d.verdict,
        evidence: [
          {
            kind: "feature-graph",
            detail: `${d.primary?.effective.name ?? "burn"} ${d.graphVersion ?? d.selected?.preDispatch ?? "(no release)"} from ${d.registryLabel}`,
            url: null,
          },
        ],
      },
    ],
    edits: [edit, ...alternatives.map((a) => editOf(a, "file", null))].filter((e) => e !== null),
    noFix: plan.kind === "no-fix" ? plan.reason : null,
    unseen,
  };
}
