import { describe, expect, it } from "@jest/globals";
import { analyze, sourceReads } from "../../src/answer/analyze.js";
import { sourceKey } from "../../src/answer/burn-files.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { anchorOf, MAX_SOURCE, mayHold, scanSource } from "../../src/panics/source-scan.js";
import { analyzePanic } from "../helpers/analysis.js";
import { fixture } from "../helpers/fixtures.js";

const STUB = "Requires `autodiff` feature";
const file = fixture("burn-src/v0.22.1/crates/burn-dispatch/src/backend.rs");

describe("scanSource", () => {
  it("finds each stub with its macro, item and the impl's cfg; comments are not sites", () => {
    const sites = scanSource(file, STUB);
    expect(sites.map((s) => s.line)).toEqual([54, 58, 63]);
    expect(sites[0]).toEqual({
      line: 54,
      column: 9,
      macro: "unimplemented!",
      item: "impl AutodiffBackend for Dispatch > fn backward",
      cfg: '#[cfg(not(feature = "autodiff"))]',
    });
    expect(sites[2]!.item).toBe("impl AutodiffBackend for Dispatch > fn inner");
  });

  it("takes the macro's line for a message on the next line, and a match arm's cfg", () => {
    const src = [
      "impl Default for DispatchDevice {",
      "    fn default() -> Self {",
      '        match std::env::var("BURN_DEVICE").as_deref() {',
      '            #[cfg(feature = "std")]',
      '            Ok("cuda") => panic!(',
      "                \"BURN_DEVICE=cuda requested, but the 'cuda' feature is not enabled.\"",
      "            ),",
      '            _ => unreachable!("No backend feature enabled."),',
      "        }",
      "    }",
      "}",
    ].join("\n");
    expect(scanSource(src, "BURN_DEVICE=cuda requested")).toEqual([
      {
        line: 5,
        column: 27,
        macro: "panic!",
        item: "impl Default for DispatchDevice > fn default",
        cfg: '#[cfg(feature = "std")]',
      },
    ]);
    expect(scanSource(src, "No backend feature enabled.")).toEqual([
      { line: 8, column: 18, macro: "unreachable!", item: "impl Default for DispatchDevice > fn default", cfg: null },
    ]);
  });

  it("reads raw strings, escapes and line continuations; ignores block comments and char literals", () => {
    const src =
      'fn a() { let q = \'"\'; /* panic!("Requires `autodiff` feature") */ panic!(r#"Requires `autodiff` feature"#) }\nfn b() { panic!("Requires \\\n        `autodiff` feature") }\n';
    expect(scanSource(src, STUB).map((s) => [s.line, s.item])).toEqual([
      [1, "fn a"],
      [2, "fn b"],
    ]);
  });

  it("is linear: a megabyte of unclosed blocks and strings is scanned in bounded time", () => {
    const hostile = `${"{(".repeat(200_000)}"${"x".repeat(300_000)}`;
    const t = performance.now();
    expect(scanSource(hostile, STUB)).toEqual([]);
    expect(hostile.length).toBeGreaterThan(MAX_SOURCE / 2);
    // Not a timing assert on speed: a quadratic pass over 700 KB would take minutes, not seconds.
    expect(performance.now() - t).toBeLessThan(20_000);
  });
});

describe("a release newer than the catalog", () => {
  const text =
    "thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.1/src/backend.rs:54:9:\nnot implemented: Requires `autodiff` feature\n";

  it("asks to read the printed file at that tag, and nothing for a release the data has", () => {
    expect(sourceReads(analyze({ text }))).toEqual([{ ref: "v0.22.1", path: "crates/burn-dispatch/src/backend.rs" }]);
    const known = text.replaceAll("0.22.1", "0.22.0-pre.2").replace(":54:9", ":824:9");
    expect(sourceReads(analyze({ text: known }))).toEqual([]);
    expect(sourceReads(analyze({ text: "thread 'main' panicked at src/main.rs:1:1:\nall good" }))).toEqual([]);
  });

  it("without the file: links the printed line at the tag, unverified", () => {
    const a = analyzePanic({ text });
    expect(a.link).toMatchObject({ ref: "v0.22.1", line: 54, verified: false, from: "catalog" });
    expect(renderIssueComment(a)).toContain("the link follows your backtrace's line");
  });

  it("with the file read at the tag: the line, its item and gate come from the source", () => {
    const a = analyzePanic({ text, sources: { [sourceKey("v0.22.1", "crates/burn-dispatch/src/backend.rs")]: file } });
    expect(a.link).toMatchObject({
      ref: "v0.22.1",
      line: 54,
      verified: true,
      from: "source",
      item: "impl AutodiffBackend for Dispatch > fn backward",
      cfg: '#[cfg(not(feature = "autodiff"))]',
    });
    const body = renderIssueComment(a)!;
    expect(body).toContain("(https://github.com/tracel-ai/burn/blob/v0.22.1/crates/burn-dispatch/src/backend.rs#L54)");
    expect(body).toContain("read from burn's source at `v0.22.1`");
    // The line read at the tag is `backward`'s: that is the method that reached it.
    expect(a.firstCall).toMatchObject({ method: "backward", from: "line", ref: "v0.22.1" });
  });

  it("without a printed location: the stub block of the file read at the tag", () => {
    const lock =
      'not implemented: Requires `autodiff` feature\n\nCargo.lock:\n[[package]]\nname = "burn-dispatch"\nversion = "0.22.1"\n';
    expect(sourceReads(analyze({ text: lock }))).toEqual([
      { ref: "v0.22.1", path: "crates/burn-dispatch/src/backend.rs" },
    ]);
    const a = analyzePanic({
      text: lock,
      sources: { [sourceKey("v0.22.1", "crates/burn-dispatch/src/backend.rs")]: file },
    });
    expect(a.link).toMatchObject({
      ref: "v0.22.1",
      line: 54,
      lineEnd: 63,
      methods: ["backward", "grad", "inner"],
      from: "source",
    });
  });
});

describe("a literal is unescaped only when it may hold the message", () => {
  const STUB = "Requires `autodiff` feature";
  const anchor = anchorOf(STUB);

  it('skips a literal of escapes alone without unescaping it (a 1 MiB line of `"\\`)', () => {
    expect(anchor).toBe("`autodiff`");
    expect(mayHold('\\"'.repeat(4096), anchor)).toBe(false);
    expect(mayHold(`${'\\"'.repeat(4096)}\\\n`, anchor)).toBe(false);
    // Just under the scan's 1 MiB cap, so the site after the line is read.
    const line = `const A: &str = "${'\\"'.repeat(500 * 1024)}\\\n";\nfn backward() { unimplemented!("${STUB}") }\n`;
    expect(scanSource(line, STUB)).toHaveLength(1);
  });

  it("still finds the message through every escape that can write it", () => {
    const found = (literal: string) => scanSource(`fn f() { panic!(${literal}) }`, STUB).length;
    // A line continuation inside the anchor, an escaped character in it, and escaped quotes beside it.
    expect(found('"Requires `auto\\\n      diff` feature"')).toBe(1);
    expect(found('"Requires `autodi\\u{66}f` feature"')).toBe(1);
    expect(found('"\\"Requires `autodiff` feature\\""')).toBe(1);
    expect(found('"Requires `autodiff`\\n feature"')).toBe(0);
  });
});
