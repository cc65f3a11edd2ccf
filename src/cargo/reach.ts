// Which features of one crate version could turn a target feature on: one walk of everything
// the crate's features may reach, then one walk back from the target. It over-approximates the
// resolver on purpose (a weak `dep?/f` counts as if `dep` were on, a dependency counts on every
// platform), so a feature outside the answer cannot turn the target on by itself, and
// enablersOf resolves only the others: a handful instead of every feature of burn.
import {
  allFeatures,
  depHidden,
  depsNamed,
  type IndexDep,
  type IndexLine,
  type Registry,
  selectVersion,
} from "./registry.js";
import type { FeatureTarget, WorkBudget } from "./resolve.js";

const idOf = (l: IndexLine) => `${l.name}@${l.vers}`;
// A node is "kind, package, name" joined by NUL: index data cannot put a NUL in a name.
const SEP = "\u0000";
const pkgNode = (id: string) => `P${SEP}${id}`;
const featureNode = (id: string, feature: string) => `F${SEP}${id}${SEP}${feature}`;
const activationNode = (id: string, dep: string) => `A${SEP}${id}${SEP}${dep}`;

/**
 * A predicate over `line`'s features: false means that feature, alone and without defaults,
 * certainly leaves `target` off. Gated targets (a cfg over several features) are not narrowed.
 */
export function mayEnable(
  line: IndexLine,
  registry: Registry,
  target: FeatureTarget,
  budget: WorkBudget,
): (feature: string) => boolean {
  if (target.gate) return () => true;
  const back = new Map<string, string[]>();
  const lines = new Map<string, IndexLine>([[idOf(line), line]]);
  const seen = new Set<string>();
  const todo: string[] = [];
  const reach = (from: string, to: string) => {
    const into = back.get(to);
    if (into) into.push(from);
    else back.set(to, [from]);
    if (!seen.has(to)) {
      seen.add(to);
      todo.push(to);
    }
  };
  const normal = (d: IndexDep) => (d.kind ?? "normal") === "normal";
  const child = (d: IndexDep): string | null => {
    const l = selectVersion(registry.versions(d.package ?? d.name), d.req);
    if (!l) return null;
    lines.set(idOf(l), l);
    return idOf(l);
  };
  /** What depending on `d` brings: the package, its defaults if asked, the features it lists. */
  const depend = (from: string, d: IndexDep) => {
    const c = child(d);
    if (!c) return;
    reach(from, pkgNode(c));
    if (d.default_features) reach(from, featureNode(c, "default"));
    for (const f of d.features) reach(from, featureNode(c, f));
  };
  const expand = (node: string) => {
    const [kind, id, name] = node.split(SEP) as [string, string, string | undefined];
    const l = lines.get(id)!;
    if (kind === "P") {
      for (const d of l.deps) if (!d.optional && normal(d)) depend(node, d);
      return;
    }
    const named = (dep: string) => depsNamed(l, dep).filter(normal);
    if (kind === "A") {
      for (const d of named(name!)) if (d.optional) depend(node, d);
      return;
    }
    const values = allFeatures(l)[name!];
    if (!values) {
      if (named(name!).some((d) => d.optional)) reach(node, activationNode(id, name!));
      return;
    }
    for (const v of values) {
      if (v.startsWith("dep:")) {
        reach(node, activationNode(id, v.slice(4)));
        continue;
      }
      const slash = v.indexOf("/");
      if (slash < 0) {
        reach(node, featureNode(id, v));
        continue;
      }
      const dep = v.slice(0, slash).replace(/\?$/, "");
      const feature = v.slice(slash + 1);
      if (!v.includes("?/")) {
        if (!depHidden(l, dep)) reach(node, featureNode(id, dep));
        reach(node, activationNode(id, dep));
      }
      for (const d of named(dep)) {
        const c = child(d);
        if (c) reach(node, featureNode(c, feature));
      }
    }
  };

  const start = [
    pkgNode(idOf(line)),
    ...Object.keys(allFeatures(line)).map((f) => featureNode(idOf(line), f)),
    ...line.deps.map((d) => featureNode(idOf(line), d.name)),
  ];
  for (const s of start) {
    if (seen.has(s)) continue;
    seen.add(s);
    todo.push(s);
  }
  for (let node = todo.pop(); node !== undefined; node = todo.pop()) {
    budget.spend();
    expand(node);
  }

  // Backwards from the target, in any version of its crate the walk met.
  const stack = [...seen].filter((n) => {
    const [kind, id, name] = n.split(SEP);
    return kind === "F" && name === target.feature && id!.slice(0, id!.lastIndexOf("@")) === target.crate;
  });
  const from = new Set(stack);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    budget.spend();
    for (const prev of back.get(node) ?? []) {
      if (from.has(prev)) continue;
      from.add(prev);
      stack.push(prev);
    }
  }
  const base = from.has(pkgNode(idOf(line)));
  return (feature) => base || from.has(featureNode(idOf(line), feature));
}
