import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { snapshot } from "../../src/cargo/index/registry.js";
import { fixture, root } from "../helpers/fixtures.js";
import { API, github, newComment, noConfig, REPO } from "../helpers/nock.js";
import { makeProbot, payload } from "../helpers/probot.js";
import { fakeIndexFiles } from "../support/fake-index.js";

// An issue from a burn release newer than the bundled data: the feature graph comes from the
// (faked) crates.io index, the line from burn's source read at the release's tag.
const INDEX = "https://index.example.test";
const SOURCE = "/repos/tracel-ai/burn/contents/crates%2Fburn-dispatch%2Fsrc%2Fbackend.rs";
const file = fixture("burn-src/v0.22.1/crates/burn-dispatch/src/backend.rs");
const files = fakeIndexFiles();
const body = [
  "Training crashes right away on 0.22.1:",
  "```",
  "thread 'main' panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.1/src/backend.rs:54:9:",
  "not implemented: Requires `autodiff` feature",
  "```",
  "```toml",
  "[dependencies]",
  'burn = { version = "0.22.1", default-features = false, features = ["std", "wgpu"] }',
  "```",
].join("\n");

function issue(text: string) {
  const p = payload("issues.opened");
  p.issue.body = text;
  return p;
}

/** A new issue 7 answered once (with its label), after the source read at `ref` answers `status`. */
function answeredAfterRead(ref: string, status: number, seen: (body: string) => void) {
  return newComment(noConfig(github()), 7, seen)
    .get(SOURCE)
    .query({ ref })
    .reply(status, status === 200 ? file : { message: "Bad Gateway" }, {
      "content-type": status === 200 ? "text/plain; charset=utf-8" : "application/json",
    })
    .post(`${REPO}/issues/7/labels`)
    .reply(200, []);
}

function serveIndex() {
  return nock(INDEX)
    .get(/\/bu\/rn\/burn.*/)
    .times(200)
    .reply(
      200,
      (uri: unknown) =>
        files.get(
          String(typeof uri === "string" ? uri : (uri as Request).url)
            .split("/")
            .at(-1)!,
        ) ?? "",
    );
}

describe("a release newer than the bundled data", () => {
  beforeEach(() => {
    nock.disableNetConnect();
    process.env.CRATES_INDEX_URL = INDEX;
  });
  afterEach(() => {
    nock.cleanAll();
    process.env.CRATES_INDEX_URL = "off";
  });
  afterAll(() => nock.restore());

  it("resolves on 0.22.1's own graph and links the line read from the v0.22.1 tag", async () => {
    serveIndex();
    let posted = "";
    const api = answeredAfterRead("v0.22.1", 200, (b) => (posted = b));
    const probot = makeProbot();
    await probot.receive({ id: "nr1", name: "issues", payload: issue(body) });
    expect(api.pendingMocks()).toEqual([]);
    expect(posted).toContain(
      "(https://github.com/tracel-ai/burn/blob/v0.22.1/crates/burn-dispatch/src/backend.rs#L54)",
    );
    expect(posted).toContain("read from burn's source at `v0.22.1`");
    expect(posted).toContain("Verified on burn `0.22.1`</summary>\n\n<sub>Its feature graph from crates.io's index:");
    expect(posted).toContain(
      '+burn = { version = "0.22.1", default-features = false, features = ["std", "wgpu", "autodiff"] }',
    );
    // A file at a tag never changes: the next delivery to this app does not read it again (the
    // token and the app's identity are cached too).
    nock.cleanAll();
    serveIndex();
    let second = "";
    const again = noConfig(nock(API))
      .get(`${REPO}/issues/7/comments`)
      .query({ per_page: 100 })
      .reply(200, [])
      .post(`${REPO}/issues/7/comments`, (b: { body: string }) => {
        second = b.body;
        return true;
      })
      .reply(201, { id: 2 })
      .post(`${REPO}/issues/7/labels`)
      .reply(200, []);
    const unmatched: string[] = [];
    const onNoMatch = (req: Request) => {
      unmatched.push(String(req.url));
    };
    nock.emitter.on("no match", onNoMatch);
    await probot.receive({ id: "nr1b", name: "issues", payload: issue(body) });
    nock.emitter.removeListener("no match", onNoMatch);
    expect(again.pendingMocks()).toEqual([]);
    expect(unmatched).toEqual([]);
    expect(second).toContain("read from burn's source at `v0.22.1`");
  });

  it("a failed source read still answers, linking the printed line; a non-matching issue reads nothing", async () => {
    serveIndex();
    let posted = "";
    const api = answeredAfterRead("v0.23.0-pre.1", 502, (b) => (posted = b));
    await makeProbot().receive({
      id: "nr2",
      name: "issues",
      payload: issue(body.replaceAll("0.22.1", "0.23.0-pre.1")),
    });
    expect(api.pendingMocks()).toEqual([]);
    expect(posted).toContain("blob/v0.23.0-pre.1/crates/burn-dispatch/src/backend.rs#L54");
    expect(posted).toContain("the link follows your backtrace's line");

    nock.cleanAll();
    const index = serveIndex();
    await makeProbot().receive({ id: "nr3", name: "issues", payload: payload("issues.opened.unrelated") });
    expect(index.isDone()).toBe(false);
    expect(nock.pendingMocks().every((m) => m.startsWith("GET https://index.example.test"))).toBe(true);
  });

  it("the index down: the bundled data, said as assumed, and no read for a release the data has", async () => {
    // Another URL: the index of the tests above is still fresh in this process's cache.
    process.env.CRATES_INDEX_URL = "https://index-down.example.test";
    nock("https://index-down.example.test").get(/.*/).times(200).reply(503);
    let posted = "";
    const known = body.replaceAll("0.22.1", "0.22.0-pre.2").replace(":54:9", ":824:9");
    const api = newComment(noConfig(github()), 7, (b) => (posted = b))
      .post(`${REPO}/issues/7/labels`)
      .reply(200, []);
    await makeProbot().receive({ id: "nr4", name: "issues", payload: issue(known) });
    expect(api.pendingMocks()).toEqual([]);
    expect(posted).toContain(`from ${snapshot("tags").label}`);
  });

  describe("a rustc error there: the gate is read from burn's source at the tag", () => {
    const compileBody = (version: string, use: string, features: string[]) =>
      [
        "Upgrading broke my build:",
        "```",
        `error[E0432]: unresolved import \`${use}\``,
        " --> src/main.rs:1:5",
        "  |",
        `1 | use ${use};`,
        `  |     ${"^".repeat(use.length)} no \`${use.split("::").at(-1)}\` in \`backend\``,
        "```",
        "```toml",
        "[dependencies]",
        `burn = { version = "${version}", default-features = false, features = ${JSON.stringify(features).replace(/,/g, ", ")} }`,
        "```",
      ].join("\n");

    /** burn's files at the faked tag through the contents API (404 for what the tag lacks); the paths read, in order. */
    function serveSource(ref: string, read: string[]) {
      return nock(API)
        .get(/^\/repos\/tracel-ai\/burn\/contents\//)
        .query({ ref })
        .times(20)
        .reply((req: unknown) => {
          const url = new URL(typeof req === "string" ? req : (req as Request).url, API);
          const path = decodeURIComponent(url.pathname.replace("/repos/tracel-ai/burn/contents/", ""));
          read.push(path);
          const file = join(root, "fixtures/burn-src", ref, path);
          return existsSync(file)
            ? [200, readFileSync(file, "utf8"), { "content-type": "text/plain; charset=utf-8" }]
            : [404, { message: "Not Found" }];
        });
    }

    /** Issue 7 opened with that error at `version`: answered once with its label, and the burn files read. */
    async function answered(id: string, version: string, use: string, features: string[]) {
      serveIndex();
      const read: string[] = [];
      serveSource(`v${version}`, read);
      let posted = "";
      const api = newComment(noConfig(github()), 7, (b) => (posted = b))
        .post(`${REPO}/issues/7/labels`)
        .reply(200, []);
      await makeProbot().receive({ id, name: "issues", payload: issue(compileBody(version, use, features)) });
      expect(api.pendingMocks()).toEqual([]);
      return { posted, read };
    }

    it("0.22.1: the few files on the path, each once, and the verified edit on 0.22.1's graph", async () => {
      const { posted, read } = await answered("nr5", "0.22.1", "burn::backend::Wgpu", ["std"]);
      expect(read).toEqual([
        "crates/burn/src/lib.rs",
        "crates/burn-core/src/lib.rs",
        "crates/burn-core/src/backend.rs",
        "crates/burn-core/src/backend/mod.rs",
        "crates/burn-dispatch/src/lib.rs",
      ]);
      expect(posted).toContain("(https://github.com/tracel-ai/burn/blob/v0.22.1/crates/burn-dispatch/src/lib.rs#L26)");
      expect(posted).toContain("Gates read from burn's source at `v0.22.1`.");
      expect(posted).toContain(
        '+burn = { version = "0.22.1", default-features = false, features = ["std", "extension", "wgpu"] }',
      );
    });

    it("0.23.0-pre.1: NdArray is gone there; the comment says so and proposes no feature", async () => {
      const { posted, read } = await answered("nr6", "0.23.0-pre.1", "burn::backend::NdArray", ["std", "ndarray"]);
      expect(read.length).toBeLessThanOrEqual(10);
      expect(read).toContain("crates/burn-dispatch/src/backend.rs");
      expect(posted).toContain("### `burn::backend::NdArray` does not exist in burn 0.23.0-pre.1");
      expect(posted).toContain("no cargo feature brings it back");
      expect(posted).not.toContain("```diff");
    });
  });
});
