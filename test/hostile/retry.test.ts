// A retry runs minutes after the delivery that failed: it must answer what is there now.
import { describe, expect, it } from "@jest/globals";
import { freshen } from "../../src/handlers/guard.js";

const repository = { owner: { login: "o" }, name: "r" };
function octokit(answers: { issue?: object; pull?: object; comment?: object; status?: number }) {
  const answer = (data: object | undefined) => async () => {
    if (answers.status) throw Object.assign(new Error("gone"), { status: answers.status });
    return { data };
  };
  return {
    rest: {
      issues: { get: answer(answers.issue), getComment: answer(answers.comment) },
      pulls: { get: answer(answers.pull) },
    },
  } as never;
}

describe("freshen", () => {
  it("replaces the issue with GitHub's current copy (the edit that removed the panic wins)", async () => {
    const payload = { repository, issue: { number: 1, body: "not implemented: Requires `autodiff` feature" } };
    expect(await freshen(octokit({ issue: { number: 1, body: "never mind, fixed" } }), payload)).toBe(true);
    expect(payload.issue.body).toBe("never mind, fixed");
  });

  it("a deleted comment or issue ends the retry", async () => {
    expect(await freshen(octokit({ status: 404 }), { repository, issue: { number: 1 }, comment: { id: 5 } })).toBe(
      false,
    );
    expect(await freshen(octokit({ status: 410 }), { repository, issue: { number: 1 } })).toBe(false);
  });

  it("a pull request whose head moved is left to the newer push's delivery", async () => {
    expect(
      await freshen(octokit({ pull: { head: { sha: "new" } } }), {
        repository,
        pull_request: { number: 2, head: { sha: "old" } },
      }),
    ).toBe(false);
    expect(
      await freshen(octokit({ pull: { head: { sha: "old" }, title: "t" } }), {
        repository,
        pull_request: { number: 2, head: { sha: "old" } },
      }),
    ).toBe(true);
  });

  it("other failures are failures (the retry is scheduled again), not silence", async () => {
    await expect(freshen(octokit({ status: 502 }), { repository, issue: { number: 1 } })).rejects.toThrow("gone");
  });
});
