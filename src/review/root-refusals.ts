// A workspace root whose burn entry names a removed feature, and several members whose own
// `{ workspace = true, features = [...] }` name it too: each member's refusal gets a two-file edit
// (the root's line and its own), all with the same root half. cargo resolves the workspace whole,
// so the root's change with one member's still leaves the others refused: the edit offered is the
// root's change with every such member's, each member verified against that same edited root.
import { acrossFiles, type Change, ledBy, ownDiff } from "../cargo/fix/change.js";
import type { Refusal as Judged } from "../cargo/judge/refusal.js";

interface Refusal {
  kind: string;
  manifest: string;
  diagnosis: { refused?: Judged[] };
  plan: { change: Change } | null;
  inDiff: boolean;
  othersInDiff?: string[];
  alsoRefused?: Array<{ manifest: string; refused: Judged[] }>;
}

const rootHalf = (c: Change, root: string) => [c, ...(c.others ?? [])].find((x) => x.path === root);

/** Every run of the edit's lines is in the PR's diff: each can be a suggestion on its own lines. */
export function inDiff(plan: { change: Pick<Change, "suggestions"> }, commentable: Set<number> | undefined): boolean {
  if (!commentable) return false;
  for (const s of plan.change.suggestions)
    for (let l = s.startLine; l <= s.endLine; l++) if (!commentable.has(l)) return false;
  return true;
}

/**
 * The refusals of one root's members: those whose edits share the root's half become one, on the
 * first of them (the root's line leads it), the rest folded in (their places are the first's edit's
 * other files; their refusals are its `alsoRefused`). `lines`: the PR's commentable lines by file.
 */
export function oneRootEdit<T extends { kind: string }>(
  out: T[],
  root: string,
  lines: ReadonlyMap<string, Set<number>>,
): T[] {
  const twoFile = (r: T): r is T & Refusal & { plan: { change: Change } } => {
    const c = (r as Partial<Refusal>).plan?.change;
    return r.kind === "refused" && !!c?.others?.length && rootHalf(c, root) !== undefined;
  };
  const two = out.filter(twoFile);
  if (two.length < 2) return out;
  const after = rootHalf(two[0]!.plan.change, root)!.after;
  if (two.some((r) => rootHalf(r.plan.change, root)!.after !== after)) return out;
  const lead = ledBy(two[0]!.plan.change, root);
  const members = two.flatMap((r) =>
    [r.plan.change, ...(r.plan.change.others ?? [])]
      .filter((c) => c.path !== root)
      .map((c) => ({ ...c, diff: ownDiff(c), others: undefined })),
  );
  const change = acrossFiles({ ...lead, others: undefined }, members);
  const othersInDiff = members.filter((m) => inDiff({ change: m }, lines.get(m.path))).map((m) => m.path);
  const merged = {
    ...two[0]!,
    plan: { ...two[0]!.plan, change },
    inDiff: inDiff({ change }, lines.get(root)),
    othersInDiff,
    // The dropped members' refusals stay said: each member's own line is listed and annotated.
    alsoRefused: two.slice(1).map((r) => ({ manifest: r.manifest, refused: r.diagnosis.refused ?? [] })),
  };
  return out.filter((r) => !twoFile(r) || r === two[0]).map((r) => (r === two[0] ? merged : r));
}
