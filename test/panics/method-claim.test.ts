// "It was `X` that reached the stub" only when the printed line is `X` at the release judged: the
// method table of another release puts other methods on the same lines.
import { describe, expect, it } from "@jest/globals";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { analyzePanic } from "../helpers/analysis.js";

const at = (line: number, lock: string | null) =>
  [
    `thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-${lock ?? "0.22.0-pre.2"}/src/backend.rs:${line}:9:`,
    "not implemented: Requires `autodiff` feature",
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
  ].join("\n");

describe("the method that reached the stub", () => {
  it.each([
    ["0.22.0-pre.1", 849, "int_inner"],
    ["0.22.0-pre.1", 826, "backward"],
    ["0.22.0-pre.2", 824, "backward"],
    ["0.22.0-pre.2", 851, "bool_inner"],
  ])("at %s, line %i is %s", (version, line, method) => {
    const a = analyzePanic({ text: at(line, version) });
    expect(a.version.version).toBe(version);
    expect(a.firstCall).toMatchObject({ method, from: "line", line });
    expect(renderIssueComment(a)).toContain(`it was \`${method}\` that reached the stub`);
  });

  it("a line that is a method of other releases but none at the release judged: cannot be told", () => {
    // 853 is `bool_inner` at 0.22.0-pre.1 and `grad` on main; at 0.22.0-pre.2 no stub sits there.
    const a = analyzePanic({ text: at(853, "0.22.0-pre.2") });
    expect(a.firstCall).toMatchObject({ method: null, ref: "v0.22.0-pre.2", dataHasRef: true });
    expect(renderIssueComment(a)).toContain(
      "cannot be told: `src/backend.rs:853` is none of its methods at `0.22.0-pre.2`",
    );
  });

  it("main's line is main's method: a git checkout at the data's main commit", () => {
    const text = [
      "thread 'main' panicked at /home/u/.cargo/git/checkouts/burn-178c6829438cc2d5/2c06be3/crates/burn-dispatch/src/backend.rs:849:9:",
      "not implemented: Requires `autodiff` feature",
    ].join("\n");
    const a = analyzePanic({ text });
    expect(a.firstCall).toMatchObject({ method: "backward", ref: a.link?.ref });
  });

  it("a release whose lines the data lacks: cannot be told, no method named", () => {
    const a = analyzePanic({ text: at(849, "0.22.1") });
    expect(a.firstCall).toMatchObject({ method: null, from: "unknown", dataHasRef: false });
    const body = renderIssueComment(a)!;
    expect(body).toContain("Which method reached the stub cannot be told");
    expect(body).not.toMatch(/it was `\w+` that reached/);
  });
});
