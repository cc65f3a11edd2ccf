// burn-triage explain: the comment the bot would post on a text, with the bot's own plan.
import { existsSync, readFileSync } from "node:fs";
import { resolve as resolvePath, sep } from "node:path";
import { parseArgs } from "node:util";
import { type AnalyzeInput, analyze, analyzeWithSources, indexRoots } from "../answer/analyze.js";
import { type BurnSources, type SourceRead, sourceKey } from "../answer/burn-files.js";
import { explainAnswer, explainReadsIndex } from "./explain-answer.js";
import { cliRegistries, type Io, read } from "./io.js";

/** Files of a local burn checkout, for the reads the analysis asks for; outside DIR is refused. */
function localSources(dir: string, reads: SourceRead[]): BurnSources {
  const out: BurnSources = {};
  const base = resolvePath(dir);
  for (const r of reads) {
    const path = resolvePath(base, r.path);
    if (!path.startsWith(base + sep)) continue;
    out[sourceKey(r.ref, r.path)] = existsSync(path) ? readFileSync(path, "utf8") : null;
  }
  return out;
}

export async function explain(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: "boolean" }, source: { type: "string" }, offline: { type: "boolean" } },
    allowPositionals: true,
  });
  const text = read(positionals[0] ?? "-", io);
  const input: AnalyzeInput = {
    text,
    registries: explainReadsIndex(text)
      ? await cliRegistries(values.offline === true, () => indexRoots(text), io)
      : undefined,
  };
  const dir = values.source;
  const analysis = dir ? await analyzeWithSources(input, async (reads) => localSources(dir, reads)) : analyze(input);
  // --json prints the answer the comment is worded from, and the comment.
  const answer = explainAnswer(analysis);
  if (values.json) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
  else io.stdout(answer.comment ?? "No known burn panic found.\n");
  return 0;
}
