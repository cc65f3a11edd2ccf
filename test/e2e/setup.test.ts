// One-click registration, as a new user does it: `npm start` without credentials serves
// Probot's setup page; a real browser presses "Register GitHub App"; the (fake) GitHub receives
// the manifest, redirects back with a code; Probot exchanges it and writes .env; a restarted
// server then accepts webhooks signed with the new secret.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { load } from "js-yaml";
import { chromium } from "playwright-core";
import { ISSUE_MARKER } from "../../src/render/issue.js";
import { root } from "../helpers/fixtures.js";
import { privateKey } from "../helpers/probot.js";
import { deliver, type RunningServer, startServer, until } from "../helpers/server.js";
import { browserPath, requireOrSkip } from "../helpers/services.js";
import { type FakeSmee, startFakeSmee } from "../helpers/smee.js";
import { CHROMIUM_FLAGS } from "../support/chromium.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { webhook } from "../support/scenario.js";

const CHROMIUM = browserPath();
const maybe = requireOrSkip(CHROMIUM, "a Chromium browser (Debian package chromium; .ci/run installs it)");
const OUTPUT_DIR = join(root, "test-output");

maybe("registering the app from app.yml through Probot's setup page", () => {
  let fake: FakeGitHub;
  let smee: FakeSmee;
  let dir: string;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    fake = await startFakeGitHub({});
    fake.registration = { id: 4242, slug: "burn-triage", pem: privateKey, webhookSecret: "secret-from-registration" };
    smee = await startFakeSmee();
    // A checkout of the app with nothing configured: app.yml and package.json, no .env.
    dir = mkdtempSync(join(tmpdir(), "burn-triage-setup-"));
    for (const f of ["app.yml", "package.json"]) writeFileSync(join(dir, f), readFileSync(join(root, f)));
    for (const d of ["lib", "node_modules"]) symlinkSync(join(root, d), join(dir, d), "dir");
    mkdirSync(OUTPUT_DIR, { recursive: true });
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await smee?.close();
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("posts the manifest of app.yml, writes .env from the code exchange, and the restarted app accepts signed webhooks", async () => {
    const setup = await startServer(fake, { WEBHOOK_PROXY_URL: smee.url }, { cwd: dir, credentials: false });
    servers.push(setup);
    const browser = await chromium.launch({
      executablePath: CHROMIUM!,
      args: CHROMIUM_FLAGS,
    });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${setup.url}/probot`);
      await page.screenshot({ path: join(OUTPUT_DIR, "setup-page.png"), fullPage: true });
      // The form opens GitHub in a new tab (target=_blank).
      const [github] = await Promise.all([context.waitForEvent("page"), page.click("#manifest")]);
      await github.waitForURL(/\/apps\/burn-triage\/installations\/new$/, { timeout: 15000 });
      expect(await github.textContent("h1")).toBe("Install burn-triage");
    } finally {
      await browser.close();
    }

    // What GitHub received is app.yml, whole, plus what Probot adds.
    expect(fake.manifests).toHaveLength(1);
    const manifest = fake.manifests[0] as Record<string, unknown>;
    const appYml = load(readFileSync(join(root, "app.yml"), "utf8")) as Record<string, unknown>;
    for (const key of ["name", "description", "url", "public", "default_events", "default_permissions"])
      expect(manifest[key]).toEqual(appYml[key]);
    expect(manifest.hook_attributes).toEqual({ url: smee.url });
    expect(manifest.redirect_url).toBe(`${setup.url}/probot/setup`);
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toContain(
      "POST /app-manifests/fake-manifest-code/conversions",
    );

    const env = readFileSync(join(dir, ".env"), "utf8");
    expect(env).toMatch(/^APP_ID=4242$/m);
    expect(env).toMatch(/^WEBHOOK_SECRET=secret-from-registration$/m);
    expect(env).toContain("PRIVATE_KEY=");
    await setup.stop();

    // Restarted with nothing but that .env: the new secret is accepted, any other refused, and
    // the new key signs the installation-token request.
    const app = await startServer(fake, {}, { cwd: dir, credentials: false });
    servers.push(app);
    expect((await deliver(app, "issues", webhook("issues.opened"), { secret: "e2e-webhook-secret" })).status).toBe(400);
    expect(
      (await deliver(app, "issues", webhook("issues.opened"), { secret: "secret-from-registration" })).status,
    ).toBe(200);
    await until(() => fake.comments.length === 1);
    expect(fake.comments[0]!.body.startsWith(ISSUE_MARKER)).toBe(true);
    expect(existsSync(join(OUTPUT_DIR, "setup-page.png"))).toBe(true);
  }, 60000);
});
