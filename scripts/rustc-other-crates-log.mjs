// Writes fixtures/bench/rustc-other-crates.txt: a real `cargo build` log (the local cargo and
// rustc) of a program whose dependencies have features off, the way a large share of rustc logs
// on burn's tracker look: errors about tokio, serde and reqwest items, each with rustc's own
// "found an item that was configured out … gated behind the `rt` feature" note, E0599s on gated
// methods, and warnings. The stub crates keep those crates' names, module paths and feature
// names; bodies are empty. The bench cuts it to 48 and 64 KiB. Run: node scripts/rustc-other-crates-log.mjs
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const out = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/bench/rustc-other-crates.txt");
const REGISTRY = "/home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f";

const crates = {
  tokio: {
    version: "1.48.0",
    features: ["rt", "rt-multi-thread", "macros", "fs", "net", "time", "sync", "io-util"],
    lib: `#[cfg(feature = "rt")]
pub mod runtime {
    pub struct Runtime;
    pub struct Builder;
    impl Builder {
        pub fn new_current_thread() -> Builder { Builder }
        #[cfg(feature = "rt-multi-thread")]
        pub fn new_multi_thread() -> Builder { Builder }
        pub fn enable_all(&mut self) -> &mut Builder { self }
    }
}
#[cfg(feature = "fs")]
pub mod fs { pub async fn read_to_string(_p: &str) -> std::io::Result<String> { Ok(String::new()) } }
#[cfg(feature = "net")]
pub mod net { pub struct TcpListener; pub struct TcpStream; }
#[cfg(feature = "time")]
pub mod time { pub async fn sleep(_d: std::time::Duration) {} pub struct Instant; }
#[cfg(feature = "sync")]
pub mod sync { pub struct Mutex<T>(T); pub mod mpsc { pub fn channel<T>(_n: usize) {} } }
#[cfg(feature = "io-util")]
pub mod io { pub trait AsyncReadExt {} pub trait AsyncWriteExt {} }
pub mod task { #[cfg(feature = "rt")] pub fn spawn<T>(_t: T) {} }
`,
  },
  serde: {
    version: "1.0.228",
    features: ["derive", "std", "rc"],
    lib: `pub trait Serialize {}
pub trait Deserialize<'de> {}
#[cfg(feature = "derive")]
pub mod derive_stub { pub struct Marker; }
#[cfg(feature = "rc")]
pub mod rc { pub struct Shared; }
`,
  },
  reqwest: {
    version: "0.12.24",
    features: ["blocking", "json", "cookies", "stream"],
    lib: `pub struct Client;
pub struct Response;
impl Response {
    #[cfg(feature = "json")]
    pub async fn json<T>(self) -> Result<T, Error> { unimplemented!() }
    pub async fn text(self) -> Result<String, Error> { Ok(String::new()) }
    #[cfg(feature = "stream")]
    pub fn bytes_stream(self) {}
}
pub struct Error;
#[cfg(feature = "blocking")]
pub mod blocking { pub struct Client; pub fn get(_u: &str) {} }
#[cfg(feature = "cookies")]
pub mod cookie { pub struct Jar; }
`,
  },
};

/** One module of the user's program: what a real project would call, with every feature off. */
const module = (i) => `use tokio::runtime::Builder;
use tokio::sync::Mutex;
use tokio::net::TcpListener;
use reqwest::blocking::Client as BlockingClient;
use reqwest::cookie::Jar;
use serde::rc::Shared;

pub async fn job_${i}(resp: reqwest::Response) -> Result<(), reqwest::Error> {
    let _rt = Builder::new_multi_thread().enable_all();
    let _m: Mutex<u32>;
    let _l: TcpListener;
    let _c: BlockingClient;
    let _j: Jar;
    let _s: Shared;
    tokio::time::sleep(std::time::Duration::from_millis(${i})).await;
    let _body = tokio::fs::read_to_string("config_${i}.toml").await;
    let _v: Vec<u32> = resp.json().await?;
    Ok(())
}
`;

const dir = mkdtempSync(join(tmpdir(), "rustc-other-"));
try {
  for (const [name, c] of Object.entries(crates)) {
    mkdirSync(join(dir, name, "src"), { recursive: true });
    const features = c.features.map((f) => `${JSON.stringify(f)} = []`).join("\n");
    writeFileSync(
      join(dir, name, "Cargo.toml"),
      `[package]\nname = "${name}"\nversion = "${c.version}"\nedition = "2021"\n\n[features]\n${features}\n`,
    );
    writeFileSync(join(dir, name, "src/lib.rs"), c.lib);
  }
  const user = join(dir, "service");
  mkdirSync(join(user, "src"), { recursive: true });
  const deps = Object.keys(crates)
    .map((n) => `${n} = { path = "../${n}", default-features = false }`)
    .join("\n");
  writeFileSync(
    join(user, "Cargo.toml"),
    `[package]\nname = "service"\nversion = "0.3.1"\nedition = "2021"\n\n[dependencies]\n${deps}\n`,
  );
  const n = 24;
  for (let i = 0; i < n; i++) writeFileSync(join(user, "src", `job_${i}.rs`), module(i));
  writeFileSync(
    join(user, "src/main.rs"),
    `${Array.from({ length: n }, (_, i) => `mod job_${i};`).join("\n")}\n\nfn main() {\n    let unused = 1;\n}\n`,
  );
  let log = "";
  try {
    execFileSync("cargo", ["build", "--offline"], {
      cwd: user,
      stdio: "pipe",
      env: { ...process.env, CARGO_TARGET_DIR: join(dir, "target") },
    });
  } catch (e) {
    if (!e.stderr) throw e;
    log = e.stderr.toString();
  }
  if (!log.includes("configured out")) throw new Error("rustc printed no configured-out note");
  const shown = log
    .split("\n")
    .filter((l) => !/^\s*(?:Locking|Adding|Compiling (?:tokio|serde|reqwest))/.test(l))
    .join("\n")
    .replaceAll(`${dir}/service`, "/home/dev/service")
    .replace(new RegExp(`${dir}/([a-z-]+)/`, "g"), (_m, c) => `${REGISTRY}/${c}-${crates[c].version}/`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, shown);
  console.log(`wrote ${shown.length} bytes to fixtures/bench/rustc-other-crates.txt`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
