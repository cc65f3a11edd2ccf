import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { REVIEW_MARKER } from "../../src/render/review.js";
import { fixture } from "../helpers/fixtures.js";
import { API, APP, github, noConfig, REPO } from "../helpers/nock.js";
import { contentsBody, makeProbot, payload } from "../helpers/probot.js";

const HEAD = "b".repeat(40);
const BASE = "a".repeat(40);

const manifestFile = { filename: "Cargo.toml", status: "modified", patch: fixture("repos/pr-trim/patch.diff") };

function readsManifests(scope: nock.Scope, head = fixture("repos/pr-trim/head/Cargo.toml"), sha = HEAD) {
  return scope
    .get(`${REPO}/contents/Cargo.toml`)
    .query({ ref: sha })
    .reply(200, contentsBody("Cargo.toml", head))
    .get(`${REPO}/contents/Cargo.toml`)
    .query({ ref: BASE })
    .reply(200, contentsBody("Cargo.toml", fixture("repos/pr-trim/base/Cargo.toml")));
}
function readsSources(scope: nock.Scope, sha = HEAD) {
  return scope
    .get(`${REPO}/git/trees/${sha}`)
    .query({ recursive: "true" })
    .reply(200, { tree: [{ path: "src/main.rs", type: "blob" }, { path: "src/train.rs", type: "blob" }, { path: "Cargo.toml", type: "blob" }] })
    .get(`${REPO}/contents/src%2Ftrain.rs`)
    .query({ ref: sha })
    .reply(200, contentsBody("src/train.rs", fixture("repos/pr-trim/src/train.rs")));
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are asserted field by field
type Body = any;

/** A check run, the listing of earlier reviews (none), and one new review. */
function publishes(scope: nock.Scope, onCheck: (b: Body) => void, onReview: (b: Body) => void) {
  return scope
    .post(`${REPO}/check-runs`, (b) => {
      onCheck(b);
      return true;
    })
    .reply(201, { id: 1 })
    .get("/app")
    .reply(200, APP)
    .get(`${REPO}/pulls/12/reviews`)
    .query({ per_page: 100 })
    .reply(200, [])
    .post(`${REPO}/pulls/12/reviews`, (b) => {
      onReview(b);
      return true;
    })
    .reply(200, { id: 77 });
}

describe("pull request review", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.restore());

  it("a PR that does not touch Cargo.toml costs one call", async () => {
    const api = github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [{ filename: "src/main.rs", status: "modified", patch: "@@ -1 +1 @@\n-a\n+b" }]);
    await makeProbot().receive({ id: "1", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("suggests the exact line when a change turns autodiff off for training code", async () => {
    let review: { body: string; comments: Array<{ path: string; line: number; body: string; side: string }>; commit_id: string; event: string } | undefined;
    let check: { conclusion: string; output: { annotations: Array<{ start_line: number }> } } | undefined;
    const api = readsSources(readsManifests(noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [manifestFile]))))
;
    publishes(api, (c) => (check = c), (r) => (review = r));
    await makeProbot().receive({ id: "2", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(review).toMatchObject({ commit_id: HEAD, event: "COMMENT" });
    expect(review!.body.startsWith(REVIEW_MARKER)).toBe(true);
    expect(review!.comments).toHaveLength(1);
    expect(review!.comments[0]).toMatchObject({ path: "Cargo.toml", line: 7, side: "RIGHT" });
    expect(review!.comments[0]!.body).toContain('```suggestion\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["wgpu", "dataset", "autodiff"] }\n```');
    expect(review!.comments[0]!.body).toContain("`optim` is in the default set you turned off");
    expect(check).toMatchObject({ conclusion: "neutral" });
    expect(check!.output.annotations[0]).toMatchObject({ start_line: 7 });
  });

  it("a change to [workspace.dependencies] is reviewed through the members that inherit it", async () => {
    let review: Body;
    let check: Body;
    const baseRoot = '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", features = ["std"] }\n';
    const headRoot = '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }\n';
    const member = '[package]\nname = "trainer"\n\n[dependencies]\nburn = { workspace = true, features = ["cuda"] }\n';
    const patch = '@@ -4,2 +4,2 @@\n [workspace.dependencies]\n-burn = { version = "0.22.0-pre.2", features = ["std"] }\n+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }';
    const api = noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [{ filename: "Cargo.toml", status: "modified", patch }]))
      .get(`${REPO}/contents/Cargo.toml`)
      .query({ ref: HEAD })
      .reply(200, contentsBody("Cargo.toml", headRoot))
      .get(`${REPO}/contents/Cargo.toml`)
      .query({ ref: BASE })
      .reply(200, contentsBody("Cargo.toml", baseRoot))
      .get(`${REPO}/git/trees/${HEAD}`)
      .query({ recursive: "true" })
      .reply(200, { tree: ["Cargo.toml", "crates/trainer/Cargo.toml", "crates/trainer/src/train.rs"].map((path) => ({ path, type: "blob" })) })
      .get(`${REPO}/contents/crates%2Ftrainer%2FCargo.toml`)
      .query({ ref: HEAD })
      .reply(200, contentsBody("crates/trainer/Cargo.toml", member))
      .get(`${REPO}/contents/crates%2Ftrainer%2FCargo.toml`)
      .query({ ref: BASE })
      .reply(200, contentsBody("crates/trainer/Cargo.toml", member))
      .get(`${REPO}/contents/crates%2Ftrainer%2Fsrc%2Ftrain.rs`)
      .query({ ref: HEAD })
      .reply(200, contentsBody("crates/trainer/src/train.rs", fixture("repos/pr-trim/src/train.rs")));
    publishes(api, (c) => (check = c), (r) => (review = r));
    await makeProbot().receive({ id: "10", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(review.body).toContain("for `crates/trainer/Cargo.toml`, which inherits `burn` from this workspace");
    expect(review.comments).toEqual([expect.objectContaining({ path: "Cargo.toml", line: 5 })]);
    expect(review.comments[0].body).toContain('burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "autodiff"] }');
    expect(check.conclusion).toBe("neutral");
  });

  it("a PR from a fork (even a deleted one) is read through the base repository", async () => {
    const fork = payload("pull_request.opened");
    fork.pull_request.head.repo = null;
    let review: Body;
    const api = readsSources(readsManifests(noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [manifestFile]))));
    publishes(api, () => {}, (r) => (review = r));
    await makeProbot().receive({ id: "11", name: "pull_request", payload: fork });
    expect(api.pendingMocks()).toEqual([]);
    expect(review.comments).toHaveLength(1);
  });

  it("stays quiet (success check, no review) when the crate never asks for gradients", async () => {
    let check: { conclusion: string } | undefined;
    const api = readsManifests(noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [manifestFile])))
      .get(`${REPO}/git/trees/${HEAD}`)
      .query({ recursive: "true" })
      .reply(200, { tree: [{ path: "src/main.rs", type: "blob" }] })
      .get(`${REPO}/contents/src%2Fmain.rs`)
      .query({ ref: HEAD })
      .reply(200, contentsBody("src/main.rs", "fn main() { infer(); }\n"))
      .post(`${REPO}/check-runs`, (b) => {
        check = b;
        return true;
      })
      .reply(201, { id: 1 })
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/pulls/12/reviews`)
      .query({ per_page: 100 })
      .reply(200, []);
    await makeProbot().receive({ id: "3", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(check).toMatchObject({ conclusion: "success" });
  });

  it("on synchronize with the problem fixed, marks the earlier review as resolved", async () => {
    const sha = "c".repeat(40);
    let updated = "";
    const api = readsManifests(noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [manifestFile])), fixture("repos/pr-trim/base/Cargo.toml"), sha)
      .post(`${REPO}/check-runs`)
      .reply(201, { id: 1 })
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/pulls/12/reviews`)
      .query({ per_page: 100 })
      .reply(200, [{ id: 77, body: `${REVIEW_MARKER}\nold`, user: { login: "burn-triage[bot]", type: "Bot" }, commit_id: HEAD }])
      .put(`${REPO}/pulls/12/reviews/77`, (b: { body: string }) => {
        updated = b.body;
        return true;
      })
      .reply(200, { id: 77 });
    await makeProbot().receive({ id: "4", name: "pull_request", payload: payload("pull_request.synchronize") });
    expect(api.pendingMocks()).toEqual([]);
    expect(updated).toContain("✅ Fixed at `cccccccccccc`");
  });

  it("a redelivery for an already reviewed head posts nothing new", async () => {
    const api = readsSources(readsManifests(noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [manifestFile]))))
      .post(`${REPO}/check-runs`)
      .reply(201, { id: 1 })
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/pulls/12/reviews`)
      .query({ per_page: 100 })
      .reply(200, [{ id: 77, body: `${REVIEW_MARKER}\nx`, user: { login: "burn-triage[bot]", type: "Bot" }, commit_id: HEAD }]);
    await makeProbot().receive({ id: "5", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("malformed TOML in the head is reported on its line, without a crash", async () => {
    let review: { body: string; comments: unknown[] } | undefined;
    let check: { output: { annotations: Array<{ start_line: number; annotation_level: string }> } } | undefined;
    const broken = fixture("repos/pr-trim/head/Cargo.toml").replace('"dataset"]', '"dataset"');
    const api = readsManifests(noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [manifestFile])), broken)
;
    publishes(api, (c) => (check = c), (r) => (review = r));
    await makeProbot().receive({ id: "6", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(review!.body).toMatch(/`Cargo.toml` does not parse: line 7, column \d+/);
    expect(review!.comments).toEqual([]);
    expect(check!.output.annotations[0]).toMatchObject({ start_line: 7, annotation_level: "failure" });
  });

  it("skips deleted and binary manifests and draft PRs", async () => {
    const draft = payload("pull_request.opened");
    draft.pull_request.draft = true;
    await makeProbot().receive({ id: "7", name: "pull_request", payload: draft });
    const api = noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [{ filename: "old/Cargo.toml", status: "removed" }, manifestFile]))
      .get(`${REPO}/contents/Cargo.toml`)
      .query({ ref: HEAD })
      .reply(200, { type: "file", encoding: "base64", size: 4, content: Buffer.from([0, 1, 2, 3]).toString("base64") })
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/pulls/12/reviews`)
      .query({ per_page: 100 })
      .reply(200, []);
    await makeProbot().receive({ id: "8", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("caps the file listing at GitHub's 3000 files", async () => {
    const page = (n: number) => Array.from({ length: 100 }, (_, i) => ({ filename: `f${n}-${i}.rs`, status: "added" }));
    let scope = github();
    for (let n = 1; n <= 30; n++) {
      scope = scope
        .get(`${REPO}/pulls/12/files`)
        .query(n === 1 ? { per_page: 100 } : { per_page: 100, page: n })
        .reply(200, page(n), { link: `<${API}${REPO}/pulls/12/files?per_page=100&page=${n + 1}>; rel="next"` });
    }
    await makeProbot().receive({ id: "9", name: "pull_request", payload: payload("pull_request.opened") });
    expect(scope.pendingMocks()).toEqual([]);
  });
});
