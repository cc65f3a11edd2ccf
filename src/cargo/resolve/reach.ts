// Which features of one crate version could turn a target feature on: one walk of everything
// the crate's features may reach, then one walk back from the target. It over-approximates the
// resolver on purpose (a weak `dep?/f` counts as if `dep` were on, a dependency counts on every
// platform), so a feature outside the answer cannot turn the target on by itself, and
// enablersOf resolves only the others: a handful instead of every feature of burn.
import type { IndexDep, IndexLine } from "../index/index-file.js";
import { allFeatures, depHidden, depsNamed, type Registry } from "../index/registry.js";
import { selectVersion } from "./requirements.js";
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
  const top = idOf(line);
  const walk = new ForwardWalk(registry, line, budget);
  walk.run([
    pkgNode(top),
    ...Object.keys(allFeatures(line)).map((f) => featureNode(top, f)),
    ...line.deps.map((d) => featureNode(top, d.name)),
  ]);
  // Backwards from the target, in any version of its crate the walk met.
  const from = walk.reachingAny((kind, id, name) => {
    return kind === "F" && name === target.feature && id.slice(0, id.lastIndexOf("@")) === target.crate;
  });
  const base = from.has(pkgNode(top));
  return (feature) => base || from.has(featureNode(top, feature));
}

/** Everything the features of one crate version may reach, with the edges kept to walk back. */
class ForwardWalk {
  private readonly back = new Map<string, string[]>();
  private readonly lines = new Map<string, IndexLine>();
  private readonly seen = new Set<string>();
  private readonly todo: string[] = [];

  constructor(
    private readonly registry: Registry,
    line: IndexLine,
    private readonly budget: WorkBudget,
  ) {
    this.lines.set(idOf(line), line);
  }

  run(start: string[]): void {
    for (const s of start) this.visit(s);
    for (let node = this.todo.pop(); node !== undefined; node = this.todo.pop()) {
      this.budget.spend();
      this.expand(node);
    }
  }

  /** The nodes from which some node matching `isEnd` was reached (those nodes included). */
  reachingAny(isEnd: (kind: string, id: string, name: string | undefined) => boolean): Set<string> {
    const stack = [...this.seen].filter((n) => {
      const [kind, id, name] = n.split(SEP) as [string, string, string | undefined];
      return isEnd(kind, id, name);
    });
    const from = new Set(stack);
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      this.budget.spend();
      for (const prev of this.back.get(node) ?? []) {
        if (from.has(prev)) continue;
        from.add(prev);
        stack.push(prev);
      }
    }
    return from;
  }

  private visit(node: string): void {
    if (this.seen.has(node)) return;
    this.seen.add(node);
    this.todo.push(node);
  }

  private reach(from: string, to: string): void {
    const into = this.back.get(to);
    if (into) into.push(from);
    else this.back.set(to, [from]);
    this.visit(to);
  }

  private child(d: IndexDep): string | null {
    const l = selectVersion(this.registry.versions(d.package ?? d.name), d.req);
    if (!l) return null;
    this.lines.set(idOf(l), l);
    return idOf(l);
  }

  /** What depending on `d` brings: the package, its defaults if asked, the features it lists. */
  private depend(from: string, d: IndexDep): void {
    const c = this.child(d);
    if (!c) return;
    this.reach(from, pkgNode(c));
    if (d.default_features) this.reach(from, featureNode(c, "default"));
    for (const f of d.features) this.reach(from, featureNode(c, f));
  }

  private expand(node: string): void {
    const [kind, id, name] = node.split(SEP) as [string, string, string | undefined];
    const l = this.lines.get(id)!;
    if (kind === "P") {
      for (const d of l.deps) if (!d.optional && normal(d)) this.depend(node, d);
      return;
    }
    if (kind === "A") {
      for (const d of depsNamed(l, name!).filter(normal)) if (d.optional) this.depend(node, d);
      return;
    }
    const values = allFeatures(l)[name!];
    if (!values) {
      if (depsNamed(l, name!).some((d) => d.optional && normal(d))) this.reach(node, activationNode(id, name!));
      return;
    }
    for (const v of values) this.featureValue(node, id, l, v);
  }

  /** One entry of a feature's list: over-approximated (a weak `dep?/f` reaches as if `dep` were on). */
  private featureValue(node: string, id: string, l: IndexLine, v: string): void {
    if (v.startsWith("dep:")) this.reach(node, activationNode(id, v.slice(4)));
    else if (!v.includes("/")) this.reach(node, featureNode(id, v));
    else this.depFeature(node, id, l, v);
  }

  /** `dep/f` or `dep?/f`: `f` of every version of `dep` the line declares (and `dep` itself, unless weak). */
  private depFeature(node: string, id: string, l: IndexLine, v: string): void {
    const slash = v.indexOf("/");
    const dep = v.slice(0, slash).replace(/\?$/, "");
    const feature = v.slice(slash + 1);
    if (!v.includes("?/")) {
      if (!depHidden(l, dep)) this.reach(node, featureNode(id, dep));
      this.reach(node, activationNode(id, dep));
    }
    for (const d of depsNamed(l, dep).filter(normal)) {
      const c = this.child(d);
      if (c) this.reach(node, featureNode(c, feature));
    }
  }
}

const normal = (d: IndexDep) => (d.kind ?? "normal") === "normal";
