// What planning a fix returns, apart from how it is reached (fix.ts, fix-refusal.ts): a verified
// change, "already on", no fix and why, or a manifest that does not parse.

import type { DiagnoseOptions, Diagnosis } from "../judge/diagnosis.js";
import type { TomlError } from "../manifest/toml.js";
import type { Change } from "./change.js";

export interface ManifestFile {
  path: string;
  text: string;
}

export type FixPlan =
  | { kind: "fixed"; diagnosis: Diagnosis; change: Change }
  | { kind: "already-on"; diagnosis: Diagnosis }
  | { kind: "no-fix"; diagnosis: Diagnosis; reason: string }
  | { kind: "invalid-toml"; path: string; error: TomlError };

/** A diagnosis's options, with the workspace root as a file (its edit may be the fix). */
export type FixOptions = Omit<DiagnoseOptions, "root"> & {
  root?: ManifestFile | null;
  /**
   * Only the diagnosis is wanted (a workspace review judges every member, and plans an edit only
   * for one that regressed): no edit is searched, applied or verified, unless cargo would refuse
   * the manifest (that plan is the refusal's suggestion).
   */
  diagnosisOnly?: boolean;
  /**
   * A refused feature no release has, with several names near it: the one to rename it to
   * (`{ rocn: "doc" }`). Without it such a feature blocks the edit (refusal-fix.ts).
   */
  typos?: Record<string, string>;
};
