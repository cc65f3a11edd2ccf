// Benchmark inputs: realistic and adversarial bodies, and webhook streams.
import { fixtureText, HEAD_SHA, webhook } from "../dev/scenario.js";

const LOG_LINE = "2026-10-02T09:14:11.482Z  INFO burn_train::learner::epoch: Epoch 3/10 - Iteration 812 - loss 0.4123 - accuracy 87.3%\n";

/** A 64 KiB issue body: a long training log with the panic and a manifest at the end. */
export function realistic64k(): string {
  const tail = fixtureText("issues/pos-registry-backtrace.md");
  return LOG_LINE.repeat(Math.ceil((64 * 1024 - tail.length) / LOG_LINE.length)).slice(0, 64 * 1024 - tail.length) + tail;
}

/** 1 MiB built to hurt a backtracking regex or a quadratic scan. */
export function adversarial(kind: "near-misses" | "one-token" | "headers" | "braces" | "repeated-panics"): string {
  const size = 1024 * 1024;
  const unit = {
    "near-misses": "not implemented: Requires `autodiff` featur\n",
    "one-token": "a/",
    headers: "thread 'main' panicked at /x/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9: ",
    braces: "Autodiff float tensor is on the wrong backend (expected {{{{",
    "repeated-panics": "thread 'main' panicked at C:\\Users\\A B\\burn-dispatch-0.22.0-pre.2\\src\\backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n",
  }[kind];
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size) + (kind === "one-token" ? ".rs:1:1" : "");
}

let seq = 0;

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are plain JSON
export type Payload = any;

export function nonMatchingIssue(): Payload {
  const p = webhook("issues.opened.unrelated");
  p.issue.number = 10_000 + seq++;
  return p;
}

export function matchingIssue(): Payload {
  const p = webhook("issues.opened");
  p.issue.number = 20_000 + seq++;
  return p;
}

export function prTouchingCargo(): Payload {
  const p = webhook("pull_request.opened");
  p.pull_request.number = 12;
  p.pull_request.head.sha = HEAD_SHA;
  return p;
}

export function prNotTouchingCargo(): Payload {
  const p = webhook("pull_request.opened");
  p.pull_request.number = 13;
  return p;
}
