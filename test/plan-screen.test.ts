// planIssue screens an issue's title and body apart, and joins them only for a text some screen
// passes: what it decides must be what the triage of the joined text decides, wherever the text
// is cut between the two, and whatever HTML comment GitHub would hide.
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { issueEvent, issueText, planIssue, planText, triage } from "../src/answer/plan.js";
import { fixture } from "./helpers/fixtures.js";
import { payload } from "./helpers/probot.js";

const texts = [
  "issues/pos-wrapped-message.md",
  "issues/pos-title-only.md",
  "issues/pos-misuse-wrap-device.md",
  "issues/neg-rustc-feature-autodiff.md",
  "issues/neg-own-crate-same-words.md",
  "compile/rustc-1.95/e0433-renamed-burn2-0.22.txt",
  "compile/rustc-1.95/e0599-device-autodiff-0.22-color.txt",
  "cargo/refusal-several-0.22-build.txt",
].map(fixture);

const answers = (title: string, body: string) => planText(title, body).kind === "answer";

describe("planIssue's screen over the title and the body", () => {
  it("answers as the joined text's triage does, wherever the text is cut and commented", () => {
    const cut = fc
      .tuple(fc.constantFrom(...texts), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), fc.boolean())
      .map(([text, at, comment, long]) => {
        const i = Math.floor(at * text.length);
        const cut = comment ? `${text.slice(i, i + 40)}<!-- hidden -->${text.slice(i + 40)}` : text.slice(i);
        // A long body is screened apart from the title, a short one joined to it first.
        const body = long ? `${cut}\n${"Steps to reproduce, and what I expected instead. ".repeat(120)}` : cut;
        return [text.slice(0, i), body] as const;
      });
    fc.assert(
      fc.property(cut, ([title, body]) => {
        expect(answers(title, body)).toBe(triage(issueText(title, body)).answerable);
      }),
      { numRuns: 300 },
    );
  });

  it("answers a message whose words the title and the body share between them", () => {
    expect(answers("not implemented: Requires", "`autodiff` feature")).toBe(true);
    expect(
      answers("cargo: package `app` depends on `burn` with feature `server` but `burn`", "does not have that feature."),
    ).toBe(
      triage(
        issueText(
          "cargo: package `app` depends on `burn` with feature `server` but `burn`",
          "does not have that feature.",
        ),
      ).answerable,
    );
  });

  it("retracts an edit that removed what the previous body held", () => {
    const p = payload("issues.opened");
    p.action = "edited";
    p.issue.body = "How do I pick a backend?";
    p.changes = { body: { from: fixture("compile/rustc-1.95/e0599-device-autodiff-0.22.txt") } };
    expect(planIssue(issueEvent(p, { senderIsBot: false })).kind).toBe("retract");
    p.changes = { body: { from: "How do I pick a device?" } };
    expect(planIssue(issueEvent(p, { senderIsBot: false }))).toEqual({ kind: "ignore", reason: "nothing-to-answer" });
  });
});
