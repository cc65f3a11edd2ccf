// Benchmark inputs: realistic and adversarial bodies, and webhook streams.
import { fixtureText, HEAD_SHA, webhook } from "../test/support/scenario.js";

const LOG_LINE =
  "2026-10-02T09:14:11.482Z  INFO burn_train::learner::epoch: Epoch 3/10 - Iteration 812 - loss 0.4123 - accuracy 87.3%\n";

/** A 64 KiB issue body: a long training log with the panic and a manifest at the end. */
export function realistic64k(): string {
  const tail = fixtureText("issues/pos-registry-backtrace.md");
  return (
    LOG_LINE.repeat(Math.ceil((64 * 1024 - tail.length) / LOG_LINE.length)).slice(0, 64 * 1024 - tail.length) + tail
  );
}

/** 1 MiB built to hurt a backtracking regex or a quadratic scan. */
export function adversarial(kind: "near-misses" | "one-token" | "headers" | "braces" | "repeated-panics"): string {
  const size = 1024 * 1024;
  const unit = {
    "near-misses": "not implemented: Requires `autodiff` featur\n",
    "one-token": "a/",
    headers: "thread 'main' panicked at /x/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9: ",
    braces: "Autodiff float tensor is on the wrong backend (expected {{{{",
    "repeated-panics":
      "thread 'main' panicked at C:\\Users\\A B\\burn-dispatch-0.22.0-pre.2\\src\\backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n",
  }[kind];
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size) + (kind === "one-token" ? ".rs:1:1" : "");
}

let seq = 0;

const parsed = new Map<string, unknown>();
/**
 * A fixture webhook, read and parsed once, cloned per event: the streams measure the apps, not
 * the harness's disk reads (which cost more than burn-triage's decision on an unrelated issue).
 */
function webhookCopy(name: string): Payload {
  if (!parsed.has(name)) parsed.set(name, webhook(name));
  return structuredClone(parsed.get(name));
}

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are plain JSON
export type Payload = any;

export function nonMatchingIssue(): Payload {
  const p = webhookCopy("issues.opened.unrelated");
  p.issue.number = 10_000 + seq++;
  return p;
}

/** rustc's errors as burn's tracker sees them daily: about the user's own code and other crates. */
const RUSTC_OTHER = [
  "error[E0433]: failed to resolve: could not find `model` in `guide`",
  " --> src/main.rs:4:12",
  "  |",
  "4 | use guide::model::ModelConfig;",
  "  |            ^^^^^ could not find `model` in `guide`",
  "",
  "error[E0432]: unresolved import `cubecl::wgpu`",
  " --> src/kernel.rs:3:5",
  "  |",
  "3 | use cubecl::wgpu::WgpuRuntime;",
  "  |     ^^^^^^^^^^^^ no `wgpu` in the root",
  "",
  "error[E0412]: cannot find type `Tensr` in this scope",
  "",
].join("\n");

/** A non-matching issue whose body is a rustc log about other crates: still no API call. */
export function rustcOtherIssue(): Payload {
  const p = nonMatchingIssue();
  p.issue.body = `Build fails:\n\n\`\`\`\n${RUSTC_OTHER}\n\`\`\`\n`;
  return p;
}

/** 64 KiB of rustc errors, none about a gated burn path. */
export function rustcLog64k(): string {
  return RUSTC_OTHER.repeat(Math.ceil((64 * 1024) / RUSTC_OTHER.length)).slice(0, 64 * 1024);
}

/** A real `cargo build` log over crates with features off (scripts/rustc-other-crates-log.mjs), cut at an error. */
function otherCratesLog(bytes: number): string {
  const log = fixtureText("bench/rustc-other-crates.txt");
  const cut = log.lastIndexOf("\nerror", bytes);
  return log.slice(0, cut > 0 ? cut + 1 : bytes);
}

/** rustc's log about other crates, with their configured-out notes, at 48 or 64 KiB: still no API call. */
export function rustcNotesIssue(kib: 48 | 64): () => Payload {
  const body = `cargo build fails after updating my dependencies:\n\n\`\`\`\n${otherCratesLog(kib * 1024 - 200)}\`\`\`\n`;
  return () => {
    const p = nonMatchingIssue();
    p.issue.body = body;
    return p;
  };
}

const PROSE = [
  "I am trying to run the training loop from the examples on my own dataset, and after the first epoch the",
  "process stops with the error below. The same code worked last week, before I updated the lock file; the",
  "only other change is the new dataloader, which reads images from disk and resizes them on a worker pool.",
  "I checked that the dataset returns the right shapes and that the batcher stacks them along the first axis.",
  "Environment: Ubuntu 24.04, rustc 1.95.0, an RTX 4090 with driver 580, 64 GB of RAM. Happy to test a patch.",
  "",
].join("\n");
const CODE = [
  "```rust",
  "use serde::{Deserialize, Serialize};",
  "use tokio::sync::mpsc;",
  "",
  "#[derive(Debug, Clone, Serialize, Deserialize)]",
  "pub struct Sample { pub path: String, pub label: usize }",
  "",
  "pub async fn load(paths: Vec<String>, tx: mpsc::Sender<Sample>) -> anyhow::Result<()> {",
  "    for (label, path) in paths.into_iter().enumerate() {",
  "        let bytes = tokio::fs::read(&path).await?;",
  "        let image = image::load_from_memory(&bytes)?.resize(224, 224, image::imageops::FilterType::Triangle);",
  "        tx.send(Sample { path, label }).await?;",
  "        drop(image);",
  "    }",
  "    Ok(())",
  "}",
  "```",
  "",
].join("\n");
const RUNTIME_LOG = [
  "2026-11-30T10:12:01.114Z  INFO dataloader: worker 3 started (queue 64)",
  "2026-11-30T10:12:01.902Z  WARN image::codecs::png: ignoring unknown chunk eXIf in data/train/0412.png",
  "2026-11-30T10:12:02.377Z ERROR hyper_util::client::legacy: connection error: connection reset by peer",
  "",
].join("\n");

/**
 * Issues as users write them, 2 to 20 KiB: prose, a code block, and logs about other crates (a
 * runtime log, then a piece of rustc's log over tokio, serde and reqwest with features off).
 */
export function mixedIssue(): Payload {
  const kib = [2, 5, 10, 20][seq % 4]!;
  const rustc = otherCratesLog(kib * 512);
  const parts = [PROSE, CODE, "```\n", RUNTIME_LOG.repeat(Math.max(1, Math.round(kib / 4))), rustc, "```\n", PROSE];
  const p = nonMatchingIssue();
  p.issue.body = parts.join("\n").slice(0, kib * 1024);
  return p;
}

const BURN_PROSE = [
  "I'm training a small CNN with burn 0.20 on the wgpu backend and the loss goes to NaN after a few hundred",
  "steps. The same model on the ndarray backend trains fine. I enabled the `autodiff` and `wgpu` features in",
  "Cargo.toml, and I think the fusion feature is enabled by default. Is there a known issue with the wgpu",
  "backend and f16? I expected the loss to keep decreasing, as it does with the tch backend.",
  "",
].join("\n");
const BURN_RUSTC = [
  "error[E0308]: mismatched types",
  "  --> src/model.rs:42:18",
  "   |",
  "42 |     let x: Tensor<B, 4> = self.conv1.forward(input);",
  "   |            ------------   ^^^^^^^^^^^^^^^^^^^^^^^^ expected `Tensor<B, 4>`, found `Tensor<B, 3>`",
  "   |",
  "   = note: expected struct `burn::tensor::Tensor<_, 4>`",
  "              found struct `burn::tensor::Tensor<_, 3>`",
  "",
].join("\n");
const BURN_TRACE = [
  "thread 'main' panicked at src/train.rs:88:14:",
  'called `Result::unwrap()` on an `Err` value: Io(Os { code: 2, kind: NotFound, message: "No such file or directory" })',
  "stack backtrace:",
  "   0: rust_begin_unwind",
  "   1: core::panicking::panic_fmt",
  "   2: burn_train::learner::base::Learner<LC>::fit",
  "             at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/burn-train-0.20.1/src/learner/train_val.rs:190:28",
  "",
].join("\n");
const BURN_LOG =
  "2026-11-30T10:12:01.114Z  INFO burn_train::learner::epoch: Epoch 3/10 - Iteration 812 - loss 0.4123 - accuracy 87.3%\n";

/**
 * Issues on burn's own tracker that the bot leaves alone, 2 to 20 KiB: prose about backends and
 * features (every word of `No backend feature enabled.`), a rustc error in the user's own code, a
 * panic of theirs through burn's crates, and a training log. They pass the word screen.
 */
export function burnIssue(): Payload {
  const kib = [2, 5, 10, 20][seq % 4]!;
  const head = `${BURN_PROSE}\n\`\`\`\n${BURN_RUSTC}\`\`\`\n\n\`\`\`\n${BURN_TRACE}\`\`\`\n\n\`\`\`\n`;
  const p = nonMatchingIssue();
  p.issue.body =
    `${head}${BURN_LOG.repeat(Math.ceil((kib * 1024) / BURN_LOG.length))}`.slice(0, kib * 1024 - 4) + "```\n";
  return p;
}

export function matchingIssue(): Payload {
  const p = webhookCopy("issues.opened");
  p.issue.number = 20_000 + seq++;
  return p;
}

/** A matching issue on a release newer than the bundled data (0.22.1, in the fake index). */
export function newReleaseIssue(): Payload {
  const p = matchingIssue();
  p.issue.body = [
    "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.1/src/backend.rs:54:9:",
    "not implemented: Requires `autodiff` feature",
    "```toml",
    "[dependencies]",
    'burn = { version = "0.22.1", default-features = false, features = ["std", "wgpu"] }',
    "```",
  ].join("\n");
  return p;
}

export function prTouchingCargo(): Payload {
  const p = webhookCopy("pull_request.opened");
  p.pull_request.number = 12;
  p.pull_request.head.sha = HEAD_SHA;
  return p;
}

export function prNotTouchingCargo(): Payload {
  const p = webhookCopy("pull_request.opened");
  p.pull_request.number = 13;
  return p;
}

const PANIC =
  "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n";
const BODY_LIMIT = 65536;

function issueWith(body: string): Payload {
  const p = matchingIssue();
  p.issue.body = body.slice(0, BODY_LIMIT);
  return p;
}

/** `/explain-panic` in a comment at GitHub's size limit, over Markdown that once held the parser for seconds. */
function commandWith(rest: string): Payload {
  const p = webhookCopy("issue_comment.created");
  p.comment.body = `/explain-panic\n${rest}`.slice(0, BODY_LIMIT);
  return p;
}

function prWithHead(head: string): { payload: Payload; files: Record<string, string> } {
  return { payload: prTouchingCargo(), files: { [`${HEAD_SHA}:Cargo.toml`]: head } };
}

/** The panic next to a manifest that predates it and a lock in which a long chain of crates brings burn-dispatch. */
function lockChainIssue(n: number): string {
  const pkg = (name: string, version: string, deps: string[]) =>
    `[[package]]\nname = "${name}"\nversion = "${version}"\n${deps.length ? `dependencies = [\n${deps.map((d) => ` "${d}",\n`).join("")}]\n` : ""}`;
  const chain = Array.from({ length: n }, (_, i) => pkg(`c${i}`, "1.0.0", [i + 1 < n ? `c${i + 1}` : "burn-dispatch"]));
  const lock = [
    pkg("burn", "0.20.1", []),
    pkg("burn-dispatch", "0.22.0-pre.2", []),
    pkg("myapp", "0.1.0", ["burn", "c0"]),
    ...chain,
  ].join("\n");
  return `${PANIC}\n\`\`\`toml\n[package]\nname = "myapp"\n\n[dependencies]\nburn = "0.20.1"\nc0 = "1"\n\`\`\`\n\n\`\`\`\n${lock}\`\`\`\n`;
}

export interface StallCase {
  name: string;
  event: "issues" | "pull_request" | "issue_comment";
  payload: Payload;
  /** Files the fake repository serves for this case (on top of the scenario's). */
  files?: Record<string, string>;
}

/** The inputs that once stalled the event loop for seconds (issue 14), each at GitHub's size limits. */
export function stallCases(): StallCase[] {
  // A closed fence that fills the rest of the body: the extractor must look inside it.
  const fence = (line: string, info = "") => {
    const room = BODY_LIMIT - PANIC.length - info.length - 8;
    return issueWith(`${PANIC}\`\`\`${info}\n${`${line}\n`.repeat(Math.floor(room / (line.length + 1)))}\`\`\`\n`);
  };
  const config = `issues:\n${Array.from({ length: 30000 }, (_, i) => `  k${i}: ${i}`).join("\n")}\n`;
  const deps = `[package]\nname = "x"\nversion = "0.1.0"\n\n[dependencies]\n${Array.from({ length: 20000 }, (_, i) => `d${i} = "1"`).join("\n")}\nburn = "0.22.0-pre.2"\n`;
  const headers = `[workspace]\nmembers = ["m"]\n${"[workspace.dependencies]\n".repeat(20000)}`;
  return [
    { name: "64 KiB issue: panic + fence of empty lines", event: "issues", payload: fence("") },
    { name: "64 KiB issue: panic + fence of one-space lines", event: "issues", payload: fence(" ") },
    { name: "64 KiB issue: panic + diff fence of + lines", event: "issues", payload: fence("+", "diff") },
    {
      name: "issue with a 5,000-deep array in the burn entry",
      event: "issues",
      payload: issueWith(
        `${PANIC}\`\`\`toml\n[dependencies]\nburn = { version = "0.22.0-pre.2", features = ${"[".repeat(5000)}${"]".repeat(5000)} }\n\`\`\`\n`,
      ),
    },
    {
      name: "64 KiB issue: panic + unfenced `[dependencies]` / `burn = 1` pairs, each ended by prose",
      event: "issues",
      payload: issueWith(`${PANIC}${"[dependencies]\nburn = 1\nprose\n".repeat(2500)}`),
    },
    {
      name: "64 KiB issue: panic + an unfenced manifest whose features array stays open",
      event: "issues",
      payload: issueWith(
        `${PANIC}[dependencies]\nburn = { version = "0.22.0-pre.2", features = [\n${'  "wgpu",\n'.repeat(5500)}`,
      ),
    },
    {
      name: "64 KiB issue: rustc error headers, one after another",
      event: "issues",
      payload: issueWith("error[E0432]: unresolved import `burn::train`\n".repeat(1400)),
    },
    {
      name: "64 KiB issue: one rustc error with a 60 KiB source line",
      event: "issues",
      payload: issueWith(
        `error[E0433]: failed to resolve: could not find \`train\` in \`burn\`\n 1 | ${"burn::x".repeat(9000)}\n`,
      ),
    },
    {
      name: "config with 30,000 keys (388 KB)",
      event: "issues",
      payload: matchingIssue(),
      files: { ".github/burn-triage.yml": config },
    },
    { name: "PR head Cargo.toml with 20,000 dependencies", event: "pull_request", ...prWithHead(deps) },
    {
      name: "64 KiB issue: panic, a manifest on burn 0.20.1 and a Cargo.lock whose chain to burn-dispatch is 800 packages long",
      event: "issues",
      payload: issueWith(lockChainIssue(800)),
    },
    {
      name: "64 KiB issue: the message alone, in 8 paragraphs of `*a` and a quote 15,000 deep",
      event: "issues",
      payload: issueWith(
        `${Array.from({ length: 8 }, () => `No backend feature enabled. ${"*a".repeat(3000)}`).join("\n\n")}\n\n${"> ".repeat(6000)}x\n`,
      ),
    },
    {
      name: "64 KiB /explain-panic comment: a quote 15,000 deep, then 15,000 lazy lines",
      event: "issue_comment",
      payload: commandWith(`${"> ".repeat(15000)}x\n${"y\n".repeat(15000)}`),
    },
    {
      name: "64 KiB /explain-panic comment: a list 15,000 deep, then indented lines",
      event: "issue_comment",
      payload: commandWith(`${"- ".repeat(15000)}x\n${"  y\n".repeat(8000)}`),
    },
    {
      name: "64 KiB /explain-panic comment: `[a](` 15,000 times",
      event: "issue_comment",
      payload: commandWith("[a](".repeat(15000)),
    },
    {
      name: "64 KiB /explain-panic comment: `*a` 30,000 times",
      event: "issue_comment",
      payload: commandWith("*a".repeat(30000)),
    },
    {
      name: "PR head root with 20,000 [workspace.dependencies] headers",
      event: "pull_request",
      ...prWithHead(headers),
    },
  ];
}
