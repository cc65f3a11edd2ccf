// Issue 53: a PR review says only what the data proves. burn by git `rev` at a commit the data
// cannot read (a 2023 commit, naming a feature main has since removed) gets no refusal and no
// failing check, through the handler and the check-run path.
import { describe, expect, it } from "@jest/globals";
import type nock from "nock";
import { reviewRules } from "../../src/review/rules.js";
import { APP, github, noConfig, REPO, restReadsWithNock } from "../helpers/nock.js";
import { contentsBody, makeProbot, payload } from "../helpers/probot.js";

const HEAD = "b".repeat(40);
const BASE = "a".repeat(40);

// biome-ignore lint/suspicious/noExplicitAny: request bodies are asserted field by field
type Body = any;

// tracel-ai/models pinned burn by rev in 2023, with features main no longer has.
// A PR bumping the rev and turning on a feature that commit had (main has since removed it).
const manifest = (rev: string, features: string) =>
  `[package]\nname = "resnet-burn"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nburn = { git = "https://github.com/tracel-ai/burn.git", rev = "${rev}", default-features = false, features = [${features}] }\nserde = { version = "1", features = ["derive"] }\n`;
const OLD = "8c8e1d1";
const NEWER = "e0f5b2a";
const BEFORE = '"std"';
const AFTER = '"std", "experimental-named-tensor"';
const patch = `@@ -6,3 +6,3 @@ edition = "2021"\n [dependencies]\n-${manifest(OLD, BEFORE).split("\n")[6]}\n+${manifest(NEWER, AFTER).split("\n")[6]}\n serde = { version = "1", features = ["derive"] }`;

function file(scope: nock.Scope, path: string, ref: string, text: string | null) {
  const s = scope.get(`${REPO}/contents/${encodeURIComponent(path)}`).query({ ref });
  return text === null ? s.reply(404) : s.reply(200, contentsBody(path, text));
}

// Mocked call by call with REST, as test/handlers/pull-request.test.ts is (GRAPHQL_READS=off).
describe("a PR whose burn is a git rev at a commit the data cannot read", () => {
  restReadsWithNock();

  it("gets no refusal and no failing check, and says which commit could not be read", async () => {
    const checks: Body[] = [];
    let review: Body = null;
    const api = noConfig(
      github()
        .get(`${REPO}/pulls/12/files`)
        .query({ per_page: 100 })
        .reply(200, [{ filename: "Cargo.toml", status: "modified", patch }]),
    )
      .get("/app")
      .reply(200, APP);
    file(api, "Cargo.toml", HEAD, manifest(NEWER, AFTER));
    file(api, "Cargo.toml", BASE, manifest(OLD, BEFORE));
    api
      .get(`${REPO}/git/trees/${HEAD}`)
      .query({ recursive: "true" })
      .reply(200, { tree: ["Cargo.toml", "src/main.rs"].map((path) => ({ path, type: "blob" })) });
    // Read only when a rule finds something to back (the head judged, not unknown).
    api
      .get(`${REPO}/contents/${encodeURIComponent("src/main.rs")}`)
      .query({ ref: HEAD })
      .optionally()
      .reply(200, contentsBody("src/main.rs", "use burn::tensor::Tensor;\nfn main() {}\n"));
    api.get(`${REPO}/pulls/12/reviews`).query({ per_page: 100 }).reply(200, []);
    for (const rule of reviewRules())
      api
        .get(`${REPO}/commits/${HEAD}/check-runs`)
        .query({ check_name: `burn-triage / ${rule.id}`, app_id: 1 })
        .reply(200, { total_count: 0, check_runs: [] });
    api
      .post(`${REPO}/check-runs`, (b: Body) => {
        checks.push(b);
        return true;
      })
      .times(reviewRules().length)
      .optionally()
      .reply(201, { id: 5 });
    api
      .post(`${REPO}/pulls/12/reviews`, (b: Body) => {
        review = b;
        return true;
      })
      .optionally()
      .reply(200, { id: 77 });
    await makeProbot().receive({ id: "rev", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.map((c) => c.conclusion)).not.toContain("failure");
    const said = JSON.stringify([checks, review]);
    expect(said).not.toMatch(/refuse/i);
    expect(said).toContain(`rev \`${NEWER}\``);
    expect(said).toContain("could not be read");
  });
});
