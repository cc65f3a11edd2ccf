import { describe, expect, it } from "@jest/globals";
import { loadCatalog } from "../../src/panics/catalog.js";
import { detect } from "../../src/panics/detect.js";
import { parseLocation } from "../../src/panics/location.js";
import { fixture, issueCases, issueFiles } from "../helpers/fixtures.js";

const STUB = "not implemented: Requires `autodiff` feature";
const REG =
  "/home/a/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9";

describe("detect: fixture issues", () => {
  it("lists every fixture in cases.yml", () => {
    expect(
      issueCases()
        .map(([f]) => f)
        .sort(),
    ).toEqual(issueFiles().sort());
  });
  it.each(issueCases())("%s", (file, expected) => {
    const findings = detect(fixture(`issues/${file}`));
    if (expected.finding === null) expect(findings).toEqual([]);
    else expect(findings.map((f) => f.id)).toContain(expected.finding);
  });
  it("has at least as many hard negatives as positives", () => {
    const cases = issueCases();
    const neg = cases.filter(([, c]) => c.finding === null).length;
    expect(neg).toBeGreaterThanOrEqual(cases.length - neg - 3);
  });
});

describe("detect: paste forms", () => {
  it("reads the modern header with a thread id", () => {
    const [f] = detect(`thread 'main' (1234) panicked at ${REG}:\n${STUB}\n`);
    expect(f).toMatchObject({ id: "dispatch-autodiff-stub", printed: STUB });
    expect(f!.location).toMatchObject({
      origin: "registry",
      crate: "burn-dispatch",
      version: "0.22.0-pre.2",
      line: 824,
      column: 9,
      repoPath: "crates/burn-dispatch/src/backend.rs",
    });
  });
  it("reads the old `panicked at 'msg', file` form", () => {
    const [f] = detect(`thread 'main' panicked at '${STUB}', ${REG}\n`);
    expect(f?.location?.version).toBe("0.22.0-pre.2");
  });
  it("reads registry mirrors other than crates.io", () => {
    const [f] = detect(
      `panicked at /srv/cargo/registry/src/mirror.corp.example-0123456789abcdef/burn-dispatch-0.22.0-pre.1/src/backend.rs:826:9:\n${STUB}`,
    );
    expect(f?.location).toMatchObject({ origin: "registry", version: "0.22.0-pre.1" });
  });
  it("reads git checkouts on Windows with backslashes", () => {
    const [f] = detect(
      `panicked at C:\\Users\\bob\\.cargo\\git\\checkouts\\burn-178c6afe5ea8e2b1\\d16f7ba\\crates\\burn-dispatch\\src\\ops\\qtensor.rs:41:21:\nautodiff context requires the \`autodiff\` feature`,
    );
    expect(f).toMatchObject({ id: "dispatch-qtensor-autodiff-context" });
    expect(f!.location).toMatchObject({
      origin: "git",
      commit: "d16f7ba",
      repoPath: "crates/burn-dispatch/src/ops/qtensor.rs",
      line: 41,
    });
  });
  it("reads a Windows registry path with a space in the user name", () => {
    const [f] = detect(
      `thread 'main' (7) panicked at C:\\Users\\Bob Smith\\.cargo\\registry\\src\\index.crates.io-1949cf8c6b5b557f\\burn-dispatch-0.22.0-pre.1\\src\\backend.rs:826:9:\n${STUB}`,
    );
    expect(f?.location).toMatchObject({
      origin: "registry",
      version: "0.22.0-pre.1",
      line: 826,
      path: "C:/Users/Bob Smith/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.1/src/backend.rs",
    });
  });
  it("reads a local checkout", () => {
    expect(
      detect(`panicked at /home/dev/src/burn/crates/burn-dispatch/src/backend.rs:849:9:\n${STUB}`)[0]!.location,
    ).toMatchObject({ origin: "local", version: null });
  });
  it("strips ANSI colours and decodes HTML entities", () => {
    expect(detect(`\u001b[31mnot implemented: Requires &#96;autodiff&#96; feature\u001b[0m`)).toHaveLength(1);
  });
  it("joins a message wrapped across lines and inside a quote", () => {
    expect(detect(`> not implemented: Requires \`autodiff\`\n> feature`)).toHaveLength(1);
  });
  it("finds the message in an experiment.log line", () => {
    const [f] = detect(`2026-10-02 ERROR burn_train::learner: PANIC => panicked at ${REG}:\n${STUB}`);
    expect(f?.location?.line).toBe(824);
  });
  it("reports a panic printed twice once", () => {
    const block = `thread 'main' panicked at ${REG}:\n${STUB}\n`;
    expect(detect(block + block)).toHaveLength(1);
  });
  it("fills format placeholders", () => {
    expect(detect("Autodiff float tensor is on the wrong backend (expected Wgpu).")[0]?.id).toBe(
      "dispatch-autodiff-wrong-backend",
    );
  });
  it("matches a message copied from rendered Markdown without backticks", () => {
    expect(detect("not implemented: Requires autodiff feature")[0]?.id).toBe("dispatch-autodiff-stub");
  });
});

describe("detect: near misses stay silent", () => {
  it.each([
    [
      "rustc's autodiff feature gate",
      "error[E0658]: use of unstable library feature `autodiff`\n#![feature(autodiff)]",
    ],
    ["a different burn message", "thread 'main' panicked at src/x.rs:1:1:\nAutodiff backend mismatch"],
    ["another crate's stub", `panicked at /r/src/index.crates.io-1/candle-core-0.8.0/src/lib.rs:3:3:\n${STUB}`],
    ["the user's own stub", `panicked at src/plugins/mod.rs:42:9:\n${STUB}`],
    ["a misspelling", "not implemented: Requires `autodif` feature"],
    ["half a message", "Requires `autodiff`"],
  ])("%s", (_name, text) => {
    expect(detect(text)).toEqual([]);
  });
});

describe("catalog", () => {
  it("knows every family message with at least one site or a marked prefix", () => {
    const entries = loadCatalog().entries;
    expect(entries.map((e) => e.id)).toEqual(
      expect.arrayContaining([
        "dispatch-autodiff-stub",
        "dispatch-qtensor-autodiff-context",
        "flex-max-pool3d-backward-index-dtype",
      ]),
    );
    for (const e of entries) expect(e.sites.length > 0 || e.match === "prefix").toBe(true);
  });
  it("puts the stub at the lines burn-data gives per tag", () => {
    const stub = loadCatalog().entries.find((e) => e.id === "dispatch-autodiff-stub")!;
    const first = (ref: string) => Math.min(...stub.sites.filter((s) => s.ref === ref).map((s) => s.line));
    expect([first("v0.22.0-pre.1"), first("v0.22.0-pre.2"), first("HEAD")]).toEqual([826, 824, 849]);
    expect(stub.sites.every((s) => s.cfg === '#[cfg(not(feature = "autodiff"))]')).toBe(true);
  });
  it("detects every catalog message as its own entry", () => {
    for (const e of loadCatalog().entries) {
      const sample = e.message.replace(/\{[^}]*\}/g, "X");
      expect(detect(`panicked at /x/crates/${e.crate}/src/a.rs:1:1:\n${sample}`).map((f) => f.id)).toContain(e.id);
    }
  });
});

describe("parseLocation", () => {
  it("returns null without a location", () => {
    expect(parseLocation("no path here")).toBeNull();
  });
  it("keeps an unknown origin for bare paths", () => {
    expect(parseLocation("src/main.rs:3:4")).toMatchObject({ origin: "unknown", crate: null, line: 3 });
  });
});
