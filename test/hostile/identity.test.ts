// In an Action, who the bot is decides which comment it edits: a wrong guess is a second comment.
import { describe, expect, it } from "@jest/globals";
import { authoredBy, identityResolver } from "../../src/github/identity.js";

function octokit(...answers: Array<{ status: number; login?: string }>) {
  const calls: string[] = [];
  const request = async (route: string) => {
    calls.push(route);
    const a = answers.shift() ?? { status: 500 };
    if (a.status !== 200) throw Object.assign(new Error(`status ${a.status}`), { status: a.status });
    return { data: { login: a.login } };
  };
  return { octokit: { request } as never, calls };
}

describe("the Action's identity", () => {
  it("another app's installation token (GET /user refused) owns app-written marked comments, never a person's", async () => {
    const { octokit: o } = octokit({ status: 403 });
    const who = await identityResolver("action")(o);
    expect(
      authoredBy(who, { user: { login: "other-app[bot]", type: "Bot" }, performed_via_github_app: { id: 999 } }),
    ).toBe(true);
    expect(
      authoredBy(who, { user: { login: "github-actions[bot]", type: "Bot" }, performed_via_github_app: { id: 15368 } }),
    ).toBe(true);
    expect(authoredBy(who, { user: { login: "mallory", type: "User" } })).toBe(false);
  });

  it("a personal token whose GET /user fails once is asked again, not replaced by a guess", async () => {
    const { octokit: o, calls } = octokit({ status: 502 }, { status: 200, login: "maintainer" });
    const who = await identityResolver("action")(o);
    expect(who).toEqual({ appId: null, login: "maintainer" });
    expect(calls).toHaveLength(2);
    expect(
      authoredBy(who, { user: { login: "github-actions[bot]", type: "Bot" }, performed_via_github_app: { id: 15368 } }),
    ).toBe(false);
  });

  it("a GET /user that keeps failing fails the run", async () => {
    const { octokit: o } = octokit({ status: 502 }, { status: 502 });
    await expect(identityResolver("action")(o)).rejects.toThrow("status 502");
  });
});
