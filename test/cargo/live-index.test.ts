import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { diagnose } from "../../src/cargo/diagnose.js";
import { LiveIndex } from "../../src/cargo/live-index.js";
import { parseManifest } from "../../src/cargo/manifest.js";
import { snapshot } from "../../src/cargo/registry.js";

const INDEX = "https://index.example.test";
const tags = snapshot("tags");
const file = (name: string) => `${tags.versions(name).map((l) => JSON.stringify(l)).join("\n")}\n`;
const burnCrates = ["burn", ...new Set(tags.versions("burn").flatMap((l) => l.deps.map((d) => d.name)).filter((n) => n.startsWith("burn-")))];

function serveAll(scope: nock.Scope, etag = '"v1"') {
  return scope
    .get(/\/bu\/rn\/burn.*/)
    .times(200)
    // nock 15 hands a fetch Request (not a path string) to reply functions.
    .reply(200, (req: unknown) => file(String(typeof req === "string" ? req : (req as Request).url).split("/").at(-1)!), { etag });
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

  it("falls back to the snapshot per crate on errors and timeouts", async () => {
    nock(INDEX).get("/bu/rn/burn").reply(500).get(/\/bu\/rn\/burn-.*/).times(200).delay(500).reply(200, "");
    const r = await new LiveIndex({ baseUrl: INDEX, timeoutMs: 100 }).registryFor(["burn"]);
    expect(r.fellBack).toContain("burn");
    expect(r.registry.label).toContain("snapshot for burn");
    expect(r.registry.versions("burn")).toEqual(tags.versions("burn"));
  });

  it("covers the crates burn depends on", () => {
    expect(burnCrates).toContain("burn-core");
  });
});
