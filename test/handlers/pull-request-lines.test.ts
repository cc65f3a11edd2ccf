// A feature removed on two lines of one file, as a Renovate bump shows it: the review gives a
// suggestion on each exact line (not one over the lines between, which the PR's diff does not
// show), and the check's annotations sit on the lines the refused feature is written on. Through
// the handler, every GitHub call mocked (fixtures/repos/renovate-two-lines).
import { describe, expect, it } from "@jest/globals";
import type nock from "nock";
import { reviewRules } from "../../src/review/rules.js";
import { fixture } from "../helpers/fixtures.js";
import { APP, github, noConfig, REPO, restReadsWithNock } from "../helpers/nock.js";
import { contentsBody, makeProbot, payload } from "../helpers/probot.js";

const HEAD = "b".repeat(40);
const BASE = "a".repeat(40);
const FX = "repos/renovate-two-lines";

// biome-ignore lint/suspicious/noExplicitAny: request bodies are asserted field by field
type Body = any;

function file(scope: nock.Scope, path: string, ref: string, text: string) {
  return scope
    .get(`${REPO}/contents/${encodeURIComponent(path)}`)
    .query({ ref })
    .reply(200, contentsBody(path, text));
}

/**
 * The PR's reads: its one file, config (none), identity, both sides, the tree, no earlier review. A
 * manifest cargo refuses reads no source: nothing past the refusal is judged.
 */
function scenario(): nock.Scope {
  const changed = { filename: "Cargo.toml", status: "modified", patch: fixture(`${FX}/patch.diff`) };
  const s = noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [changed]))
    .get("/app")
    .reply(200, APP);
  file(s, "Cargo.toml", HEAD, fixture(`${FX}/head/Cargo.toml`));
  file(s, "Cargo.toml", BASE, fixture(`${FX}/base/Cargo.toml`));
  s.get(`${REPO}/git/trees/${HEAD}`)
    .query({ recursive: "true" })
    .reply(200, { tree: ["Cargo.toml", "src/lib.rs"].map((path) => ({ path, type: "blob" })) });
  s.get(`${REPO}/pulls/12/reviews`).query({ per_page: 100 }).reply(200, []);
  for (const rule of reviewRules())
    s.get(`${REPO}/commits/${HEAD}/check-runs`)
      .query({ check_name: `burn-triage / ${rule.id}`, app_id: 1 })
      .reply(200, { total_count: 0, check_runs: [] });
  return s;
}

/** The 1-based lines of `text` that hold `needle`. */
const linesWith = (text: string, needle: string) =>
  text.split("\n").flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));

describe("a Renovate bump past a feature written on two lines", () => {
  restReadsWithNock();

  it("gets a suggestion on each line that names it, and an annotation on each", async () => {
    const head = fixture(`${FX}/head/Cargo.toml`);
    const written = linesWith(head, '"server"');
    expect(written).toEqual([7, 16]);
    let review: Body;
    const checks: Body[] = [];
    const api = scenario();
    api
      .post(`${REPO}/check-runs`, (b: Body) => {
        checks.push(b);
        return true;
      })
      .times(reviewRules().filter((r) => r.check === "always").length)
      .reply(201, { id: 5 });
    api
      .post(`${REPO}/pulls/12/reviews`, (b: Body) => {
        review = b;
        return true;
      })
      .reply(200, { id: 77 });
    await makeProbot().receive({ id: "1", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    // One suggestion on each line, each replacing that line alone with the renamed feature.
    const lines = review.comments.map((c: Body) => [c.start_line ?? c.line, c.line]);
    expect(lines).toEqual(written.map((l) => [l, l]));
    for (const c of review.comments) {
      expect(c.body).toContain('"remote-websocket"]');
      const line = head.split("\n")[c.line - 1]!.replace('"server"', '"remote-websocket"');
      expect(c.body).toContain(`\`\`\`suggestion\n${line}\n\`\`\``);
    }
    expect(review.body).toContain("The suggestions on lines 7 and 16 get past it.");
    expect(review.comments[0].body).toContain("commit them together");
    // The check fails, annotated on the lines where `server` is written, never line 1.
    expect(checks.every((c) => c.conclusion === "failure")).toBe(true);
    for (const c of checks)
      expect(c.output.annotations.map((a: Body) => [a.path, a.start_line, a.end_line])).toEqual(
        written.map((l) => ["Cargo.toml", l, l]),
      );
  });
});
