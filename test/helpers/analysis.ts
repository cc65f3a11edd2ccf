import { type AnalyzeInput, analyze, type PanicAnalysis } from "../../src/answer/analyze.js";
import type { CompileAnalysis } from "../../src/compile/analyze.js";

/** The analysis of a text the test knows holds a panic; any other kind fails the test by name. */
export function analyzePanic(input: AnalyzeInput): PanicAnalysis {
  const a = analyze(input);
  if (a.kind !== "panic") throw new Error(`expected a panic analysis, got ${a.kind}`);
  return a;
}

/** The compile-error analysis of a text, or null when it is not one. */
export function analyzeCompile(input: AnalyzeInput): CompileAnalysis | null {
  const a = analyze(input);
  return a.kind === "compile" ? a.compile : null;
}
