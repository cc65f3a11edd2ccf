// `npm run demo`: replays the fixture webhooks through the real app against an in-process
// recording fake of the GitHub API, and prints what the bot would post. Fully offline.
import app from "../../src/index.js";
import { startFakeGitHub } from "./fake-github.js";
import { DEMO_EVENTS, offlineProbot, scenarioRepo, webhook } from "./scenario.js";

const rule = (title: string) => `\n${"━".repeat(8)} ${title} ${"━".repeat(Math.max(4, 70 - title.length))}\n`;

// The demo never leaves the machine: burn's feature graph comes from the bundled data.
process.env.CRATES_INDEX_URL = "off";

async function main() {
  const fake = await startFakeGitHub(scenarioRepo());
  const probot = offlineProbot({ baseUrl: fake.apiUrl, logLevel: "warn" });
  await probot.load(app);
  let seen = 0;
  for (const [i, step] of DEMO_EVENTS.entries()) {
    const before = fake.calls.length;
    const writesBefore = fake.writes().length;
    await probot.receive({ id: `demo-${i}`, name: step.event as "issues", payload: webhook(step.fixture) });
    const calls = fake.calls.slice(before).filter((c) => !c.path.includes("access_tokens"));
    process.stdout.write(rule(`${step.event} · ${step.fixture}`));
    process.stdout.write(
      `${step.note}\nGitHub API calls: ${calls.length} (${calls.map((c) => `${c.method} ${c.path.replace(/\?.*$/, "")}`).join(", ") || "none"})\n`,
    );
    for (const w of fake.writes().slice(writesBefore)) {
      const b = w.body as {
        body?: string;
        comments?: Array<{ path: string; line: number; body: string }>;
        name?: string;
        conclusion?: string;
        labels?: string[];
        content?: string;
      };
      if (b.labels) process.stdout.write(`\n→ label: ${b.labels.join(", ")}\n`);
      else if (b.content) process.stdout.write(`\n→ reaction: ${b.content}\n`);
      else if (b.name) process.stdout.write(`\n→ check run "${b.name}": ${b.conclusion}\n`);
      else if (b.body) {
        process.stdout.write(`\n→ ${w.method} ${w.path}\n\n${b.body}\n`);
        for (const c of b.comments ?? [])
          process.stdout.write(`\n  ↳ review comment on ${c.path}:${c.line}\n\n${c.body.replace(/^/gm, "    ")}\n`);
      }
    }
    seen += calls.length;
  }
  process.stdout.write(rule("done"));
  process.stdout.write(
    `${DEMO_EVENTS.length} deliveries, ${seen} GitHub API calls, ${fake.comments.length} comments, ${fake.reviews.length} review.\n`,
  );
  await fake.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
