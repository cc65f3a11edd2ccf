import { describe, expect, it } from "@jest/globals";
import nock from "nock";
import { REVIEW_MARKER, reviewMarker } from "../../src/render/review.js";
import { reviewRules } from "../../src/review/rules.js";
import { fixture } from "../helpers/fixtures.js";
import { API, APP, github, noConfig, REPO, restReadsWithNock } from "../helpers/nock.js";
import { contentsBody, makeProbot, payload } from "../helpers/probot.js";

const HEAD = "b".repeat(40);
const BASE = "a".repeat(40);
const BOT = { login: "burn-triage[bot]", type: "Bot" };

const manifestFile = { filename: "Cargo.toml", status: "modified", patch: fixture("repos/pr-trim/patch.diff") };

// biome-ignore lint/suspicious/noExplicitAny: request bodies are asserted field by field
type Body = any;

/** The listing, the config (none) and the app's identity: every review starts with these. */
function starts(files: unknown[]) {
  return noConfig(github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, files))
    .get("/app")
    .reply(200, APP);
}

function file(scope: nock.Scope, path: string, ref: string, text: string | null) {
  const s = scope.get(`${REPO}/contents/${encodeURIComponent(path)}`).query({ ref });
  return text === null ? s.reply(404) : s.reply(200, contentsBody(path, text));
}

function tree(scope: nock.Scope, paths: string[], sha = HEAD) {
  return scope
    .get(`${REPO}/git/trees/${sha}`)
    .query({ recursive: "true" })
    .reply(200, { tree: paths.map((path) => ({ path, type: "blob" })) });
}

/** The bot's earlier reviews and its check runs for this head: `checkRuns` are autodiff's, every other rule has none. */
function previous(
  scope: nock.Scope,
  reviews: unknown[] | ((s: nock.Scope) => nock.Scope) = [],
  checkRuns: unknown[] = [],
  sha = HEAD,
) {
  let s =
    typeof reviews === "function"
      ? reviews(scope)
      : scope.get(`${REPO}/pulls/12/reviews`).query({ per_page: 100 }).reply(200, reviews);
  for (const rule of reviewRules()) {
    const runs = rule.id === "autodiff" ? checkRuns : [];
    s = s
      .get(`${REPO}/commits/${sha}/check-runs`)
      .query({ check_name: `burn-triage / ${rule.id}`, app_id: 1 })
      .reply(200, { total_count: runs.length, check_runs: runs });
  }
  return s;
}

/** The single-crate scenario: a PR that sets default-features = false on a crate that trains. */
function trimScenario(head = fixture("repos/pr-trim/head/Cargo.toml"), sha = HEAD) {
  const s = starts([manifestFile]);
  file(s, "Cargo.toml", sha, head);
  file(s, "Cargo.toml", BASE, fixture("repos/pr-trim/base/Cargo.toml"));
  return tree(s, ["Cargo.toml", "src/main.rs", "src/train.rs"], sha);
}

/**
 * The crate's sources: train.rs shows gradients; main.rs is read for the std rule, which
 * train.rs does not answer (`main` names a std-only item of burn, or nothing).
 */
function sources(scope: nock.Scope, main = "fn main() {}\n") {
  file(scope, "src/train.rs", HEAD, fixture("repos/pr-trim/src/train.rs"));
  return file(scope, "src/main.rs", HEAD, main);
}

function capture<T>(
  scope: nock.Scope,
  method: "post" | "patch" | "put",
  path: string,
  reply: object,
  into: (b: T) => void,
) {
  return scope[method](path, (b: T) => {
    into(b);
    return true;
  }).reply(200, reply);
}

/** Every request the scope answered, in order, to show reads come before writes. */
function recordOrder(scope: nock.Scope): string[] {
  const seen: string[] = [];
  scope.on("request", (req: { method?: string; path?: string; url?: string }) =>
    seen.push(`${req.method} ${new URL(String(req.url ?? req.path), API).pathname}`),
  );
  return seen;
}

// These mock GitHub call by call with REST: they run the REST reads (GRAPHQL_READS=off), as on a
// GitHub that refuses GraphQL. The GraphQL reads are tested against the fake GitHub
// (pull-request-reads.test.ts).
describe("pull request review", () => {
  restReadsWithNock();

  it("a PR that does not touch Cargo.toml costs one call", async () => {
    const api = github()
      .get(`${REPO}/pulls/12/files`)
      .query({ per_page: 100 })
      .reply(200, [{ filename: "src/main.rs", status: "modified", patch: "@@ -1 +1 @@\n-a\n+b" }]);
    await makeProbot().receive({ id: "1", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it.each([
    ["its author is in ignore.users", "ignore:\n  users: [alice]\n", []],
    ["it carries a label in ignore.labels", "", [{ name: "wontfix" }]],
  ])("leaves a PR alone when %s: the listing and the config are read, nothing else", async (_name, config, labels) => {
    const api = github().get(`${REPO}/pulls/12/files`).query({ per_page: 100 }).reply(200, [manifestFile]);
    if (config)
      api.get(`${REPO}/contents/.github%2Fburn-triage.yml`).reply(200, contentsBody(".github/burn-triage.yml", config));
    else noConfig(api);
    const identity = nock(API).get("/app").reply(200, APP);
    const p = payload("pull_request.opened");
    p.pull_request.labels = labels;
    await makeProbot().receive({ id: "ign", name: "pull_request", payload: p });
    expect(api.pendingMocks()).toEqual([]);
    expect(identity.isDone()).toBe(false);
  });

  it("reads first, then acts: a suggestion on the exact line that names the change and the file that trains", async () => {
    let review: Body;
    let check: Body;
    const api = trimScenario();
    const order = recordOrder(api);
    sources(api);
    previous(api);
    capture(api, "post", `${REPO}/check-runs`, { id: 5 }, (b: Body) => (check = b));
    capture(api, "post", `${REPO}/pulls/12/reviews`, { id: 77 }, (b: Body) => (review = b));
    await makeProbot().receive({ id: "2", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    const firstWrite = order.findIndex((r) => !r.startsWith("GET") && !r.includes("access_tokens"));
    expect(order.slice(firstWrite)).toEqual([`POST ${REPO}/check-runs`, `POST ${REPO}/pulls/12/reviews`]);
    expect(review).toMatchObject({ commit_id: HEAD, event: "COMMENT" });
    expect(review.body.split("\n")[0]).toBe(reviewMarker(HEAD, "open", ["autodiff"]));
    expect(review.body).toContain(
      "This change sets `default-features = false` on `burn`, which drops `optim` from burn's default set (it brought autodiff)",
    );
    expect(review.body).toContain(
      `[\`src/train.rs:6\`](https://github.com/alice/mnist-demo/blob/${HEAD}/src/train.rs#L6) uses \`.backward()\`, so that crate needs gradients`,
    );
    expect(review.body).toContain('"Commit suggestion" on the line comment restores autodiff.');
    expect(review.comments).toHaveLength(1);
    expect(review.comments[0]).toMatchObject({ path: "Cargo.toml", line: 7, side: "RIGHT" });
    expect(review.comments[0].body).toContain(
      // src/train.rs imports burn::optim: `optim` restores it and autodiff with it (reader finding 2).
      '```suggestion\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["wgpu", "dataset", "optim"] }\n```',
    );
    expect(check).toMatchObject({ conclusion: "neutral", head_sha: HEAD });
    expect(check.output.annotations[0]).toMatchObject({ start_line: 7 });
  });

  it("a change to [workspace.dependencies] is reviewed through every member that inherits it", async () => {
    let review: Body;
    const baseRoot =
      '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", features = ["std"] }\n';
    const headRoot =
      '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }\n';
    const member = (name: string) =>
      `[package]\nname = "${name}"\n\n[dependencies]\nburn = { workspace = true, features = ["cuda"] }\n`;
    const patch =
      '@@ -4,2 +4,2 @@\n [workspace.dependencies]\n-burn = { version = "0.22.0-pre.2", features = ["std"] }\n+burn = { version = "0.22.0-pre.2", default-features = false, features = ["std"] }';
    const api = starts([{ filename: "Cargo.toml", status: "modified", patch }]);
    file(api, "Cargo.toml", HEAD, headRoot);
    file(api, "Cargo.toml", BASE, baseRoot);
    tree(api, [
      "Cargo.toml",
      "crates/infer/Cargo.toml",
      "crates/infer/src/main.rs",
      "crates/trainer/Cargo.toml",
      "crates/trainer/src/train.rs",
    ]);
    // The members are untouched by the PR: the same at both sides, read once.
    for (const name of ["infer", "trainer"]) file(api, `crates/${name}/Cargo.toml`, HEAD, member(name));
    file(api, "crates/infer/src/main.rs", HEAD, "fn main() { infer(); }\n");
    file(api, "crates/trainer/src/train.rs", HEAD, fixture("repos/pr-trim/src/train.rs"));
    previous(api);
    api.post(`${REPO}/check-runs`).reply(201, { id: 5 });
    capture(api, "post", `${REPO}/pulls/12/reviews`, { id: 77 }, (b: Body) => (review = b));
    await makeProbot().receive({ id: "10", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(review.body).toContain("for `crates/trainer/Cargo.toml`, which inherits `burn` from this workspace");
    expect(review.body).not.toContain("crates/infer");
    expect(review.comments).toEqual([expect.objectContaining({ path: "Cargo.toml", line: 5 })]);
    expect(review.comments[0].body).toContain(
      'burn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "autodiff"] }',
    );
  });

  it("a second rule: std off for code that uses burn::data gets its own check and shares the line's one suggestion", async () => {
    let review: Body;
    const checks: Body[] = [];
    const api = trimScenario();
    sources(api, "use burn::data::dataloader::DataLoaderBuilder;\n\nfn main() {}\n");
    previous(api);
    for (let i = 0; i < 2; i++) capture(api, "post", `${REPO}/check-runs`, { id: 5 + i }, (b: Body) => checks.push(b));
    capture(api, "post", `${REPO}/pulls/12/reviews`, { id: 77 }, (b: Body) => (review = b));
    await makeProbot().receive({ id: "2s", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(checks.map((c) => [c.name, c.conclusion])).toEqual([
      ["burn-triage / autodiff", "neutral"],
      ["burn-triage / std", "neutral"],
    ]);
    expect(review.body.split("\n")[0]).toBe(reviewMarker(HEAD, "open", ["autodiff", "std"]));
    expect(review.body).toContain("### This PR turns off `std` for code that uses burn's std-only items");
    expect(review.body).toContain(
      `[\`src/main.rs:1\`](https://github.com/alice/mnist-demo/blob/${HEAD}/src/main.rs#L1) uses \`burn::data\`, so that crate needs burn's std-only items`,
    );
    // One edit of line 7 restores both features: two suggestions on one line could not both be committed.
    expect(review.comments).toHaveLength(1);
    // src/train.rs imports burn::optim: the shared edit restores `optim` (it brings autodiff).
    expect(review.comments[0].body).toContain(
      'burn = { version = "0.22.0-pre.2", default-features = false, features = ["wgpu", "dataset", "optim", "std"] }',
    );
    expect(review.comments[0].body).toContain("It also restores `burn-core/std`");
  });

  it("a PR from a fork (even a deleted one) is read through the base repository", async () => {
    const fork = payload("pull_request.opened");
    fork.pull_request.head.repo = null;
    let review: Body;
    const api = trimScenario();
    sources(api);
    previous(api);
    api.post(`${REPO}/check-runs`).reply(201, { id: 5 });
    capture(api, "post", `${REPO}/pulls/12/reviews`, { id: 77 }, (b: Body) => (review = b));
    await makeProbot().receive({ id: "11", name: "pull_request", payload: fork });
    expect(api.pendingMocks()).toEqual([]);
    expect(review.comments).toHaveLength(1);
  });

  it("stays quiet (success check, no review) when the crate never asks for gradients", async () => {
    let check: Body;
    const api = trimScenario();
    file(api, "src/main.rs", HEAD, "fn main() { infer(); }\n");
    file(api, "src/train.rs", HEAD, "// not what the name says\npub fn nothing() {}\n");
    previous(api);
    capture(api, "post", `${REPO}/check-runs`, { id: 5 }, (b: Body) => (check = b));
    await makeProbot().receive({ id: "3", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(check).toMatchObject({ conclusion: "success" });
  });

  it("on synchronize with the problem fixed, marks the earlier review as fixed, in its marker", async () => {
    const sha = "c".repeat(40);
    let updated = "";
    const api = trimScenario(fixture("repos/pr-trim/base/Cargo.toml"), sha);
    previous(
      api,
      [{ id: 77, body: `${reviewMarker(HEAD, "open", ["autodiff"])}\nold`, user: BOT, commit_id: HEAD }],
      [],
      sha,
    );
    api.post(`${REPO}/check-runs`).reply(201, { id: 5 });
    capture(api, "put", `${REPO}/pulls/12/reviews/77`, { id: 77 }, (b: { body: string }) => (updated = b.body));
    await makeProbot().receive({ id: "4", name: "pull_request", payload: payload("pull_request.synchronize") });
    expect(api.pendingMocks()).toEqual([]);
    expect(updated.split("\n")[0]).toBe(reviewMarker(sha, "fixed", ["autodiff"]));
    expect(updated).toContain("Fixed at `cccccccccccc`");
  });

  it("on a PR of 3,000 reviews by others, finds its own latest review from the newest page: two reads, not thirty", async () => {
    const sha = "c".repeat(40);
    let updated = "";
    const api = trimScenario(fixture("repos/pr-trim/base/Cargo.toml"), sha);
    const others = (n: number) =>
      Array.from({ length: 100 }, (_, i) => ({
        id: n * 1000 + i,
        body: "LGTM",
        user: { login: "bob" },
        commit_id: HEAD,
      }));
    const mine = { id: 77, body: `${reviewMarker(HEAD, "open", ["autodiff"])}\nold`, user: BOT, commit_id: HEAD };
    const last = `<${API}${REPO}/pulls/12/reviews?per_page=100&page=30>; rel="last"`;
    const pages = (s: nock.Scope) =>
      s
        .get(`${REPO}/pulls/12/reviews`)
        .query({ per_page: 100 })
        .reply(200, others(1), { link: last })
        .get(`${REPO}/pulls/12/reviews`)
        .query({ per_page: 100, page: 30 })
        .reply(200, [...others(30).slice(0, 50), mine, ...others(30).slice(50)]);
    previous(api, pages, [], sha);
    api.post(`${REPO}/check-runs`).reply(201, { id: 5 });
    capture(api, "put", `${REPO}/pulls/12/reviews/77`, { id: 77 }, (b: { body: string }) => (updated = b.body));
    await makeProbot().receive({ id: "44", name: "pull_request", payload: payload("pull_request.synchronize") });
    expect(api.pendingMocks()).toEqual([]);
    expect(updated.split("\n")[0]).toBe(reviewMarker(sha, "fixed", ["autodiff"]));
  });

  it("a review already marked fixed is not edited again, whatever its prose says", async () => {
    const sha = "c".repeat(40);
    const api = trimScenario(fixture("repos/pr-trim/base/Cargo.toml"), sha);
    previous(
      api,
      [{ id: 77, body: `${reviewMarker(HEAD, "fixed", ["autodiff"])}\nno tick here`, user: BOT, commit_id: HEAD }],
      [],
      sha,
    );
    api.post(`${REPO}/check-runs`).reply(201, { id: 5 });
    await makeProbot().receive({ id: "4b", name: "pull_request", payload: payload("pull_request.synchronize") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("a redelivery for an already reviewed head updates its check run and posts no new review", async () => {
    let updated: Body;
    const api = trimScenario();
    sources(api);
    previous(api, [{ id: 77, body: `${REVIEW_MARKER} -->\nlegacy marker`, user: BOT, commit_id: HEAD }], [{ id: 5 }]);
    capture(api, "patch", `${REPO}/check-runs/5`, { id: 5 }, (b: Body) => (updated = b));
    await makeProbot().receive({ id: "5", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(updated).toMatchObject({ conclusion: "neutral", name: "burn-triage / autodiff" });
  });

  it("malformed TOML in the head is reported on its line, without a crash", async () => {
    let review: Body;
    let check: Body;
    const broken = fixture("repos/pr-trim/head/Cargo.toml").replace('"dataset"]', '"dataset"');
    const api = trimScenario(broken);
    previous(api);
    capture(api, "post", `${REPO}/check-runs`, { id: 5 }, (b: Body) => (check = b));
    capture(api, "post", `${REPO}/pulls/12/reviews`, { id: 77 }, (b: Body) => (review = b));
    await makeProbot().receive({ id: "6", name: "pull_request", payload: payload("pull_request.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(review.body).toMatch(/`Cargo.toml` does not parse: line 7, column \d+/);
    expect(review.body).not.toContain("Commit suggestion");
    expect(review.comments).toEqual([]);
    expect(check.output.annotations[0]).toMatchObject({ start_line: 7, annotation_level: "failure" });
  });

  it("skips deleted and binary manifests and draft PRs", async () => {
    const draft = payload("pull_request.opened");
    draft.pull_request.draft = true;
    await makeProbot().receive({ id: "7", name: "pull_request", payload: draft });
    const api = starts([{ filename: "old/Cargo.toml", status: "removed" }, manifestFile])
      .get(`${REPO}/contents/Cargo.toml`)
      .query({ ref: HEAD })
      .reply(200, { type: "file", encoding: "base64", size: 4, content: Buffer.from([0, 1, 2, 3]).toString("base64") });
    file(api, "Cargo.toml", BASE, fixture("repos/pr-trim/base/Cargo.toml"));
    tree(api, ["Cargo.toml"]);
    previous(api);
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
