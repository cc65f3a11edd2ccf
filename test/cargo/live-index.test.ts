import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { heldBytes, parseIndexFile } from "../../src/cargo/index/index-file.js";
import { LiveIndex } from "../../src/cargo/index/live-index.js";
import { DEFAULT_INDEX, indexUrl } from "../../src/cargo/index/live-registries.js";
import { snapshot } from "../../src/cargo/index/registry.js";
import { diagnose } from "../../src/cargo/judge/diagnose.js";
import { parseManifest } from "../../src/cargo/manifest/manifest.js";

const INDEX = "https://index.example.test";
const tags = snapshot("tags");
const file = (name: string) =>
  `${tags
    .versions(name)
    .map((l) => JSON.stringify(l))
    .join("\n")}\n`;
const burnCrates = [
  "burn",
  ...new Set(
    tags
      .versions("burn")
      .flatMap((l) => l.deps.map((d) => d.name))
      .filter((n) => n.startsWith("burn-")),
  ),
];

function serveAll(scope: nock.Scope, etag = '"v1"') {
  return (
    scope
      .get(/\/bu\/rn\/burn.*/)
      .times(200)
      // nock 15 hands a fetch Request (not a path string) to reply functions.
      .reply(
        200,
        (req: unknown) =>
          file(
            String(typeof req === "string" ? req : (req as Request).url)
              .split("/")
              .at(-1)!,
          ),
        { etag },
      )
  );
}

describe("live crates.io sparse index", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.restore());

  it("fetches burn and every burn crate it reaches, and resolves like the snapshot", async () => {
    serveAll(nock(INDEX));
    const r = await new LiveIndex({ baseUrl: INDEX }).registryFor(["burn"]);
    expect(r.fellBack).toEqual([]);
    expect(r.fetched).toBeGreaterThan(10);
    const m = parseManifest('[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false }\n');
    const d = diagnose(m, { registries: { tags: r.registry, main: snapshot("main") } });
    expect(d).toMatchObject({ verdict: "off", graphVersion: "0.22.0-pre.2" });
    expect(d.enablers).toContain("optim");
  });

  it("revalidates with If-None-Match and reuses a 304", async () => {
    serveAll(nock(INDEX));
    const index = new LiveIndex({ baseUrl: INDEX, freshMs: 0 });
    await index.registryFor(["burn"]);
    nock.cleanAll();
    nock(INDEX, { reqheaders: { "if-none-match": '"v1"' } })
      .get(/\/bu\/rn\/burn.*/)
      .times(200)
      .reply(304);
    const r = await index.registryFor(["burn"]);
    expect(r.fetched).toBe(0);
    expect(r.notModified).toBeGreaterThan(10);
    expect(r.registry.versions("burn")).toHaveLength(tags.versions("burn").length);
  });

  it("sends a mirror's credentials as a header, never in the URL or a reason it logs", async () => {
    const basic = `Basic ${Buffer.from("user:s3cret!").toString("base64")}`;
    const scope = nock(INDEX, { reqheaders: { authorization: basic } })
      .get("/bu/rn/burn")
      .reply(503, "unavailable");
    const withCreds = INDEX.replace("https://", "https://user:s3cret%21@");
    const r = await new LiveIndex({ baseUrl: withCreds }).registryFor(["burn"]);
    // Answered by the interceptor that wants the header: the credentials went as one.
    expect(r.reasons.burn).toBe("index answered 503");
    expect(scope.pendingMocks()).not.toContain(`GET ${INDEX}:443/bu/rn/burn`);
    expect(JSON.stringify(r.reasons)).not.toContain("s3cret");
  });

  it("falls back to the snapshot per crate on errors and timeouts", async () => {
    nock(INDEX)
      .get("/bu/rn/burn")
      .reply(500)
      .get(/\/bu\/rn\/burn-.*/)
      .times(200)
      .delay(500)
      .reply(200, "");
    const r = await new LiveIndex({ baseUrl: INDEX, timeoutMs: 100 }).registryFor(["burn"]);
    expect(r.fellBack).toContain("burn");
    expect(new Set(r.fellBack).size).toBe(r.fellBack.length);
    expect(r.registry.label).toBe(tags.label);
    expect(r.registry.versions("burn")).toEqual(tags.versions("burn"));
    // The interceptor still answers the aborted requests after its delay: let it, before the
    // next test's requests reach the same host (else the interceptor's late answers meet them).
    await new Promise((r) => setTimeout(r, 600));
  });

  it("backs off after a failure: the next events ask nothing until the backoff ends", async () => {
    let asked = 0;
    const down = (async () => {
      asked++;
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    const live = new LiveIndex({ baseUrl: INDEX, fetch: down, backoffMs: 60_000 });
    const first = await live.registryFor(["burn"]);
    expect(first.registry.label).toBe(tags.label);
    expect(asked).toBeLessThanOrEqual(8);
    const before = asked;
    const second = await live.registryFor(["burn"]);
    expect(asked).toBe(before);
    expect(second.registry.versions("burn")).toEqual(tags.versions("burn"));
  });

  it("names the one crate it had to take from the bundled data", async () => {
    // A 4xx on one file is that file's problem; a 5xx or a network error backs off the whole index.
    nock(INDEX).get("/bu/rn/burn-core").reply(403);
    serveAll(nock(INDEX));
    const r = await new LiveIndex({ baseUrl: INDEX }).registryFor(["burn"]);
    expect(r.fellBack).toEqual(["burn-core"]);
    expect(r.registry.label).toBe("crates.io's index (the bundled data for burn-core)");
  });

  it("fetches each crate once, at most 8 at a time, and counts the bytes", async () => {
    let inFlight = 0;
    let peak = 0;
    const asked: string[] = [];
    const fake = (async (url: string | URL | Request) => {
      const name = String(url).split("/").at(-1)!;
      asked.push(name);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return new Response(file(name), { status: 200 });
    }) as typeof fetch;
    const r = await new LiveIndex({ baseUrl: INDEX, fetch: fake }).registryFor(["burn"]);
    expect(new Set(asked).size).toBe(asked.length);
    expect(peak).toBeLessThanOrEqual(8);
    expect(peak).toBeGreaterThan(1);
    expect(r.bytes).toBe(asked.reduce((n, name) => n + Buffer.byteLength(file(name)), 0));
    const again = await new LiveIndex({ baseUrl: INDEX, fetch: fake }).registryFor(["burn"]);
    expect(again.fetched).toBe(r.fetched);
  });

  it("a crate whose read failed is unknown, never 'not part of the build'", async () => {
    // A release newer than the bundled data: burn 0.99.0 needs burn-dispatch 0.99.0, whose index
    // file cannot be read (and the bundled data has no such release).
    const pre2 = tags.versions("burn").find((l) => l.vers === "0.22.0-pre.2")!;
    const bump = (l: typeof pre2) => ({
      ...l,
      vers: "0.99.0",
      deps: l.deps.map((d) => (d.name.startsWith("burn-") ? { ...d, req: "=0.99.0" } : d)),
    });
    nock(INDEX)
      .get("/bu/rn/burn")
      .reply(200, `${file("burn")}${JSON.stringify(bump(pre2))}\n`)
      .get(/\/bu\/rn\/burn-.*/)
      .times(200)
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" });
    const r = await new LiveIndex({ baseUrl: INDEX }).registryFor(["burn"]);
    expect(r.fellBack).toContain("burn-dispatch");
    const m = parseManifest('[dependencies]\nburn = { version = "0.99.0", default-features = false }\n');
    const d = diagnose(m, { registries: { tags: r.registry, main: snapshot("main") } });
    expect(d.verdict).toBe("unknown-crate");
    expect(d.fix).toBeNull();
  });

  it("keeps at most 256 index files between events, whatever crates the issues name", async () => {
    const live = new LiveIndex({ baseUrl: INDEX, fetch: async () => new Response("", { status: 200 }) });
    for (let batch = 0; batch < 10; batch++)
      await live.registryFor(Array.from({ length: 60 }, (_, i) => `burn-x${batch}-${i}`));
    expect((live as unknown as { cache: { size: number } }).cache.size).toBe(256);
  });

  it("keeps index files by what their lines hold in memory, not by the bytes downloaded", async () => {
    // burn-core's file under many names: parsed, each holds more than it weighs as text.
    const core = file("burn-core");
    const live = new LiveIndex({
      baseUrl: INDEX,
      maxHeldBytes: 4 * 1024 * 1024,
      fetch: async (url) => {
        const name = String(url).split("/").at(-1)!;
        return new Response(core.replaceAll('"name":"burn-core"', `"name":"${name}"`));
      },
    });
    for (let i = 0; i < 40; i++) await live.registryFor([`burn-gen-${i}`]);
    const held = live.held();
    const one = heldBytes(parseIndexFile(core));
    expect(one).toBeGreaterThan(Buffer.byteLength(core));
    expect(held.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(held.files).toBe(Math.floor((4 * 1024 * 1024) / one));
  });

  it("covers the crates burn depends on", () => {
    expect(burnCrates).toContain("burn-core");
  });

  it("crates.io's index is the default; `off` keeps the bot offline", () => {
    expect(indexUrl({})).toBe("https://index.crates.io");
    expect(DEFAULT_INDEX).toBe("https://index.crates.io");
    expect(indexUrl({ CRATES_INDEX_URL: "" })).toBe(DEFAULT_INDEX);
    expect(indexUrl({ CRATES_INDEX_URL: "off" })).toBeNull();
    expect(indexUrl({ CRATES_INDEX_URL: "http://127.0.0.1:9/index" })).toBe("http://127.0.0.1:9/index");
  });
});
