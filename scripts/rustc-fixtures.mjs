// Writes fixtures/compile/rustc-1.95/*.txt: what the local rustc prints (cargo build) when user
// code calls a burn method or associated item that a cargo feature configures out (e0599-*), and
// a gated module reached through a renamed dependency (`burn2 = { package = "burn" }`). The stub
// crates keep burn's real crate names, versions, type names, re-export paths and #[cfg]s at each
// release (0.22.0-pre.2's Device and Tensor in burn-tensor, 0.21.0's DispatchDevice in
// burn-dispatch, 0.20.1's PathFilter in burn-store); only the bodies are empty. The stubs' folder
// is rewritten to the crates.io layout a user's machine has. Run: node scripts/rustc-fixtures.mjs
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const out = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/compile/rustc-1.95");
const REGISTRY = "/home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f";

const crate = (name, version, features, deps, lib) => ({ name, version, features, deps, lib });

const releases = {
  "0.22.0-pre.2": [
    crate("burn-tensor", "0.22.0-pre.2", ["std", "autodiff", "cuda", "wgpu"], [], {
      "lib.rs": "mod device;\npub use device::*;\nmod tensor;\npub use tensor::*;\n",
      "device.rs": `#[derive(Clone, Debug, Default)]
pub struct Device { _inner: () }
pub enum DeviceKind { DefaultDevice }
impl Device {
    #[cfg(feature = "cuda")]
    pub fn cuda(index: usize) -> Self { let _ = index; Self::default() }
    #[cfg(feature = "wgpu")]
    pub fn wgpu(device_kind: DeviceKind) -> Self { let _ = device_kind; Self::default() }
    #[cfg(feature = "autodiff")]
    pub fn autodiff(self) -> Self { self }
    #[cfg(feature = "autodiff")]
    pub fn gradient_checkpointing(self) -> Self { self }
    pub fn is_autodiff(&self) -> bool { false }
}
`,
      "tensor.rs": `use crate::Device;
pub struct Float;
pub struct Int;
pub struct Gradients;
pub struct Tensor<const D: usize, K = Float> { _k: core::marker::PhantomData<K> }
impl<const D: usize, K> Tensor<D, K> {
    pub fn ones(_shape: [usize; D], _device: &Device) -> Self { Tensor { _k: core::marker::PhantomData } }
}
#[cfg(feature = "autodiff")]
impl<const D: usize> Tensor<D> {
    pub fn backward(&self) -> Gradients { Gradients }
    pub fn grad(&self, _grads: &Gradients) -> Option<Tensor<D>> { None }
}
`,
    }),
    crate("burn", "0.22.0-pre.2", ["std", "autodiff", "cuda", "wgpu", "train"], ["burn-tensor"], {
      "lib.rs": `pub mod tensor { pub use burn_tensor::*; }
pub use burn_tensor::Tensor;
pub mod prelude { pub use burn_tensor::{Device, Tensor}; }
#[cfg(feature = "train")]
pub mod train { pub struct Learner; }
`,
    }),
  ],
  "0.21.0": [
    crate("burn-dispatch", "0.21.0", ["std", "autodiff", "cuda"], [], {
      "lib.rs": "mod device;\npub use device::*;\n",
      "device.rs": `#[derive(Clone, Debug)]
pub enum DispatchDevice {
    Cpu,
    #[cfg(feature = "cuda")]
    Cuda(usize),
}
impl DispatchDevice {
    #[cfg(feature = "autodiff")]
    pub fn autodiff(device: impl Into<DispatchDevice>) -> DispatchDevice { device.into() }
}
`,
    }),
    crate("burn", "0.21.0", ["std", "autodiff", "cuda", "dispatch"], ["burn-dispatch"], {
      "lib.rs": "pub use burn_dispatch::DispatchDevice;\n",
    }),
  ],
  "0.20.1": [
    crate("burn-store", "0.20.1", ["std"], [], {
      "lib.rs": "mod filter;\npub use filter::*;\n",
      "filter.rs": `#[derive(Default)]
pub struct PathFilter { _patterns: () }
impl PathFilter {
    pub fn new() -> Self { Self::default() }
    #[cfg(feature = "std")]
    pub fn with_regex<S: AsRef<str>>(self, pattern: S) -> Self { let _ = pattern; self }
    #[cfg(feature = "std")]
    pub fn with_regexes<I, S>(self, patterns: I) -> Self where I: IntoIterator<Item = S>, S: AsRef<str> { let _ = patterns.into_iter().count(); self }
    pub fn with_full_path<S: Into<String>>(self, path: S) -> Self { let _ = path.into(); self }
}
`,
    }),
    crate("burn", "0.20.1", ["std", "store"], ["burn-store"], {
      "lib.rs": '#[cfg(feature = "store")]\npub mod store { pub use burn_store::*; }\n',
    }),
  ],
  // 0.21's prelude `Device` is the backend's device type: 0.22's `Device::autodiff()` is not a
  // gate there but an API that does not exist yet.
  "0.21.0-ndarray": [
    crate("burn-ndarray", "0.21.0", ["std"], [], {
      "lib.rs": "#[derive(Clone, Debug, Default)]\npub enum NdArrayDevice {\n    #[default]\n    Cpu,\n}\n",
    }),
    crate("burn", "0.21.0", ["std", "ndarray"], ["burn-ndarray"], {
      "lib.rs": "pub mod prelude { pub type Device = burn_ndarray::NdArrayDevice; }\n",
    }),
  ],
  // Another crate's feature-gated constructor, next to burn in the same build.
  "0.22.0-pre.2-tokio": [
    crate("tokio", "1.48.0", ["rt", "rt-multi-thread"], [], {
      "lib.rs": `pub mod runtime {
    pub struct Builder;
    impl Builder {
        pub fn new_current_thread() -> Builder { Builder }
        #[cfg(feature = "rt-multi-thread")]
        pub fn new_multi_thread() -> Builder { Builder }
    }
}
`,
    }),
    crate("burn", "0.22.0-pre.2", ["std"], [], { "lib.rs": "pub mod prelude {}\n" }),
  ],
};

/** The user's program per fixture: its release, burn's features on, and main.rs. */
const programs = {
  "e0599-device-autodiff-0.22": {
    release: "0.22.0-pre.2",
    features: ["std", "wgpu"],
    main: `use burn::prelude::*;

fn main() {
    let device = Device::default().autodiff();
    let x: Tensor<2> = Tensor::ones([2, 3], &device);
    let _ = x;
}
`,
  },
  "e0599-device-cuda-0.22": {
    release: "0.22.0-pre.2",
    features: ["std", "wgpu"],
    main: `use burn::prelude::*;

fn main() {
    let device = Device::cuda(0);
    let _ = device;
}
`,
  },
  "e0599-tensor-backward-grad-0.22": {
    release: "0.22.0-pre.2",
    features: ["std"],
    main: `use burn::prelude::*;

fn main() {
    let device = Device::default();
    let x: Tensor<1> = Tensor::ones([3], &device);
    let grads = x.backward();
    let g = x.grad(&grads);
    let _ = g;
}
`,
  },
  "e0599-dispatch-autodiff-0.21": {
    release: "0.21.0",
    features: ["std", "dispatch"],
    main: `use burn::DispatchDevice;

fn main() {
    let device = DispatchDevice::autodiff(DispatchDevice::Cpu);
    let _ = device;
}
`,
  },
  "e0599-path-filter-regex-0.20": {
    release: "0.20.1",
    features: ["store"],
    main: `use burn::store::PathFilter;

fn main() {
    let filter = PathFilter::new().with_regex(r"^encoder\\..*").with_regexes(["decoder"]);
    let _ = filter;
}
`,
  },
  // Silent: a typo rustc already answers, and an associated function called as a method.
  "e0599-typo-0.22": {
    release: "0.22.0-pre.2",
    features: ["std", "autodiff"],
    main: `use burn::prelude::*;

fn main() {
    let device = Device::default().autodif();
    let _ = device;
}
`,
  },
  "e0599-assoc-fn-as-method-0.22": {
    release: "0.22.0-pre.2",
    features: ["std", "cuda"],
    main: `use burn::prelude::*;

fn main() {
    let device = Device::default().cuda(0);
    let _ = device;
}
`,
  },
  "e0433-renamed-burn2-0.22": {
    release: "0.22.0-pre.2",
    features: ["std"],
    key: "burn2",
    main: `use burn2::train::Learner;

fn main() {
    let _learner: Option<Learner> = None;
}
`,
  },
  "e0599-removed-api-0.21": {
    release: "0.21.0-ndarray",
    features: ["std", "ndarray"],
    main: `use burn::prelude::*;

fn main() {
    let device = Device::default().autodiff();
    let _ = device;
}
`,
  },
  "e0599-other-crate-0.22": {
    release: "0.22.0-pre.2-tokio",
    features: ["std"],
    extra: 'tokio = { path = "../tokio", default-features = false, features = ["rt"] }\n',
    main: `fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread();
    let _ = rt;
}
`,
  },
};

function writeCrate(dir, c, all) {
  const path = join(dir, c.name);
  mkdirSync(join(path, "src"), { recursive: true });
  const forward = (f) =>
    c.deps.filter((d) => all.find((x) => x.name === d).features.includes(f)).map((d) => `"${d}/${f}"`);
  const features = c.features.map((f) => `${JSON.stringify(f)} = [${forward(f).join(", ")}]`).join("\n");
  const deps = c.deps.map((d) => `${d} = { path = "../${d}", default-features = false }`).join("\n");
  writeFileSync(
    join(path, "Cargo.toml"),
    `[package]\nname = "${c.name}"\nversion = "${c.version}"\nedition = "2021"\n\n[features]\n${features}\n\n[dependencies]\n${deps}\n`,
  );
  for (const [file, text] of Object.entries(c.lib)) writeFileSync(join(path, "src", file), text);
}

const version = (program, name) => releases[program.release].find((c) => c.name === name).version;

function build(name, program) {
  const dir = mkdtempSync(join(tmpdir(), "burn-e0599-"));
  try {
    const crates = releases[program.release];
    for (const c of crates) writeCrate(dir, c, crates);
    const user = join(dir, "user");
    mkdirSync(join(user, "src"), { recursive: true });
    const features = JSON.stringify(program.features);
    writeFileSync(
      join(user, "Cargo.toml"),
      `[package]\nname = "user"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${program.key ? `${program.key} = { package = "burn",` : "burn = {"} path = "../burn", default-features = false, features = ${features} }\n${program.extra ?? ""}`,
    );
    writeFileSync(join(user, "src/main.rs"), program.main);
    for (const color of ["never", "always"]) {
      let log;
      try {
        execFileSync("cargo", ["build", "--offline", `--color=${color}`], {
          cwd: user,
          stdio: "pipe",
          env: { ...process.env, CARGO_TARGET_DIR: join(dir, "target") },
        });
        throw new Error(`${name}: the build succeeded`);
      } catch (e) {
        if (!e.stderr) throw e;
        log = e.stderr.toString();
      }
      const shown = log
        .split("\n")
        .filter((l) => !/Locking|Adding|Compiling (?:burn|tokio)/.test(l))
        .join("\n")
        .replaceAll(`${dir}/user`, "/home/dev/user")
        .replace(new RegExp(`${dir}/([a-z-]+)/`, "g"), (_m, c) => `${REGISTRY}/${c}-${version(program, c)}/`);
      writeFileSync(join(out, `${name}${color === "always" ? "-color" : ""}.txt`), shown);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

mkdirSync(out, { recursive: true });
for (const [name, program] of Object.entries(programs)) build(name, program);
console.log(`wrote ${Object.keys(programs).length * 2} logs to fixtures/compile/rustc-1.95/`);
