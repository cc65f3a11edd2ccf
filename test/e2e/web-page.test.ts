// The web page (web/, built into dist/web/ by `npm run build`) in a real headless Chromium, served
// from loopback with every other request refused: each issue fixture pasted gives the comment
// `burn-triage explain --offline` prints for the same text (both as HTML from the same Markdown),
// a diff the comment carries comes with a copy button, the page's link reproduces the answer,
// and no request leaves the page's origin.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { commentHtml, issueText } from "../../web/src/answer.js";
import { issueFiles, root } from "../helpers/fixtures.js";
import { browserPath, requireOrSkip } from "../helpers/services.js";
import { CHROMIUM_FLAGS } from "../support/chromium.js";
import { type StaticServer, serveStatic } from "../support/static-server.js";

const CHROMIUM = browserPath();
const maybe = requireOrSkip(CHROMIUM, "a Chromium browser (Debian package chromium; .ci/run installs it)");
const WEB = join(root, "dist", "web");
const CLI = join(root, "dist", "cli", "cli.js");

/** What `burn-triage explain --offline --json` answers for a file. */
function cliComment(path: string): string | null {
  const out = execFileSync(process.execPath, [CLI, "explain", "--offline", "--json", path], { encoding: "utf8" });
  return (JSON.parse(out) as { comment: string | null }).comment;
}

/** The page's answer after pasting: its HTML without the page's own copy buttons. */
async function paste(page: Page, output: string, manifest = ""): Promise<string | null> {
  const before = Number((await page.getAttribute("body", "data-answered")) ?? 0);
  await page.fill("#output", output);
  await page.fill("#manifest", manifest);
  await page.click("#explain");
  await page.waitForFunction((n) => Number(document.body.dataset.answered ?? 0) > n, before);
  return answerHtml(page);
}

const answerHtml = (page: Page) =>
  page.$eval("#answer", (el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const b of copy.querySelectorAll("button.copy")) b.remove();
    return (el as HTMLElement).hidden ? null : copy.innerHTML;
  });

/** `html` as the browser serializes it, so that the comparison is of the same document. */
const asBrowserWrites = (page: Page, html: string) =>
  page.evaluate((h) => {
    const t = document.createElement("template");
    t.innerHTML = h;
    return t.innerHTML;
  }, html);

maybe("the web page in headless Chromium", () => {
  let server: StaticServer;
  let context: BrowserContext;
  let profile: string;
  let origin: string;
  const elsewhere: string[] = [];
  const seen: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(WEB, "index.html")) || !existsSync(CLI)) throw new Error("run `npm run build` first");
    server = await serveStatic(WEB);
    origin = new URL(server.url).origin;
    profile = mkdtempSync(join(tmpdir(), "burn-triage-web-"));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM!, args: CHROMIUM_FLAGS });
    // Everything not on the page's origin is refused, and recorded: none may be attempted.
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    context.on("request", (r) => seen.push(r.url()));
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function openPage(url = server.url): Promise<Page> {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.ready !== undefined);
    return page;
  }

  it("answers every issue fixture as explain does, with the diff and a link that reproduces it", async () => {
    const page = await openPage();
    let diffs = 0;
    for (const file of issueFiles()) {
      const path = join(root, "fixtures", "issues", file);
      const text = readFileSync(path, "utf8");
      const expected = cliComment(path);
      const html = await paste(page, text);
      expect({ file, html }).toEqual({
        file,
        html: expected === null ? null : await asBrowserWrites(page, commentHtml(expected)),
      });
      if (expected?.includes("```diff")) {
        diffs++;
        expect(
          await page.$$eval("#answer pre:has(> code.language-diff) + button.copy", (e) => e.length),
        ).toBeGreaterThan(0);
      }
      const link = await page.inputValue("#share");
      expect(link.startsWith(`${server.url}#v1=`)).toBe(true);
      const again = await context.newPage();
      await again.goto(link);
      await again.waitForFunction(() => document.body.dataset.answered !== undefined);
      expect({ file, html: await answerHtml(again) }).toEqual({ file, html });
      await again.close();
    }
    expect(diffs).toBeGreaterThan(0);
    await page.close();
  }, 300_000);

  it("answers a pasted Cargo.toml as an issue showing it would be answered, with its why", async () => {
    const page = await openPage();
    const output = readFileSync(join(root, "fixtures", "issues", "pos-title-only.md"), "utf8");
    const manifest = readFileSync(join(root, "fixtures", "manifests", "git-rev.toml"), "utf8");
    const dir = mkdtempSync(join(tmpdir(), "burn-triage-web-"));
    try {
      writeFileSync(join(dir, "issue.md"), issueText(output, manifest));
      const expected = cliComment(join(dir, "issue.md"));
      expect(await paste(page, output, manifest)).toEqual(await asBrowserWrites(page, commentHtml(expected!)));
      expect(await page.textContent("#why")).toMatch(/burn-dispatch\/autodiff: (on|off)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.close();
  }, 60_000);

  it("shows pasted text as text, and its policy refuses other origins before any request", async () => {
    const page = await openPage();
    await paste(page, "thread 'main' panicked at <img src=x onerror=alert(1)> <script>alert(2)</script>");
    expect(await page.$$eval("#answer img, #answer script, #why img", (e) => e.length)).toBe(0);
    const refused = await page.evaluate(() =>
      fetch("https://index.crates.io/config.json").then(
        () => "fetched",
        () => "refused",
      ),
    );
    expect(refused).toBe("refused");
    await page.close();
    expect(elsewhere).toEqual([]);
    expect(seen.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    // The data came lazily: the base file once per page, and only releases some answer read.
    expect(server.requests.filter((p) => p.startsWith("/data/release-")).length).toBeGreaterThan(0);
  }, 60_000);
});
