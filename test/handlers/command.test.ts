import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { API, asApp, github, newComment, noConfig, REPO } from "../helpers/nock.js";
import { contentsBody, makeProbot, payload } from "../helpers/probot.js";

function start(config?: string) {
  if (config)
    return github()
      .get(`${REPO}/contents/.github%2Fburn-triage.yml`)
      .reply(200, contentsBody(".github/burn-triage.yml", config));
  return noConfig(github());
}

let n = 0;
function comment(body: string, extra: Record<string, unknown> = {}) {
  const p = payload("issue_comment.created");
  n++;
  p.issue.number = 100 + n;
  p.comment = { ...p.comment, id: 9000 + n, body, ...extra };
  return p;
}

describe("/explain-panic", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.restore());

  it("reacts, then replies once with the analysis of the pasted log", async () => {
    const p = payload("issue_comment.created");
    let reply = "";
    const api = start().post(`${REPO}/issues/comments/9001/reactions`, { content: "eyes" }).reply(201, {});
    newComment(api, 9, (b) => {
      reply = b;
    });
    await makeProbot().receive({ id: "1", name: "issue_comment", payload: p });
    expect(api.pendingMocks()).toEqual([]);
    expect(reply.startsWith("<!-- burn-triage:command:9001 -->")).toBe(true);
    expect(reply).toContain("blob/v0.22.0-pre.1/crates/burn-dispatch/src/backend.rs#L826");
  });

  it("falls back to the issue body, and says plainly when nothing is known", async () => {
    let reply = "";
    const p = comment("/explain-panic");
    const api = start().post(`${REPO}/issues/comments/${p.comment.id}/reactions`).reply(201, {});
    newComment(api, p.issue.number, (b) => {
      reply = b;
    });
    await makeProbot().receive({ id: "2", name: "issue_comment", payload: p });
    expect(api.pendingMocks()).toEqual([]);
    expect(reply).toContain("I found no burn panic I know");
    expect(reply).toContain("Requires `autodiff` feature");
  });

  it("answers a pasted rustc error for a gated burn path", async () => {
    const p = comment(
      '/explain-panic\n```\nerror[E0412]: cannot find type `Wgpu` in module `burn::backend`\n --> src/main.rs:3:25\n```\nwith `burn = { version = "0.20.1", features = ["ndarray"] }`',
    );
    let reply = "";
    const api = start().post(`${REPO}/issues/comments/${p.comment.id}/reactions`, { content: "eyes" }).reply(201, {});
    newComment(api, p.issue.number, (b) => (reply = b));
    await makeProbot().receive({ id: `cmd-${p.comment.id}`, name: "issue_comment", payload: p });
    expect(api.pendingMocks()).toEqual([]);
    expect(reply).toContain('`burn::backend::Wgpu` sits under `#[cfg(feature = "wgpu")]` in `burn`');
    expect(reply).toContain("edit your comment and I will update this reply");
  });

  it("answers help", async () => {
    let reply = "";
    const p = comment("/explain-panic help");
    const api = start().post(`${REPO}/issues/comments/${p.comment.id}/reactions`).reply(201, {});
    newComment(api, p.issue.number, (b) => {
      reply = b;
    });
    await makeProbot().receive({ id: "3", name: "issue_comment", payload: p });
    expect(api.pendingMocks()).toEqual([]);
    expect(reply).toContain("at the start of a line");
  });

  it("looks for its reply only among comments updated since the command (one page on a 3,000-comment issue)", async () => {
    const created = "2026-11-30T10:00:00Z";
    const p = comment("/explain-panic help", { created_at: created });
    const api = start().post(`${REPO}/issues/comments/${p.comment.id}/reactions`).reply(201, {});
    asApp(api)
      .get(`${REPO}/issues/${p.issue.number}/comments`)
      .query({ per_page: 100, since: created })
      .reply(200, [])
      .post(`${REPO}/issues/${p.issue.number}/comments`)
      .reply(201, { id: 1 });
    await makeProbot().receive({ id: "since-1", name: "issue_comment", payload: p });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("where `since` is not honoured, reads the 3,000 comments from the newest page back: two reads, not thirty", async () => {
    const created = "2026-11-30T10:00:00Z";
    const p = comment("/explain-panic help", { created_at: created });
    const older = (n: number) =>
      Array.from({ length: 100 }, (_, i) => ({
        id: n * 1000 + i,
        body: "+1",
        user: { login: "bob", type: "User" },
        created_at: "2026-11-01T00:00:00Z",
      }));
    const newest = [...older(30).slice(0, 99), { ...older(30)[99]!, created_at: created, body: p.comment.body }];
    const last = `<https://api.github.com${REPO}/issues/${p.issue.number}/comments?per_page=100&since=${created}&page=30>; rel="last"`;
    const api = start().post(`${REPO}/issues/comments/${p.comment.id}/reactions`).reply(201, {});
    asApp(api)
      .get(`${REPO}/issues/${p.issue.number}/comments`)
      .query({ per_page: 100, since: created })
      .reply(200, older(1), { link: last })
      .get(`${REPO}/issues/${p.issue.number}/comments`)
      .query({ per_page: 100, since: created, page: 30 })
      .reply(200, newest)
      .post(`${REPO}/issues/${p.issue.number}/comments`)
      .reply(201, { id: 1 });
    await makeProbot().receive({ id: "since-2", name: "issue_comment", payload: p });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("costs nothing when there is no command, or the author is a bot, or it is our own reply", async () => {
    await makeProbot().receive({
      id: "4",
      name: "issue_comment",
      payload: comment("thanks! see `/explain-panic` docs"),
    });
    await makeProbot().receive({
      id: "5",
      name: "issue_comment",
      payload: comment("/explain-panic", { user: { login: "other[bot]", type: "Bot" } }),
    });
    await makeProbot().receive({
      id: "6",
      name: "issue_comment",
      payload: comment("<!-- burn-triage:command:1 -->\n/explain-panic"),
    });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("respects `allowed: collaborators`", async () => {
    const api = start("commands:\n  allowed: collaborators\n");
    await makeProbot().receive({
      id: "7",
      name: "issue_comment",
      payload: comment("/explain-panic", { author_association: "NONE" }),
    });
    expect(api.pendingMocks()).toEqual([]);
  });

  it("leaves alone a commenter in `ignore.users`: the config is read, nothing is written", async () => {
    const c = comment("/explain-panic");
    const api = start(`ignore:\n  users: [${c.comment.user.login}]\n`);
    const reaction = nock(API).post(`${REPO}/issues/comments/${c.comment.id}/reactions`).reply(201, {});
    await makeProbot().receive({ id: "7b", name: "issue_comment", payload: c });
    expect(api.pendingMocks()).toEqual([]);
    expect(reaction.isDone()).toBe(false);
  });

  it("a second command in the same issue within the cooldown is ignored", async () => {
    const first = comment("/explain-panic help");
    const second = { ...first, comment: { ...first.comment, id: first.comment.id + 5000 } };
    newComment(
      start().post(`${REPO}/issues/comments/${first.comment.id}/reactions`).reply(201, {}),
      first.issue.number,
    );
    const probot = makeProbot();
    await probot.receive({ id: "8", name: "issue_comment", payload: first });
    const api = start();
    await probot.receive({ id: "9", name: "issue_comment", payload: second });
    // The installation token is cached; the config read is the only call, then the cooldown stops it.
    expect(api.pendingMocks()).toEqual(["POST https://api.github.com:443/app/installations/42/access_tokens"]);
    // A redelivery of the first comment still gets through (and finds its reply in place).
    const again = start()
      .post(`${REPO}/issues/comments/${first.comment.id}/reactions`)
      .reply(200, {})
      .get(`${REPO}/issues/${first.issue.number}/comments`)
      .query({ per_page: 100 })
      .reply(200, [
        {
          id: 1,
          body: `<!-- burn-triage:command:${first.comment.id} -->\nold`,
          user: { login: "burn-triage[bot]", type: "Bot" },
        },
      ])
      .patch(`${REPO}/issues/comments/1`)
      .reply(200, {});
    await probot.receive({ id: "8", name: "issue_comment", payload: first });
    expect(again.pendingMocks()).toEqual(["POST https://api.github.com:443/app/installations/42/access_tokens"]);
  });
});
