// The real server answers an issue delivery the plan ignores before Probot takes it, and still
// logs the request as Probot's server does; every other delivery is Probot's, as before.
import { describe, expect, it } from "@jest/globals";
import { payload } from "../helpers/probot.js";
import { deliver, until, untilDone, withServers } from "../helpers/server.js";
import { webhook } from "../support/scenario.js";

describe("end to end: the early answer", () => {
  // Debug level: Probot logs `issues event received (id: …)` for each delivery it takes.
  const stack = withServers(1, { LOG_LEVEL: "debug" });
  const lines = (id: string) =>
    stack.servers[0]!.output()
      .split("\n")
      .filter((l) => l.includes(id));

  it("answers a non-matching issue itself: 200, Probot's request log line, no API call", async () => {
    const before = stack.fake.calls.length;
    const res = await deliver(stack.servers[0]!, "issues", payload("issues.opened.unrelated"), { id: "early-e2e-1" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok\n");
    await until(() => lines("early-e2e-1").some((l) => l.includes("POST /api/github/webhooks 200")));
    expect(lines("early-e2e-1").filter((l) => l.includes("answered before Probot's context"))).toHaveLength(1);
    expect(lines("early-e2e-1").filter((l) => l.includes("event received"))).toEqual([]);
    expect(stack.fake.calls.length).toBe(before);
  });

  it("leaves an issue with a panic to Probot, which answers it", async () => {
    const res = await deliver(stack.servers[0]!, "issues", webhook("issues.opened"), { id: "early-e2e-2" });
    expect(res.status).toBe(200);
    await untilDone(stack.servers[0]!, "early-e2e-2");
    expect(lines("early-e2e-2").filter((l) => l.includes("issues event received"))).toHaveLength(1);
    expect(lines("early-e2e-2").filter((l) => l.includes("answered before Probot's context"))).toEqual([]);
    expect(stack.fake.comments).toHaveLength(1);
  });

  it("leaves a forged delivery to Probot, which refuses it", async () => {
    const res = await deliver(stack.servers[0]!, "issues", payload("issues.opened.unrelated"), {
      id: "early-e2e-3",
      secret: "forged",
    });
    expect(res.status).toBe(400);
    expect(lines("early-e2e-3").filter((l) => l.includes("answered before Probot's context"))).toEqual([]);
  });
});
