// What a diagnosis is: the options it takes and the verdict it returns, apart from how it is
// reached (diagnose.ts judges, fix-search.ts looks for the smallest verified addition), so the
// judge, the fix search and every reader of a verdict share one set of words.

import type { Registries } from "../index/registry.js";
import type { Assumption, Pin, VersionSource } from "../manifest/burn-version.js";
import type { DepDecl, Manifest } from "../manifest/manifest.js";
import type { Platform } from "../resolve/cfg.js";
import type { FeatureState, FeatureTarget, WorkBudget } from "../resolve/resolve.js";
import type { Refusal } from "./refusal.js";

export interface DiagnoseOptions {
  /** Workspace root manifest when the member inherits (`workspace = true`). */
  root?: Manifest | null;
  /** burn version known from the user's build (backtrace path, Cargo.lock, prose). */
  burnVersion?: string | null;
  /** Where `burnVersion` came from; a Cargo.lock unless said otherwise. */
  burnVersionSource?: Pin["source"];
  platform?: Platform;
  /** Follow [dev-dependencies] too (the panic came from a test or an example). */
  includeDev?: boolean;
  registries?: Registries;
  /** Among additions of the same size, these features first (a PR review restores what it removed). */
  prefer?: string[];
  /** The feature the question is about; `burn-dispatch/autodiff` when absent. */
  target?: FeatureTarget;
  /** Candidate additions besides the enablers (the data's ready answers for a gated path), ranked by build size. */
  additions?: string[][];
  /**
   * Additions the code needs (a PR's crate imports `burn::optim`: `optim`): the first that verifies
   * is taken whatever its build's size, before any candidate is ranked.
   */
  needed?: string[][];
  /** Resolver work this diagnosis may spend; a fresh DIAGNOSIS_STEPS budget when absent. */
  budget?: WorkBudget;
}

export interface BurnDep {
  /** As written in this manifest. */
  decl: DepDecl;
  /** After workspace inheritance. */
  effective: DepDecl;
  /** The version cargo would pick from the data, or null when it is outside the data. */
  resolved: string | null;
}

export type Verdict =
  | "no-burn" // nothing burn-related in the manifest
  | "unknown-crate" // only `burn-…` crates the data does not have (`unknownCrates`): nothing is claimed
  | "pre-dispatch" // a burn release older than burn-dispatch: the runtime stub cannot occur
  | "no-dispatch" // the target's crate is not in this build at all
  | "on" // the target feature is on with the crate's default features
  | "gated" // on only with some of the crate's own (non-default) features
  | "too-large" // the feature graph needs more work than one event may spend: nothing is claimed
  | "unknown-commit" // burn at a commit the data cannot read (git rev, path checkout): nothing is claimed
  | "refused" // cargo refuses the manifest (`refused`): a feature it names does not exist at the release
  | "off";

export interface Addition {
  /** The declaration to edit (the member's own, never the workspace root's). */
  decl: DepDecl;
  add: string[];
}

export interface Assumed {
  version?: Assumption;
  graph?: Assumption;
}

export interface Diagnosis {
  target: FeatureTarget;
  verdict: Verdict;
  burnDeps: BurnDep[];
  /** The dependency that carries burn-dispatch into the build (the one to edit). */
  primary: BurnDep | null;
  state: FeatureState;
  /** The version whose feature graph was used. */
  graphVersion: string | null;
  /** The burn version selected for the primary dependency, and where it came from. */
  selected: {
    version: string | null;
    source: VersionSource;
    preDispatch: string | null;
    /** The main-branch snapshot's commit when its graph was used (a git or path dependency), else null. */
    mainCommit: string | null;
  } | null;
  /** What was not known and had to be assumed; empty when everything came from the data. */
  assumed: Assumed;
  registryLabel: string;
  /** `burn-…` dependencies no release in the data has (a crate newer than it, or not burn's). */
  unknownCrates: string[];
  /** Features of the primary crate that turn the target on on their own, at that version. */
  enablers: string[];
  /** Whether the primary crate's default features would have enabled it. */
  defaultsEnable: boolean;
  /** Enablers listed directly in the primary crate's `default` feature. */
  defaultEnablers: string[];
  /** Crate features of the user's own package that turn it on (verdict "gated"). */
  gatedBehind: string[];
  /** Smallest verified addition; null when none exists in the data (or the search ran out of budget). */
  fix: Addition | null;
  /** The fix search stopped at the work budget: "no fix" is then not a fact about burn. */
  searchCut?: boolean;
  /** A gated target's conjunction in the primary crate's own features (null: not one such). */
  gateFeatures?: string[] | null;
  /** Verdict "refused": the features cargo would refuse, in the manifest's order. */
  refused?: Refusal[];
}

/** One resolution of the manifest with these root features (and an addition to one declaration). */
export type Run = (features: string[], extra?: { target: DepDecl; add: string[] }) => FeatureState;
