// `npm run bench:web`: the web page (dist/web/, `npm run build` first) in the headless Chromium
// the end-to-end test drives, alone (never part of `npm run bench`'s other work): bytes a visit
// downloads (gzip, as GitHub Pages serves them), time from navigation to interactive, and time
// from pressing Explain to the answer shown. Writes its section of BENCHMARKS.md (between the
// web-page markers, which `npm run bench` keeps); `--screenshot FILE` also saves the page with
// an answer. Only the page's origin is reachable: anything else is refused and fails the run.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM_FLAGS } from "../test/support/chromium.js";
import { projectRoot } from "../test/support/root.js";
import { serveStatic } from "../test/support/static-server.js";
import { writeBenchSection } from "./section.js";

const HEADING = "## The web page";

const root = projectRoot(import.meta.url);
const WEB = join(root, "dist", "web");
const LOADS = 9;
/** Fresh pages per issue, and answers again on each after its first. */
const PAGES = 5;
const ANSWERS = 5;
/** An issue of each kind the page answers: a panic with its manifest, a compile error, a misuse. */
const ISSUES = ["pos-registry-backtrace.md", "neg-compile-error-021.md", "pos-misuse-wrong-backend.md"];

const PANIC = [
  "thread 'main' panicked at /home/me/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/backend.rs:824:9:",
  "not implemented: Requires `autodiff` feature",
  "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
].join("\n");

const kb = (n: number) => Math.round(n / 102.4) / 10;
const gz = (file: string) => gzipSync(readFileSync(join(WEB, file))).length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;

function weights() {
  const first = ["index.html", "style.css", "app.js"].map(gz).reduce((a, b) => a + b, 0);
  const base = gz("data/base.json");
  const releases = readdirSync(join(WEB, "data"))
    .filter((f) => f.startsWith("release-"))
    .map((f) => gz(`data/${f}`));
  return { first, base, releaseMedian: median(releases), releaseMax: Math.max(...releases), releases: releases.length };
}

async function paste(page: Page, text: string): Promise<number> {
  const before = Number((await page.getAttribute("body", "data-answered")) ?? 0);
  await page.fill("#output", text);
  await page.click("#explain");
  await page.waitForFunction((n) => Number(document.body.dataset.answered ?? 0) > n, before);
  return Number(await page.getAttribute("body", "data-answer-ms"));
}

async function main(): Promise<void> {
  const shot = process.argv.indexOf("--screenshot");
  const server = await serveStatic(WEB);
  const origin = new URL(server.url).origin;
  const profile = mkdtempSync(join(tmpdir(), "burn-triage-web-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    args: CHROMIUM_FLAGS,
  });
  const refused: string[] = [];
  await context.route("**/*", (r) => {
    if (new URL(r.request().url()).origin === origin) return r.continue();
    refused.push(r.request().url());
    return r.abort();
  });
  try {
    const ready: number[] = [];
    const warmed: number[] = [];
    const first: Record<string, number> = {};
    const warm: Record<string, number> = {};
    for (let i = 0; i < LOADS; i++) {
      // A fresh page; routing every request (above) keeps the browser's cache out, so each load fetches everything.
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => document.body.dataset.ready !== undefined);
      ready.push(Number(await page.getAttribute("body", "data-ready")));
      await page.waitForFunction(() => document.body.dataset.warm !== undefined);
      warmed.push(Number(await page.getAttribute("body", "data-warm")));
      await page.close();
    }
    // Each issue on a page of its own: its first answer pays for what it is first to read (a
    // release's index lines, the gated map) and for code the browser has not compiled yet.
    let page: Page | undefined;
    for (const issue of ISSUES) {
      const text = readFileSync(join(root, "fixtures", "issues", issue), "utf8");
      const firsts: number[] = [];
      const times: number[] = [];
      for (let p = 0; p < PAGES; p++) {
        await page?.close();
        page = await context.newPage();
        await page.goto(server.url);
        await page.waitForFunction(() => document.body.dataset.warm !== undefined);
        firsts.push(await paste(page, text));
        for (let i = 0; i < ANSWERS; i++) times.push(await paste(page, text));
      }
      first[issue] = median(firsts);
      warm[issue] = median(times);
    }
    if (shot > 0 && page) {
      // The README's picture: a panic as users paste it, with their Cargo.toml.
      await page.fill("#manifest", readFileSync(join(root, "fixtures", "manifests", "examples-style.toml"), "utf8"));
      await paste(page, PANIC);
      await page.setViewportSize({ width: 900, height: 900 });
      await page.screenshot({ path: process.argv[shot + 1]!, fullPage: true });
    }
    if (refused.length) throw new Error(`the page asked for other origins: ${refused.join(", ")}`);
    write(weights(), median(ready), median(warmed), first, warm);
  } finally {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function write(
  w: ReturnType<typeof weights>,
  ready: number,
  warmed: number,
  first: Record<string, number>,
  warm: Record<string, number>,
) {
  const section = [
    HEADING,
    "",
    `Measured by \`npm run bench:web\` on ${new Date().toISOString().slice(0, 10)}: \`dist/web/\` served from loopback to headless Chromium (\`/usr/bin/chromium\`), every other origin refused (none was asked for); the machine's load average was ${loadavg()[0]!.toFixed(1)} when it finished (the first answer on a fresh page moves most with it). Sizes are gzip (level 6, what GitHub Pages sends), targets from issue 56: first load ≤ 400 KB compressed, answer ≤ 100 ms after the paste.`,
    "",
    "| what | figure |",
    "|---|---:|",
    `| first load: \`index.html\`, \`style.css\`, \`app.js\` | ${kb(w.first)} KB |`,
    `| data every answer reads (\`data/base.json\`, fetched on load) | ${kb(w.base)} KB |`,
    `| a first visit: both, before the first answer | ${kb(w.first + w.base)} KB |`,
    `| one burn release's index lines (fetched on the first answer that reads it; ${w.releases} files) | median ${kb(w.releaseMedian)} KB, largest ${kb(w.releaseMax)} KB |`,
    "",
    "Explain to the answer shown is measured in the page (`performance.now()` around the answer and its rendering). The first answer on a fresh page is measured after the page's warm-up (two sample answers it runs once interactive, so that the browser has compiled the core and read the gated map and the newest release's lines); it still fetches any other release it reads. An answer again on the same text reads nothing new.",
    "",
    "| what | figure |",
    "|---|---:|",
    `| load to interactive (navigation to the data read and Explain enabled; median of ${LOADS} loads) | ${round(ready)} ms |`,
    `| load to warmed up (two sample answers done, web/src/answer.ts \`warmUp\`) | ${round(warmed)} ms |`,
    ...ISSUES.map(
      (i) =>
        `| Explain to the answer shown, \`${i}\`: first on a fresh page (warmed; median of ${PAGES} pages) / again (median of ${PAGES * ANSWERS}) | ${round(first[i]!)} / ${round(warm[i]!)} ms |`,
    ),
    "",
  ].join("\n");
  writeBenchSection(HEADING, section);
  process.stdout.write(section);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
