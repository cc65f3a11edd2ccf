// Evaluates `[target.'cfg(...)'.dependencies]` keys for one platform, as cargo does.
import { boundedMemo } from "../../util/memo.js";
export type Platform = "linux" | "windows" | "macos";

const FACTS: Record<Platform, { triple: string; kv: Record<string, string[]>; flags: string[] }> = {
  linux: {
    triple: "x86_64-unknown-linux-gnu",
    kv: {
      target_os: ["linux"],
      target_family: ["unix"],
      target_arch: ["x86_64"],
      target_env: ["gnu"],
      target_vendor: ["unknown"],
      target_pointer_width: ["64"],
      target_endian: ["little"],
      target_has_atomic: ["8", "16", "32", "64", "ptr"],
    },
    flags: ["unix"],
  },
  windows: {
    triple: "x86_64-pc-windows-msvc",
    kv: {
      target_os: ["windows"],
      target_family: ["windows"],
      target_arch: ["x86_64"],
      target_env: ["msvc"],
      target_vendor: ["pc"],
      target_pointer_width: ["64"],
      target_endian: ["little"],
      target_has_atomic: ["8", "16", "32", "64", "ptr"],
    },
    flags: ["windows"],
  },
  macos: {
    triple: "aarch64-apple-darwin",
    kv: {
      target_os: ["macos"],
      target_family: ["unix"],
      target_arch: ["aarch64"],
      target_env: [""],
      target_vendor: ["apple"],
      target_pointer_width: ["64"],
      target_endian: ["little"],
      target_has_atomic: ["8", "16", "32", "64", "ptr"],
    },
    flags: ["unix"],
  },
};

type Expr =
  | { op: "all" | "any"; args: Expr[] }
  | { op: "not"; arg: Expr }
  | { op: "kv"; key: string; value: string }
  | { op: "flag"; name: string };

function parseCfg(src: string): Expr {
  let i = 0;
  const ws = () => {
    while (i < src.length && /\s/.test(src[i]!)) i++;
  };
  const ident = () => {
    ws();
    const start = i;
    while (i < src.length && /[A-Za-z0-9_]/.test(src[i]!)) i++;
    if (start === i) throw new Error(`cfg: expected a name at ${i} in ${src}`);
    return src.slice(start, i);
  };
  const expr = (): Expr => {
    const name = ident();
    ws();
    if (src[i] === "(") {
      i++;
      const args: Expr[] = [];
      ws();
      while (src[i] !== ")") {
        args.push(expr());
        ws();
        if (src[i] === ",") i++;
        ws();
        if (i >= src.length) throw new Error(`cfg: unclosed ( in ${src}`);
      }
      i++;
      if (name === "not") return { op: "not", arg: args[0]! };
      if (name === "all" || name === "any") return { op: name, args };
      throw new Error(`cfg: unknown predicate ${name}`);
    }
    if (src[i] === "=") {
      i++;
      ws();
      const q = src[i];
      if (q !== '"') throw new Error(`cfg: expected a string in ${src}`);
      const end = src.indexOf('"', i + 1);
      const value = src.slice(i + 1, end);
      i = end + 1;
      return { op: "kv", key: name, value };
    }
    return { op: "flag", name };
  };
  return expr();
}

function evaluate(e: Expr, p: Platform, feature?: (name: string) => boolean): boolean {
  const f = FACTS[p];
  switch (e.op) {
    case "all":
      return e.args.every((a) => evaluate(a, p, feature));
    case "any":
      return e.args.some((a) => evaluate(a, p, feature));
    case "not":
      return !evaluate(e.arg, p, feature);
    case "kv":
      if (e.key === "feature") return feature?.(e.value) ?? false;
      return (f.kv[e.key] ?? []).includes(e.value);
    case "flag":
      return f.flags.includes(e.name);
  }
}

/** Whether a dependency's `target` applies on the platform; unknown syntax counts as not applying. */
const memo = boundedMemo<boolean>(4096);

export function targetApplies(target: string | null, platform: Platform = "linux"): boolean {
  if (target === null) return true;
  const key = `${platform}|${target}`;
  let v = memo.get(key);
  if (v === undefined) {
    v = evaluateTarget(target, platform);
    memo.set(key, v);
  }
  return v;
}

function evaluateTarget(target: string, platform: Platform): boolean {
  const t = target.trim();
  if (!t.startsWith("cfg(")) return t === FACTS[platform].triple;
  try {
    return evaluate(parseCfg(t.slice(4, -1)), platform);
  } catch {
    return false;
  }
}

function printCfg(e: Expr): string {
  switch (e.op) {
    case "all":
    case "any":
      return `${e.op}(${e.args.map(printCfg).join(", ")})`;
    case "not":
      return `not(${printCfg(e.arg)})`;
    case "kv":
      return `${e.key} = "${e.value}"`;
    case "flag":
      return e.name;
  }
}

/** The top-level conjuncts of a gate (`all(a, b)` → `[a, b]`), the gate itself otherwise; [] when it does not parse. */
export function conjunctsOf(gate: string): string[] {
  let e: Expr;
  try {
    e = parseCfg(gate);
  } catch {
    return [];
  }
  return e.op === "all" ? e.args.map(printCfg) : [printCfg(e)];
}

const parsed = boundedMemo<Expr | null>(4096);

/**
 * Whether a gate over crate-qualified features (`all(feature = "burn-core/std", feature =
 * "burn-dataset/vision")`) holds, given which features are on; platform atoms are read for
 * `platform`. A gate that does not parse never holds.
 */
export function gateHolds(gate: string, on: (crateFeature: string) => boolean, platform: Platform = "linux"): boolean {
  let e = parsed.get(gate);
  if (e === undefined) {
    try {
      e = parseCfg(gate);
    } catch {
      e = null;
    }
    parsed.set(gate, e);
  }
  return e ? evaluate(e, platform, on) : false;
}
