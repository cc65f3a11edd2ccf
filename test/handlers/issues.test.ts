import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { classify } from "../../src/github/retry.js";
import { ISSUE_MARKER, ISSUE_MARKER_PREFIX, issueMarker } from "../../src/render/issue.js";
import { fixture } from "../helpers/fixtures.js";
import { API, APP, asApp, github, labelEvents, listed, newComment, noConfig, own, REPO } from "../helpers/nock.js";
import { contentsBody, makeProbot, payload } from "../helpers/probot.js";

describe("issues handler", () => {
  beforeEach(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });
  afterAll(() => {
    nock.restore();
  });

  it("a non-matching issue costs zero API calls", async () => {
    const probot = makeProbot();
    await probot.receive({ id: "1", name: "issues", payload: payload("issues.opened.unrelated") });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("comments once with the verified fix and labels the issue", async () => {
    let posted = "";
    const api = noConfig(github());
    newComment(api, 7, (b) => {
      posted = b;
    })
      .post(`${REPO}/issues/7/labels`, { labels: ["burn: feature off"] })
      .reply(200, []);
    await makeProbot().receive({ id: "2", name: "issues", payload: payload("issues.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(posted.startsWith(ISSUE_MARKER)).toBe(true);
    expect(posted).toContain("blob/v0.22.0-pre.2/crates/burn-dispatch/src/backend.rs#L824");
    expect(posted).toContain('features = ["std", "wgpu", "dataset", "autodiff"]');
  });

  it("edits its earlier comment instead of adding one", async () => {
    const p = payload("issues.opened");
    p.action = "edited";
    p.changes = { body: { from: "old" } };
    let patched = "";
    // The label was added with the comment, then taken off by a maintainer: it stays off.
    const api = labelEvents(noConfig(github()), 7, ["labeled", "unlabeled"])
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, [
        { id: 1, body: "thanks!", user: { login: "bob", type: "User" } },
        {
          id: 2,
          body: `${ISSUE_MARKER}\nstale`,
          user: { login: "burn-triage[bot]", type: "Bot" },
          performed_via_github_app: APP,
        },
      ])
      .patch(`${REPO}/issues/comments/2`, (b: { body: string }) => {
        patched = b.body;
        return true;
      })
      .reply(200, { id: 2 });
    await makeProbot().receive({ id: "3", name: "issues", payload: p });
    expect(api.pendingMocks()).toEqual([]);
    expect(patched).toContain("Why it is off here");
  });

  it("a redelivery with an identical comment writes nothing", async () => {
    let first = "";
    const setup = noConfig(github());
    newComment(setup, 7, (b) => {
      first = b;
    })
      .post(`${REPO}/issues/7/labels`)
      .reply(200, []);
    await makeProbot().receive({ id: "4", name: "issues", payload: payload("issues.opened") });
    // The payload of a redelivery predates the label the first delivery added: its events show it.
    const again = labelEvents(listed(noConfig(github()), 7, [own(9, first)]), 7, ["labeled"]);
    await makeProbot().receive({ id: "4", name: "issues", payload: payload("issues.opened") });
    expect(again.pendingMocks()).toEqual([]);
  });

  it("a label that failed after the comment was created is added by the retry, on its own", async () => {
    let first = "";
    const failing = noConfig(github());
    newComment(failing, 7, (b) => {
      first = b;
    })
      .post(`${REPO}/issues/7/labels`)
      .reply(502, { message: "Bad Gateway" });
    await expect(
      makeProbot().receive({ id: "40", name: "issues", payload: payload("issues.opened") }),
    ).rejects.toThrow();
    expect(failing.pendingMocks()).toEqual([]);
    const issue = payload("issues.opened").issue;
    const retry = labelEvents(
      listed(
        noConfig(
          github()
            .get(`${REPO}/issues/7`)
            .reply(200, { ...issue, labels: [] }),
        ),
        7,
        [own(9, first)],
      ),
      7,
      [],
    )
      .post(`${REPO}/issues/7/labels`, { labels: ["burn: feature off"] })
      .reply(200, []);
    await makeProbot().receive({ id: "40:retry1", name: "issues", payload: payload("issues.opened") });
    expect(retry.pendingMocks()).toEqual([]);
  });

  it("a first delivery that finds its comment current does not re-add a label a maintainer removed", async () => {
    let first = "";
    newComment(noConfig(github()), 7, (b) => {
      first = b;
    })
      .post(`${REPO}/issues/7/labels`)
      .reply(200, []);
    await makeProbot().receive({ id: "41", name: "issues", payload: payload("issues.opened") });
    const edited = payload("issues.opened");
    edited.action = "edited";
    edited.changes = { title: { from: "x" } };
    const again = labelEvents(listed(noConfig(github()), 7, [own(9, first)]), 7, ["labeled", "unlabeled"]);
    await makeProbot().receive({ id: "42", name: "issues", payload: edited });
    expect(again.pendingMocks()).toEqual([]);
  });

  it("on an issue of 3,000 comments the next delivery reads its remembered comment, not thirty pages", async () => {
    const probot = makeProbot();
    const long = payload("issues.opened");
    long.issue.comments = 3000;
    const first = noConfig(github())
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, [{ id: 1, body: "+1", user: { login: "bob", type: "User" } }])
      .post(`${REPO}/issues/7/comments`)
      .reply(201, { id: 77 })
      .post(`${REPO}/issues/7/labels`)
      .reply(200, []);
    await probot.receive({ id: "50", name: "issues", payload: long });
    expect(first.pendingMocks()).toEqual([]);
    const edited = structuredClone(long);
    edited.action = "edited";
    edited.changes = { body: { from: "old" } };
    edited.issue.updated_at = "2099-01-01T00:00:00Z";
    const mine = { ...own(77, `${ISSUE_MARKER}\nold`), issue_url: `https://api.github.com${REPO}/issues/7` };
    // The same app instance: its installation token and identity are cached.
    const second = labelEvents(noConfig(nock(API)), 7, ["labeled"])
      .get(`${REPO}/issues/comments/77`)
      .reply(200, mine)
      .patch(`${REPO}/issues/comments/77`)
      .reply(200, { id: 77 });
    await probot.receive({ id: "51", name: "issues", payload: edited });
    expect(second.pendingMocks()).toEqual([]);
  });

  it("a remembered comment that was deleted is looked for by listing again", async () => {
    const probot = makeProbot();
    const long = payload("issues.opened");
    long.issue.comments = 3000;
    newComment(noConfig(github()), 7).post(`${REPO}/issues/7/labels`).reply(200, []);
    await probot.receive({ id: "52", name: "issues", payload: long });
    const again = noConfig(nock(API))
      .get(`${REPO}/issues/comments/1`)
      .reply(404, { message: "Not Found" })
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, [])
      .post(`${REPO}/issues/7/comments`)
      .reply(201, { id: 2 })
      .post(`${REPO}/issues/7/labels`)
      .reply(200, []);
    await probot.receive({ id: "53", name: "issues", payload: long });
    expect(again.pendingMocks()).toEqual([]);
  });

  it("a truncated comments listing is GitHub's malformed answer (a failure that passes), not a bug", async () => {
    const api = noConfig(github())
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, '[{"id": 1, "bo', { "content-type": "application/json; charset=utf-8" });
    const failed = await makeProbot()
      .receive({ id: "60", name: "issues", payload: payload("issues.opened") })
      .then(
        () => null,
        (e: { errors?: unknown[] }) => e.errors?.[0] ?? e,
      );
    expect(api.pendingMocks()).toEqual([]);
    expect(classify(failed)).toEqual({ kind: "github", status: 502, passes: true });
  });

  it("converges to one comment when racing replicas left two", async () => {
    const api = labelEvents(noConfig(github()), 7, ["labeled"])
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, [
        {
          id: 2,
          body: `${ISSUE_MARKER}\nA`,
          user: { login: "burn-triage[bot]", type: "Bot" },
          performed_via_github_app: APP,
        },
        {
          id: 3,
          body: `${ISSUE_MARKER}\nB`,
          user: { login: "burn-triage[bot]", type: "Bot" },
          performed_via_github_app: APP,
        },
        { id: 4, body: `quoting you: ${ISSUE_MARKER}`, user: { login: "carol", type: "User" } },
      ])
      .delete(`${REPO}/issues/comments/3`)
      .reply(204)
      .patch(`${REPO}/issues/comments/2`)
      .reply(200, { id: 2 });
    await makeProbot().receive({ id: "11", name: "issues", payload: payload("issues.opened") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("retracts its advice when an edit removes the panic", async () => {
    let patched = "";
    const api = github()
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, [
        {
          id: 2,
          body: `${ISSUE_MARKER}\nadvice`,
          user: { login: "burn-triage[bot]", type: "Bot" },
          performed_via_github_app: APP,
        },
      ])
      .patch(`${REPO}/issues/comments/2`, (b: { body: string }) => {
        patched = b.body;
        return true;
      })
      .reply(200, { id: 2 });
    await makeProbot().receive({ id: "5", name: "issues", payload: payload("issues.edited.removed") });
    expect(api.pendingMocks()).toEqual([]);
    expect(patched).toContain("no longer contains a panic I recognise");
  });

  it("ignores bots and locked issues without a call", async () => {
    const bot = payload("issues.opened");
    bot.issue.user = { login: "dependabot[bot]", type: "Bot" };
    bot.sender = bot.issue.user;
    const locked = payload("issues.opened");
    locked.issue.locked = true;
    await makeProbot().receive({ id: "6", name: "issues", payload: bot });
    await makeProbot().receive({ id: "7", name: "issues", payload: locked });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("reads the repository's manifests when the issue has none, within the read budget", async () => {
    const p = payload("issues.opened");
    p.issue.body =
      "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n";
    const root =
      '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false }\n';
    const trainer = '[package]\nname = "trainer"\n\n[dependencies]\nburn = { workspace = true, features = ["cuda"] }\n';
    let posted = "";
    const api = noConfig(github())
      .get(`${REPO}/contents/Cargo.toml`)
      .reply(200, contentsBody("Cargo.toml", root))
      .get(`${REPO}/contents/crates`)
      .reply(200, [
        { type: "dir", path: "crates/trainer", name: "trainer" },
        { type: "dir", path: "crates/model", name: "model" },
        { type: "file", path: "crates/README.md", name: "README.md" },
      ])
      .get(`${REPO}/contents/crates%2Ftrainer%2FCargo.toml`)
      .reply(200, contentsBody("crates/trainer/Cargo.toml", trainer))
      .get(`${REPO}/contents/crates%2Fmodel%2FCargo.toml`)
      .reply(200, contentsBody("crates/model/Cargo.toml", '[package]\nname = "model"\n[dependencies]\nserde = "1"\n'))
      .get(`${REPO}/contents/Cargo.lock`)
      .reply(404);
    newComment(api, 7, (b) => {
      posted = b;
    })
      .post(`${REPO}/issues/7/labels`)
      .reply(200, []);
    await makeProbot().receive({ id: "8", name: "issues", payload: p });
    expect(api.pendingMocks()).toEqual([]);
    expect(posted).toContain("`crates/trainer/Cargo.toml` in this repository");
    expect(posted).toContain('+burn = { workspace = true, features = ["cuda", "autodiff"] }');
  });

  it("workspace members outside the repository are never read (`..`, `../*`)", async () => {
    const p = payload("issues.opened");
    p.issue.body =
      "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-1/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:\nnot implemented: Requires `autodiff` feature\n";
    const root =
      '[workspace]\nmembers = ["../*", "../../secrets", "./app"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false }\n';
    const api = noConfig(github())
      .get(`${REPO}/contents/Cargo.toml`)
      .reply(200, contentsBody("Cargo.toml", root))
      .get(`${REPO}/contents/app%2FCargo.toml`)
      .reply(
        200,
        contentsBody("app/Cargo.toml", '[package]\nname = "app"\n[dependencies]\nburn = { workspace = true }\n'),
      )
      .get(`${REPO}/contents/Cargo.lock`)
      .reply(404);
    newComment(api, 7).post(`${REPO}/issues/7/labels`).reply(200, []);
    await makeProbot().receive({ id: "16", name: "issues", payload: p });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("a misuse panic needs no manifest (no repository reads) and gets no feature label", async () => {
    const p = payload("issues.opened");
    p.issue.body = fixture("issues/pos-misuse-wrong-backend.md");
    let posted = "";
    const api = noConfig(github());
    newComment(api, 7, (b) => {
      posted = b;
    });
    await makeProbot().receive({ id: "12", name: "issues", payload: p });
    expect(api.pendingMocks()).toEqual([]);
    expect(posted).toContain("not a missing Cargo feature");
  });

  it("an invalid config falls back to defaults and still answers", async () => {
    const api = github()
      .get(`${REPO}/contents/.github%2Fburn-triage.yml`)
      .reply(200, contentsBody(".github/burn-triage.yml", "issues:\n  label: 5\n  enabled: true\n  nonsense: true\n"))
      .get("/app")
      .reply(200, APP)
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, [])
      .post(`${REPO}/issues/7/comments`)
      .reply(201, { id: 1 })
      .post(`${REPO}/issues/7/labels`, { labels: ["burn: feature off"] })
      .reply(200, []);
    await makeProbot().receive({ id: "9", name: "issues", payload: payload("issues.opened") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("an unparseable config file is logged and the defaults answer", async () => {
    const api = github()
      .get(`${REPO}/contents/.github%2Fburn-triage.yml`)
      .reply(200, contentsBody(".github/burn-triage.yml", "issues: [unclosed\n  label: x\n"));
    newComment(api, 7)
      .post(`${REPO}/issues/7/labels`, { labels: ["burn: feature off"] })
      .reply(200, []);
    await makeProbot().receive({ id: "13", name: "issues", payload: payload("issues.opened") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("a create that fails after GitHub stored it is found on the re-read, not posted twice", async () => {
    let body = "";
    const api = listed(noConfig(github()), 7, [])
      .post(`${REPO}/issues/7/comments`, (b: { body: string }) => {
        body = b.body;
        return true;
      })
      .reply(502, { message: "Bad Gateway" })
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, () => [own(5, body)])
      .post(`${REPO}/issues/7/labels`, { labels: ["burn: feature off"] })
      .reply(200, []);
    await makeProbot().receive({ id: "16", name: "issues", payload: payload("issues.opened") });
    expect(api.pendingMocks()).toEqual([]);
    expect(body.startsWith(ISSUE_MARKER_PREFIX)).toBe(true);
  });

  it("an older delivery than the comment's answer changes nothing", async () => {
    const p = payload("issues.opened");
    p.action = "edited";
    p.changes = { body: { from: "old" } };
    p.issue.updated_at = "2026-01-01T00:00:00Z";
    const newer = `${issueMarker("2026-01-02T00:00:00Z")}\nthe answer to a later edit\n`;
    const api = listed(noConfig(github()), 7, [own(5, newer)]);
    await makeProbot().receive({ id: "17", name: "issues", payload: p });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("a config larger than the cap is refused unparsed and the defaults answer", async () => {
    // A valid file that turns issues off, padded past 16 KiB: refused unread, so the defaults
    // (issues on) answer. Were the cap larger, the bot would obey it and stay silent.
    const huge = `issues:\n  enabled: false\n${"# padding\n".repeat(1700)}`;
    expect(huge.length).toBeGreaterThan(16 * 1024);
    const api = github()
      .get(`${REPO}/contents/.github%2Fburn-triage.yml`)
      .reply(200, contentsBody(".github/burn-triage.yml", huge));
    newComment(api, 7).post(`${REPO}/issues/7/labels`).reply(200, []);
    await makeProbot().receive({ id: "14", name: "issues", payload: payload("issues.opened") });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("a config the API fails to serve (5xx) means silence now (and a retry later), not defaults", async () => {
    // Retries are off in these tests: one 503 is the final answer.
    const api = github().get(`${REPO}/contents/.github%2Fburn-triage.yml`).reply(503, { message: "unavailable" });
    await expect(makeProbot().receive({ id: "15", name: "issues", payload: payload("issues.opened") })).rejects.toThrow(
      /could not be read/,
    );
    expect(api.pendingMocks()).toEqual([]);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("an API error surfaces as a failed delivery, not a wrong comment", async () => {
    asApp(noConfig(github())).get(`${REPO}/issues/7/comments`).query({ per_page: 100 }).reply(500, { message: "boom" });
    await expect(
      makeProbot().receive({ id: "10", name: "issues", payload: payload("issues.opened") }),
    ).rejects.toThrow();
    expect(nock.pendingMocks()).toEqual([]);
  });
});
