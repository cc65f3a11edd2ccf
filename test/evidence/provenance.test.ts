// One build, one release: every sentence of an answer that names the release it judged (the
// permalinks, "Verified on", the footer) names the same one, and the footer never says a version
// was assumed for want of one when the text names one. Over the issue fixtures and generated texts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { analyze } from "../../src/answer/analyze.js";
import { gatherEvidence } from "../../src/evidence/index.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { root } from "../helpers/fixtures.js";

/** The releases a comment says it judged: link refs, "Verified on", and the footer's. */
function releasesJudged(body: string): string[] {
  const links = [...body.matchAll(/\/blob\/(?:v(\d[^/#)]*)|([0-9a-f]{7,40}))\//g)].map((m) => m[1] ?? m[2]!);
  const verified = [...body.matchAll(/Verified on (?:burn|the feature graph of burn's main branch at) `([^`]+)`/g)].map(
    (m) => m[1]!,
  );
  const footer = [...body.matchAll(/<sub>(?:Assumed )?burn(?:'s main branch at)? `([^`]+)`/g)].map((m) => m[1]!);
  // A commit is one, however long its hash is written.
  const short = (r: string) => (/^[0-9a-f]{8,40}$/.test(r) ? r.slice(0, 7) : r);
  return [...new Set([...links, ...verified, ...footer].map(short))];
}

const NOTHING_NAMED = "nothing in the issue names a version";

function check(text: string): void {
  const body = renderIssueComment(analyze({ text }));
  if (!body) return;
  expect([text, releasesJudged(body)]).toEqual([text, releasesJudged(body).slice(0, 1)]);
  const seen = gatherEvidence(text).versions;
  const named = seen.path ?? seen.lock ?? seen.prose;
  if (named) expect([text, body.includes(NOTHING_NAMED)]).toEqual([text, false]);
}

describe("a version the issue names that predates the message", () => {
  const panic = "```\nthread 'main' panicked at 'not implemented: Requires `autodiff` feature'\n```\n";
  const comment = (text: string) => renderIssueComment(analyze({ text }))!;

  it("named in prose: judged at the newest release with the message, and said so (not 'assumed')", () => {
    const body = comment(`We're on burn 0.19.1.\n\n${panic}`);
    expect(body).toContain("burn `0.19.1` does not have this message");
    expect(body).toContain("<sub>burn `0.22.0-pre.2` (the newest release with this message)");
  });

  it("a backtrace from burn-dispatch 0.22 next to a manifest pinning 0.20.1: no chain from 0.22's graph is said of 0.20.1", () => {
    const trace =
      "```\nthread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n```\n";
    const toml =
      '```toml\n[dependencies]\nburn = { version = "0.20.1", features = ["wgpu"] }\nyolo-burn = "0.3"\n```\n';
    const body = comment(`${trace}\n${toml}`);
    expect(body).not.toContain("This manifest does turn");
    expect(body).not.toContain("burn/optim");
    expect(body).toContain("burn `0.20.1`, the release your Cargo.toml selects, does not have this message");
    expect(body).toContain("<sub>burn `0.22.0-pre.2` (from the crate path in your backtrace)");
  });

  it("selected by the Cargo.toml shown: that manifest did not build the panicking code, and is not edited", () => {
    const toml =
      '```toml\n[dependencies]\nburn = { version = "0.21.0", default-features = false, features = ["std"] }\n```\n';
    const body = comment(`${panic}\n${toml}`);
    expect(body).toContain("burn `0.21.0`, the release your Cargo.toml selects, does not have this message");
    expect(body).toContain("So I show no edit of this Cargo.toml");
    expect(body).not.toContain("**Fix**");
    expect(body).not.toContain("0.21.0`'s feature graph");
  });
});

describe("where the release came from, said once", () => {
  const comment = (text: string) => renderIssueComment(analyze({ text }))!;

  it("a requirement is said with what it resolves to when that is not what it names", () => {
    const panic = "```\nthread 'main' panicked at 'not implemented: Requires `autodiff` feature'\n```\n";
    const toml = (req: string) =>
      `\`\`\`toml\n[dependencies]\nburn = { version = "${req}", default-features = false, features = ["std"] }\n\`\`\`\n`;
    expect(comment(`${panic}\n${toml("0.22.0-pre.1")}`)).toContain(
      "<sub>burn `0.22.0-pre.2` (your Cargo.toml's `0.22.0-pre.1` resolves to it, the newest release the requirement admits in the bundled data)",
    );
    expect(comment(`${panic}\n${toml("=0.22.0-pre.2")}`)).toContain(
      "<sub>burn `0.22.0-pre.2` (from your Cargo.toml's version requirement)",
    );
  });

  it("an assumed release is said in one line, not again in the footer", () => {
    const log = readFileSync(join(root, "fixtures/evidence/rustc-1.95-e0432-train.txt"), "utf8").replace(
      /burn-[0-9][^/]*\//g,
      "burn/",
    );
    const body = comment(`It does not build:\n\n\`\`\`\n${log}\n\`\`\`\n`);
    expect(body.match(/assumed/gi)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(body).not.toContain("<sub> ");
  });
});

const issues = readdirSync(join(root, "fixtures/issues")).filter((f) => f.endsWith(".md"));

describe("one release per answer", () => {
  it.each(issues)("%s", (name) => check(readFileSync(join(root, "fixtures/issues", name), "utf8")));

  const PANICS = [
    "thread 'main' panicked at crates/burn-dispatch/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature",
    "thread 'main' panicked at 'not implemented: Requires `autodiff` feature'",
    // A line only main's snapshot has.
    "thread 'main' panicked at crates/burn-dispatch/src/backend.rs:849:9:\nnot implemented: Requires `autodiff` feature",
    "thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature",
  ];
  const RELEASES = ["0.13.2", "0.16.0", "0.19.1", "0.20.1", "0.21.0", "0.22.0-pre.2"];
  const manifest = (dep: string) => `\`\`\`toml\n[package]\nname = "app"\n\n[dependencies]\nburn = ${dep}\n\`\`\``;
  const arb = fc.record({
    panic: fc.constantFrom(...PANICS),
    prose: fc.option(fc.constantFrom(...RELEASES.map((v) => `We're on burn ${v}.`))),
    dep: fc.option(
      fc.constantFrom(
        ...RELEASES.map((v) => `{ version = "${v}", default-features = false, features = ["std", "wgpu"] }`),
        '{ path = "../burn/crates/burn", default-features = false, features = ["std"] }',
        '{ git = "https://github.com/tracel-ai/burn", branch = "main", default-features = false, features = ["std"] }',
        '"0.20"',
      ),
    ),
  });

  const RUSTC = readdirSync(join(root, "fixtures/evidence"))
    .filter((f) => f.startsWith("rustc-") && f.endsWith(".txt"))
    .map((f) => readFileSync(join(root, "fixtures/evidence", f), "utf8"));

  it("generated build failures: rustc's errors with prose and manifests of several releases", () => {
    const build = fc.record({
      log: fc.constantFrom(...RUSTC),
      prose: arb.map((r) => r.prose),
      dep: arb.map((r) => r.dep),
    });
    fc.assert(
      fc.property(build, ({ log, prose, dep }) => {
        check([prose ?? "It does not build:", `\`\`\`\n${log}\n\`\`\``, dep ? manifest(dep) : ""].join("\n\n"));
      }),
      { numRuns: 100 },
    );
  });

  it("generated reports: prose, manifests and panics of several releases", () => {
    fc.assert(
      fc.property(arb, ({ panic, prose, dep }) => {
        const text = [prose ?? "It panics:", `\`\`\`\n${panic}\n\`\`\``, dep ? manifest(dep) : ""].join("\n\n");
        check(text);
      }),
      { numRuns: 150 },
    );
  });
});
