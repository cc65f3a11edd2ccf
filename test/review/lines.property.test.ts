// Where the review points is where the text is: over every PR fixture (fixtures/prs/cases.yml and
// the checkouts in fixtures/repos) and over generated Renovate bumps, each check annotation and
// each suggestion sits on lines of the file that hold what it speaks of: a refused feature's
// annotation on a line naming that feature, a suggestion on lines it changes (the refused name
// gone from its replacement), a regression's on the dependency's declaration. Issue 53.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { load } from "js-yaml";
import type { ReviewAnswer, ReviewResult } from "../../src/answer/review-answer.js";
import { planFix } from "../../src/cargo/fix/fix.js";
import { dirSnapshot } from "../../src/cli/review-dirs.js";
import { renderPrActions, reviewAnswer } from "../../src/render/review.js";
import type { PrSnapshot } from "../../src/review/pull-request.js";
import { applySuggestions } from "../helpers/cargo-workspace.js";
import { fixture, root } from "../helpers/fixtures.js";
import { caseSnapshot, HEAD } from "../support/review-surfaces.js";

type Case = Pick<PrSnapshot, "changed" | "base" | "head" | "tree" | "evidence"> & {
  name: string;
  options?: Partial<PrSnapshot["options"]>;
};

const lineOf = (s: PrSnapshot, path: string, n: number) => s.head[path]?.split(/\r?\n/)[n - 1] ?? null;
const names = (line: string | null, feature: string) =>
  line !== null && (line.includes(`"${feature}"`) || line.includes(`/${feature}"`) || line.includes(`'${feature}'`));

/** Every place the review and its checks point at, checked against the head's text; the count of places checked. */
function pointsTrue(s: PrSnapshot, a: ReviewAnswer): number {
  const actions = renderPrActions(a);
  let places = 0;
  const refusedResults = a.results.filter((r) => r.reported && r.kind === "refused");
  // Each refused feature is named on the line the answer gives it.
  for (const r of refusedResults)
    for (const x of r.refused ?? []) {
      expect([x.path, x.line, x.feature, names(lineOf(s, x.path, x.line ?? 0), x.feature)]).toEqual([
        x.path,
        x.line,
        x.feature,
        true,
      ]);
      places++;
    }
  // The annotations of a refused manifest are those lines, and only those.
  for (const c of actions.checks) {
    const failures = (c.output.annotations ?? []).filter((n) => n.annotation_level === "failure");
    const want = refusedResults.flatMap((r) => (r.refused ?? []).map((x) => `${x.path}:${x.line}`));
    const invalid = a.results.filter((r) => r.reported && r.kind === "invalid-toml").map((r) => `${r.path}:${r.line}`);
    expect(new Set(failures.map((n) => `${n.path}:${n.start_line}`))).toEqual(new Set([...want, ...invalid]));
    for (const n of c.output.annotations ?? []) {
      expect(n.end_line).toBeGreaterThanOrEqual(n.start_line);
      expect(lineOf(s, n.path, n.end_line)).not.toBeNull();
    }
  }
  for (const r of a.results) if (r.edit) places += editPointsTrue(s, r);
  // Each line an edit changes that names a refused feature, in any of its files, is a refused
  // item (so listed and annotated): a second member's own line too, not only the first's.
  for (const r of refusedResults) {
    const at = new Set((r.refused ?? []).map((x) => `${x.path}:${x.line}`));
    const features = new Set((r.refused ?? []).map((x) => x.feature));
    for (const f of r.edit ? [r.edit, ...(r.edit.others ?? [])] : [])
      for (const x of f.suggestions)
        for (let n = x.startLine; n <= x.endLine; n++)
          if ([...features].some((ft) => names(lineOf(s, f.path, n), ft))) expect(at).toContain(`${f.path}:${n}`);
  }
  // A line comment is one of the edit's suggestions, on the same lines.
  const suggestions = a.results.flatMap((r) =>
    r.edit && r.onLines ? r.edit.suggestions.map((x) => `${r.edit!.path}:${x.startLine}-${x.endLine}`) : [],
  );
  const comments = (actions.review?.comments ?? []).map((c) => `${c.path}:${c.start_line ?? c.line}-${c.line}`);
  expect(comments).toEqual(suggestions);
  return places;
}

/** Each suggestion of an edit replaces lines it changes, which name a refused feature or the dependency. */
function editPointsTrue(s: PrSnapshot, r: ReviewResult): number {
  const e = r.edit!;
  const text = s.head[e.path];
  if (!text) return 0;
  const refused = (r.refused ?? []).filter((x) => x.path === e.path);
  for (const x of e.suggestions) {
    const before = text.split(/\r?\n/).slice(x.startLine - 1, x.endLine);
    expect(before.join("\n")).not.toBe(x.lines.join("\n"));
    const here = refused.filter((f) => f.line !== null && f.line >= x.startLine && f.line <= x.endLine);
    const declares = before.some((l) => l.includes(e.dependency) || /\bfeatures\b/.test(l));
    expect([x.startLine, here.length > 0 || declares || e.declares]).toEqual([x.startLine, true]);
    for (const f of here) expect(x.lines.some((l) => names(l, f.feature))).toBe(false);
  }
  // The suggestions together are the edit: applied to the head, they give what was verified.
  expect(applySuggestions(text, e.suggestions)).toBe(applySuggestions(text, [e.suggestion]));
  return e.suggestions.length;
}

const cases = load(fixture("prs/cases.yml")) as Case[];
const repos = readdirSync(join(root, "fixtures/repos")).filter(
  (d) => existsSync(join(root, "fixtures/repos", d, "base")) && existsSync(join(root, "fixtures/repos", d, "head")),
);
const quiet = { stdout: () => {}, stderr: () => {} } as never;

describe("the review points where the text is", () => {
  it.each(cases.map((c) => [c.name, c] as const))("fixtures/prs: %s", (_name, c) => {
    const s = caseSnapshot(c);
    pointsTrue(s, reviewAnswer(s));
  });

  it.each(repos)("fixtures/repos/%s", async (name) => {
    const s = await dirSnapshot(
      join(root, "fixtures/repos", name, "base"),
      join(root, "fixtures/repos", name, "head"),
      quiet,
    );
    const pr = { ...s, headSha: HEAD, options: { ...s.options, checkRun: true } };
    pointsTrue(pr, reviewAnswer(pr));
  });

  it("the fixtures hold places to check (refused lines and suggestions)", () => {
    let places = 0;
    for (const c of cases) {
      const s = caseSnapshot(c);
      places += pointsTrue(s, reviewAnswer(s));
    }
    expect(places).toBeGreaterThanOrEqual(15);
  });
});

/** A burn declaration in one of the forms Renovate bumps, at `version`, naming `features`. */
const FORMS = {
  inline: (table: string, v: string, f: string[]) =>
    `[${table}]\nburn = { version = "${v}", features = ${JSON.stringify(f)} }\n`,
  table: (table: string, v: string, f: string[]) =>
    `[${table}.burn]\nversion = "${v}"\nfeatures = ${JSON.stringify(f)}\n`,
  multiline: (table: string, v: string, f: string[]) =>
    `[${table}]\nburn = { version = "${v}", features = [\n${f.map((x) => `    "${x}",`).join("\n")}\n] }\n`,
} as const;
const TABLES = ["dependencies", "dev-dependencies", "target.'cfg(unix)'.dependencies", "build-dependencies"];

const bump = fc.record({
  decls: fc.uniqueArray(
    fc.record({
      table: fc.constantFrom(...TABLES),
      form: fc.constantFrom(...(Object.keys(FORMS) as Array<keyof typeof FORMS>)),
      features: fc.subarray(["std", "wgpu", "ndarray", "server"], { minLength: 1 }),
      gap: fc.nat({ max: 4 }),
    }),
    { minLength: 1, maxLength: 3, selector: (d) => d.table },
  ),
});

type Decl = { table: string; form: keyof typeof FORMS; features: string[]; gap: number };

function manifest(v: string, decls: Decl[]): string {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `# filler ${i}\n`).join("");
  return `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n${decls
    .map((d) => `${FORMS[d.form](d.table, v, d.features)}${filler(d.gap)}\n`)
    .join("")}`;
}

function patchOf(before: string, after: string): string {
  // Every line of the head is in the diff here: a bump's hunks, with a whole file's context.
  const lines = after.split("\n");
  return `@@ -1,${before.split("\n").length} +1,${lines.length} @@\n${lines.map((l) => ` ${l}`).join("\n")}`;
}

describe("generated Renovate bumps past `server` (0.21.0 → 0.22.0-pre.2)", () => {
  it("every refused line is annotated and has its own suggestion; all of them together are what cargo accepts", () => {
    fc.assert(
      fc.property(bump, ({ decls }) => {
        const base = manifest("0.21.0", decls);
        const head = manifest("0.22.0-pre.2", decls);
        const s = caseSnapshot({
          changed: [{ path: "Cargo.toml", status: "modified", patch: patchOf(base, head) }],
          base: { "Cargo.toml": base },
          head: { "Cargo.toml": head },
          tree: ["Cargo.toml", "src/lib.rs"],
          evidence: { autodiff: { "Cargo.toml": null }, std: { "Cargo.toml": null } },
        });
        const a = reviewAnswer(s);
        pointsTrue(s, a);
        const written = head.split("\n").flatMap((l, i) => (l.includes('"server"') ? [i + 1] : []));
        const r = a.results.find((x) => x.kind === "refused");
        if (written.length === 0) return expect(r).toBeUndefined();
        expect(r?.refused?.map((x) => x.line)).toEqual(written);
        const edit = r!.edit!;
        expect(edit.suggestions.map((x) => x.startLine)).toEqual(written);
        const fixed = applySuggestions(head, edit.suggestions);
        const plan = planFix({ path: "Cargo.toml", text: fixed });
        expect(plan.kind !== "invalid-toml" && plan.diagnosis.verdict).not.toBe("refused");
      }),
      { numRuns: 100 },
    );
  });
});
