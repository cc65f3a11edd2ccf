// `/explain-panic` on an issue that thousands of others commented on costs what it costs on a
// quiet one, give or take two reads: the bot looks for its reply among comments written since
// the command, newest page first (against the fake GitHub, which pages and honours `since`).
import { afterEach, describe, expect, it } from "@jest/globals";
import app from "../../src/index.js";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.js";
import { offlineProbot, webhook } from "../support/scenario.js";

let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const COMMAND_AT = "2026-06-01T12:00:00Z";

async function explain(others: number, earlierAnswer: boolean): Promise<number> {
  fake = await startFakeGitHub({});
  const t0 = Date.parse("2026-05-01T00:00:00Z");
  for (let i = 0; i < others; i++) {
    const at = new Date(t0 + i * 60_000).toISOString();
    fake.comments.push({
      id: 100_000 + i,
      body: `me too ${i}`,
      user: { login: `person${i}`, type: "User" },
      issue: 9,
      created_at: at,
      updated_at: at,
    });
  }
  if (earlierAnswer)
    fake.comments.push({
      id: 99_999,
      body: "<!-- burn-triage:command -->\nan earlier answer",
      user: { login: "burn-triage[bot]", type: "Bot" },
      performed_via_github_app: { id: 1, slug: "burn-triage" },
      issue: 9,
      created_at: "2026-05-20T00:00:00Z",
      updated_at: "2026-05-20T00:00:00Z",
    });
  const payload = webhook("issue_comment.created");
  payload.comment.created_at = COMMAND_AT;
  payload.comment.updated_at = COMMAND_AT;
  const probot = offlineProbot({ baseUrl: fake.apiUrl });
  probot.load(app);
  await probot.receive({ id: "c-1", name: "issue_comment", payload });
  expect(fake.comments.filter((c) => c.user.login === "burn-triage[bot]" && c.created_at! > COMMAND_AT)).toHaveLength(
    1,
  );
  return fake.calls.filter((c) => !c.path.includes("/access_tokens") && c.path !== "/app").length;
}

describe("/explain-panic among others' comments", () => {
  it("3,000 comments by others cost at most two more calls, with or without an earlier answer of the bot's", async () => {
    const quiet = await explain(0, false);
    await fake!.close();
    const crowded = await explain(3000, false);
    await fake!.close();
    const answeredBefore = await explain(3000, true);
    expect(crowded).toBeLessThanOrEqual(quiet + 2);
    expect(answeredBefore).toBeLessThanOrEqual(quiet + 2);
  });
});
