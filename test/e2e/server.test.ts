import { describe, expect, it } from "@jest/globals";
import { ISSUE_MARKER } from "../../src/render/issue.js";
import { deliver, until, withServers } from "../helpers/server.js";
import { webhook } from "../support/scenario.js";

// The real server process, real HTTP, real signatures, a fake GitHub on loopback.
describe("end to end: the real server", () => {
  const stack = withServers(1);

  it("answers a signed issue delivery with exactly the expected API calls", async () => {
    const res = await deliver(stack.servers[0]!, "issues", webhook("issues.opened"));
    expect(res.status).toBe(200);
    await until(() => stack.fake.labels.length === 1);
    expect(stack.fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /app/installations/42/access_tokens",
      "GET /repos/alice/mnist-demo/contents/.github%2Fburn-triage.yml",
      "GET /repos/alice/.github/contents/.github%2Fburn-triage.yml",
      "GET /app",
      "GET /repos/alice/mnist-demo/issues/7/comments?per_page=100",
      "POST /repos/alice/mnist-demo/issues/7/comments",
      "POST /repos/alice/mnist-demo/issues/7/labels",
    ]);
    expect(stack.fake.comments).toHaveLength(1);
    expect(stack.fake.comments[0]!.body.startsWith(ISSUE_MARKER)).toBe(true);
    expect(stack.fake.comments[0]!.body).toContain('features = ["std", "wgpu", "dataset", "autodiff"]');
  });

  it("rejects a forged signature with 400 and makes no API call", async () => {
    const before = stack.fake.calls.length;
    const res = await deliver(stack.servers[0]!, "issues", webhook("issues.opened"), { secret: "not-the-secret" });
    // Probot verifies the signature before any handler is called: the 400 is the whole answer.
    expect(res.status).toBe(400);
    expect(stack.fake.calls.length).toBe(before);
  });

  it("reviews a pull request with a suggestion on the changed line", async () => {
    const res = await deliver(stack.servers[0]!, "pull_request", webhook("pull_request.opened"));
    expect(res.status).toBe(200);
    await until(() => stack.fake.reviews.length === 1);
    const review = stack.fake.reviews[0]!;
    expect(review.comments).toEqual([
      expect.objectContaining({ path: "Cargo.toml", line: 7, body: expect.stringContaining("```suggestion") }),
    ]);
    expect(stack.fake.checkRuns).toHaveLength(1);
  });

  it("never logs the private key or the webhook secret", () => {
    const out = stack.servers[0]!.output();
    expect(out.length).toBeGreaterThan(0);
    expect(out).not.toContain("BEGIN RSA PRIVATE KEY");
    expect(out).not.toContain("e2e-webhook-secret");
    expect(out).not.toContain("ghs_fake_");
  });
});
