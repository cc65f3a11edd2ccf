// Which cargo feature a finding asks for, at the user's burn version: `burn-dispatch/autodiff` for
// the stub, `burn-core/std` for the no_std panic, one backend of burn-dispatch for
// `No backend feature enabled.` — chosen from what the user's text points to, never guessed.
import { proseAndCode } from "../cargo/manifest/extract.js";
import type { FeatureTarget } from "../cargo/resolve/resolve.js";
import type { Entry, Site, SiteFix } from "./catalog.js";

export type TargetChoice =
  /** One feature; `hint` says what in the text picked it among several. */
  | { kind: "one"; target: FeatureTarget; hint: string | null }
  /**
   * Any one of these features of `crate` fixes it, and nothing in the text says which. `gpu`: the
   * text says the GPU, so `features` are the GPU backends of the data's `listed` ones (`said`: its words).
   */
  | {
      kind: "choose";
      crate: string;
      features: string[];
      gpu?: { said: string; listed: string[]; source: string };
    }
  /** No cargo feature fixes it at this version (or the data does not say). */
  | { kind: "none" };

/** The sites of this entry at the user's version; the newest release's when that is unknown. */
export function sitesAt(entry: Entry, version: string | null): Site[] {
  if (version) {
    const at = entry.sites.filter((s) => s.version === version && (s.ref === `v${version}` || s.ref === "HEAD"));
    const tagged = at.filter((s) => s.ref.startsWith("v"));
    if (tagged.length > 0) return tagged;
    if (at.length > 0) return at;
  }
  const tags = entry.sites.filter((s) => s.ref.startsWith("v"));
  const newest = tags.at(-1)?.ref;
  return newest ? tags.filter((s) => s.ref === newest) : entry.sites;
}

/** Words in code, devices and env vars that name a burn backend, and the feature of each. */
const BACKEND_WORDS: Record<string, string> = {
  cuda: "cuda",
  wgpu: "wgpu",
  webgpu: "webgpu",
  vulkan: "vulkan",
  metal: "metal",
  rocm: "rocm",
  hip: "rocm",
  ndarray: "ndarray",
  libtorch: "tch",
  tch: "tch",
  cpu: "cpu",
  flex: "flex",
  remote: "remote",
  capture: "capture",
};

/** Only this much of the text is searched for hints: they sit next to the panic. */
const HINT_WINDOW = 64 * 1024;

/**
 * Backends the text points to, strongest evidence first: a `DispatchDeviceId::X` variant, a
 * `BURN_DEVICE=x` setting, then device and backend types in code (`CudaDevice`,
 * `burn::backend::Wgpu`, `DispatchDevice::Cuda`), then the machine as the prose describes it.
 * Each tier is one linear regex pass.
 */
export function backendHints(
  text: string,
  perVariant?: Record<string, string[]>,
): Array<{ tier: string; features: Set<string> }> {
  const t = text.slice(0, HINT_WINDOW);
  const { prose, code } = proseAndCode(t);
  const word = (w: string) => BACKEND_WORDS[w.toLowerCase()];
  const tiers: Array<{ tier: string; features: Set<string> }> = [];
  const collect = (tier: string, re: RegExp, map: (m: RegExpMatchArray) => string[] | undefined, within = t) => {
    const features = new Set<string>();
    for (const m of within.matchAll(re)) for (const f of map(m) ?? []) features.add(f);
    tiers.push({ tier, features });
  };
  collect(
    "the device id in your code",
    /\bDispatchDeviceId::(\w+)/g,
    (m) => perVariant?.[`DispatchDeviceId::${m[1]}`] ?? [word(m[1]!)].filter((x): x is string => !!x),
  );
  // `BURN_DEVICE=cuda` as a shell or env line; not the panic message itself, which names the feature the build lacks.
  collect("`BURN_DEVICE`", /\bBURN_DEVICE\s*[=:]\s*["']?([A-Za-z]+)(?![^\n]{0,20}requested)/g, (m) =>
    [word(m[1]!)].filter((x): x is string => !!x),
  );
  collect(
    "the devices and backends in your code",
    /\b(?:burn::backend::|DispatchDevice::|backend::)?(Cuda|Wgpu|WebGpu|Vulkan|Metal|Rocm|Hip|NdArray|LibTorch|Cpu|Flex|Remote)(?:Device\b|\b(?=::|<|\s*[,>;)(]))/g,
    (m) => [word(m[1]!)].filter((x): x is string => !!x),
    code,
  );
  // Weakest: the machine as the reporter describes it ("listing the CUDA GPUs", "on my ROCm
  // box", "nvidia-smi shows"), in prose only (code was read above); a negated mention ("no
  // CUDA here") is what the machine lacks, not what it has.
  collect(
    "what you wrote about your machine",
    PROSE_BACKEND,
    (m) => {
      if (NEGATED.test(prose.slice(Math.max(0, m.index! - 24), m.index).toLowerCase())) return [];
      return [/^(?:nvidia-smi|nvidia)$/i.test(m[1]!) ? "cuda" : word(m[1]!)].filter((x): x is string => !!x);
    },
    prose,
  );
  return tiers;
}

/** Backend names as people write them about their machine; case matters ("metal" is a word). */
const PROSE_BACKEND =
  /\b(CUDA|Cuda|ROCm|HIP|Metal|Vulkan|WebGPU|wgpu|WGPU|NdArray|ndarray|LibTorch|libtorch|nvidia-smi|NVIDIA|Nvidia)\b/g;
const NEGATED = /\b(?:no|not|without|don't|doesn't|didn't|isn't|never|lacks?|instead of)\b[^.!?\n]*$/;

function single(fix: SiteFix): FeatureTarget | null {
  return fix.features.length === 1 ? { crate: fix.crate, feature: fix.features[0]! } : null;
}

export function chooseTarget(entry: Entry, version: string | null, text: string): TargetChoice {
  if (entry.cause !== "feature-off") return { kind: "none" };
  const sites = sitesAt(entry, version);
  const fix = sites.find((s) => s.fix)?.fix;
  if (!fix) return { kind: "none" };
  const one = single(fix);
  if (one) return { kind: "one", target: one, hint: null };
  for (const { tier, features } of backendHints(text, fix.per_variant)) {
    const named = fix.features.filter((f) => features.has(f));
    if (named.length === 1) return { kind: "one", target: { crate: fix.crate, feature: named[0]! }, hint: tier };
    if (named.length > 1) return { kind: "choose", crate: fix.crate, features: named };
  }
  const gpu = gpuChoice(entry, fix, text);
  return gpu ?? { kind: "choose", crate: fix.crate, features: fix.features };
}

/** Weaker than any backend's name: the prose says the GPU ("I expected it to pick the GPU"), not which. */
const PROSE_GPU = /\bGPUs?\b/;

/**
 * The sentence of the prose's first "GPU" (from the stop before it to the stop after it, that stop
 * included), found by two scans from the word: linear, where one regex spanning the sentence was
 * quadratic on a long text with no stop in it.
 */
export function gpuSentence(prose: string): { sentence: string; before: string } | null {
  const at = prose.search(PROSE_GPU);
  if (at < 0) return null;
  let start = at;
  while (start > 0 && !".!?\n".includes(prose[start - 1]!)) start--;
  let end = at;
  while (end < prose.length && !".!?\n".includes(prose[end]!)) end++;
  if (end < prose.length && prose[end] !== "\n") end++;
  return { sentence: prose.slice(start, end), before: prose.slice(start, at) };
}

/** The GPU backends among the data's, when the prose (not code, not a negation) says the GPU. */
function gpuChoice(entry: Entry, fix: SiteFix, text: string): TargetChoice | null {
  const kinds = entry.gpu_backends;
  if (!kinds) return null;
  const { prose } = proseAndCode(text.slice(0, HINT_WINDOW));
  const m = gpuSentence(prose);
  if (!m) return null;
  if (NEGATED.test(m.before.toLowerCase())) return null;
  const features = fix.features.filter((f) => kinds.features.includes(f));
  if (features.length === 0 || features.length === fix.features.length) return null;
  return {
    kind: "choose",
    crate: fix.crate,
    features,
    gpu: { said: m.sentence.trim().slice(0, 160), listed: fix.features, source: kinds.source },
  };
}
