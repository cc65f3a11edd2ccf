import { describe, expect, it } from "@jest/globals";
import { load } from "js-yaml";
import { analyze } from "../../src/answer/analyze.js";
import { detectCompile } from "../../src/compile/detect.js";
import { memberSite } from "../../src/compile/impl-items.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { analyzeCompile } from "../helpers/analysis.js";
import { fixture } from "../helpers/fixtures.js";

interface Case {
  name: string;
  log: string;
  manifest: string;
  paths: string[];
  add: string[];
  link: string;
  must: string[];
  mustNot: string[];
}
const data = load(fixture("compile/e0599.yml")) as { cases: Case[]; silent: Array<Omit<Case, "paths">> };

const log = (name: string, color = false) => fixture(`compile/rustc-1.95/${name}${color ? "-color" : ""}.txt`);
/** GitHub Actions' log view: every line behind a timestamp. */
const ciLog = (text: string) =>
  `${text
    .trimEnd()
    .split("\n")
    .map((l, i) => `2026-11-30T10:${String(i % 60).padStart(2, "0")}:01.1234567Z ${l}`)
    .join("\n")}\n`;
const styles: Array<[string, (c: { log: string }) => string]> = [
  ["plain", (c) => log(c.log)],
  ["coloured", (c) => log(c.log, true)],
  ["in a CI log", (c) => ciLog(log(c.log))],
];
const issue = (rustc: string, manifest: string) =>
  `Building fails:\n\n\`\`\`\n${rustc}\`\`\`\n\nMy Cargo.toml:\n\n\`\`\`toml\n${manifest}\`\`\`\n`;

describe("E0599: methods and associated items behind a feature", () => {
  const rows = data.cases.flatMap((c) => styles.map(([style, text]) => [`${c.name}, ${style}`, c, text(c)] as const));
  it.each(rows)("%s", (_name, c, rustc) => {
    const text = issue(rustc, c.manifest);
    const compile = analyzeCompile({ text })!;
    expect(compile.items.map((i) => i.path)).toEqual(c.paths);
    const plan = compile.manifest?.plan;
    expect(plan?.kind).toBe("fixed");
    if (plan?.kind === "fixed") expect(plan.change.added).toEqual(c.add);
    const body = renderIssueComment(analyze({ text }))!;
    expect(body).toContain(`(https://github.com/tracel-ai/burn/blob/${c.link})`);
    for (const s of c.must) expect(body).toContain(s);
    for (const s of c.mustNot) expect(body).not.toContain(s);
  });

  it.each(data.silent.flatMap((c) => styles.map(([style, text]) => [`${c.name}, ${style}`, c, text(c)] as const)))(
    "silent: %s",
    (_name, c, rustc) => {
      expect(renderIssueComment(analyze({ text: issue(rustc, c.manifest) }))).toBeNull();
    },
  );

  it("reads every shape rustc prints: method, associated function, enum item; full and trimmed types", () => {
    const found = data.cases.flatMap((c) => detectCompile(log(c.log)));
    expect(found.map((f) => [f.code, f.path])).toEqual([
      ["E0599", "burn::tensor::Device::autodiff"],
      ["E0599", "burn::tensor::Device::cuda"],
      ["E0599", "burn::Tensor::backward"],
      ["E0599", "burn::Tensor::grad"],
      ["E0599", "DispatchDevice::autodiff"],
      ["E0599", "PathFilter::with_regex"],
    ]);
  });

  it("another crate's type is not looked up; an item rustc says exists is not a missing feature", () => {
    expect(detectCompile(log("e0599-other-crate-0.22"))).toEqual([]);
    expect(detectCompile(log("e0599-removed-api-0.21"))).toEqual([]);
    expect(detectCompile(log("e0599-assoc-fn-as-method-0.22"))).toEqual([]);
    // The same error without rustc's "associated function" note is a gated member again.
    const bare = log("e0599-assoc-fn-as-method-0.22").replace(/ this is an associated function[^\n]*/, "");
    expect(detectCompile(bare.replace(/\n {2}= note: found the following[^\n]*/, ""))).toMatchObject([
      { path: "burn::tensor::Device::cuda", member: true },
    ]);
  });

  it("a trimmed name that two gated members share at the release is not answered", () => {
    // `Device::autodiff` is one gate at 0.22 (two spellings of one type); an invented name that
    // only the release's two `with_regex` records share (different gates) is ambiguous.
    const at = (path: string) =>
      analyzeCompile({
        text: issue(
          `error[E0599]: no method named \`${path.split("::")[1]}\` found for struct \`${path.split("::")[0]}\` in the current scope\n`,
          '[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }\n',
        ),
      });
    expect(at("Device::autodiff")?.items.map((i) => i.path)).toEqual(["burn::prelude::Device::autodiff"]);
    expect(at("Store::with_regex")).toBeNull();
  });
});

describe("E0599 members in burn's source", () => {
  it("a member not in the file the data last saw it in is unknown, never absent", () => {
    expect(memberSite("impl Device {\n    pub fn cpu() -> Self { Device }\n}\n", "Device", "autodiff")).toBeNull();
    expect(
      memberSite(
        'impl Display for Device {}\n#[cfg(feature = "autodiff")]\nimpl Device {\n    pub fn autodiff(self) -> Self { self }\n}\n',
        "Device",
        "autodiff",
      ),
    ).toEqual({ cfgs: [{ cfg: 'feature = "autodiff"', line: 2 }], line: 4 });
    // A trait impl's items are the trait's, not the type's.
    expect(memberSite("impl Backend for Device {\n    fn autodiff(self) {}\n}\n", "Device", "autodiff")).toBeNull();
  });
});
