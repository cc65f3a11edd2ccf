// The handler gathers and publishes what `planIssue` decides, and decides nothing itself: for each
// event below, the API calls it makes are exactly the ones the plan names.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { type IssuePlan, issueEvent, planIssue } from "../../src/answer/plan.js";
import { DEFAULTS, resolveConfig } from "../../src/config/config.js";
import { API, APP } from "../helpers/nock.js";
import { contentsBody, makeProbot, payload } from "../helpers/probot.js";

const MISUSE =
  "thread 'main' panicked at /home/q/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-dispatch-0.22.0-pre.2/src/macros.rs:1387:17:\nAutodiff float tensor is on the wrong backend (expected Cuda).\n";

interface Variant {
  name: string;
  edit: (p: ReturnType<typeof payload>) => void;
  config?: string;
}

const variants: Variant[] = [
  { name: "a matching issue with its manifest", edit: () => undefined },
  {
    name: "a matching issue without a manifest (the repository is read)",
    edit: (p) => {
      p.issue.body = "not implemented: Requires `autodiff` feature\n";
    },
  },
  {
    name: "a bot's issue",
    edit: (p) => {
      p.issue.user.type = "Bot";
    },
  },
  {
    name: "a locked issue",
    edit: (p) => {
      p.issue.locked = true;
    },
  },
  {
    name: "an unrelated issue",
    edit: (p) => {
      p.issue.body = "How do I save a model?";
    },
  },
  { name: "issues turned off", edit: () => undefined, config: "issues:\n  enabled: false\n" },
  {
    name: "an ignored label",
    edit: (p) => {
      p.issue.labels = [{ name: "wontfix" }];
    },
  },
  { name: "an ignored user", edit: () => undefined, config: "ignore:\n  users: [alice]\n" },
  {
    name: "the label already on",
    edit: (p) => {
      p.issue.labels = [{ name: "burn: feature off" }];
    },
  },
  {
    name: "repository reads turned off",
    edit: (p) => {
      p.issue.body = "not implemented: Requires `autodiff` feature\n";
    },
    config: "issues:\n  fetch_manifests: false\n",
  },
  {
    name: "a misuse panic (no label, no manifest)",
    edit: (p) => {
      p.issue.body = MISUSE;
    },
  },
];

/** Every request the handler made, as `METHOD path`, against a GitHub that answers everything. */
function recordingGitHub(configYaml: string | undefined): string[] {
  const seen: string[] = [];
  const scope = nock(API).persist();
  // nock hands the listener a fetch Request: its `url` is absolute.
  scope.on(
    "request",
    (req: { method: string; url: string }) =>
      void seen.push(`${req.method} ${decodeURIComponent(new URL(req.url).pathname)}`),
  );
  scope.post("/app/installations/42/access_tokens").reply(201, { token: "t", expires_at: "2099-01-01T00:00:00Z" });
  scope.get("/app").reply(200, APP);
  scope
    .get(/burn-triage\.yml/)
    .reply(configYaml ? 200 : 404, configYaml ? contentsBody(".github/burn-triage.yml", configYaml) : {});
  scope.get(/\/contents\//).reply(404, { message: "Not Found" });
  scope.get(/\/issues\/\d+\/comments/).reply(200, []);
  scope.post(/\/issues\/\d+\/comments/).reply(201, { id: 1 });
  scope.post(/\/issues\/\d+\/labels/).reply(200, []);
  return seen;
}

const without = (calls: string[], re: RegExp) => calls.filter((c) => !re.test(c));

describe("the issue handler does what planIssue decides, nothing else", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.restore());

  it.each(variants.map((v) => [v.name, v] as const))("%s", async (_name, v) => {
    const p = payload("issues.opened");
    v.edit(p);
    const config = v.config ? resolveConfig((await import("js-yaml")).load(v.config)).config : DEFAULTS;
    const event = issueEvent(p, { senderIsBot: false });
    const first = planIssue(event);
    const plan: IssuePlan = first.kind === "needs-config" ? planIssue(event, config) : first;

    const calls = recordingGitHub(v.config);
    await makeProbot().receive({ id: `plan-${v.name}`, name: "issues", payload: p });
    const made = without(calls, /access_tokens/);

    if (first.kind !== "needs-config") expect(made).toEqual([]);
    else expect(made.filter((c) => c.includes("burn-triage.yml")).length).toBeGreaterThan(0);
    const gathered = without(made, /burn-triage\.yml/);
    if (plan.kind !== "answer") {
      expect(gathered).toEqual([]);
      return;
    }
    expect(gathered.some((c) => c === "GET /repos/alice/mnist-demo/contents/Cargo.toml")).toBe(plan.readRepository);
    expect(gathered.some((c) => c.startsWith("POST") && c.endsWith("/labels"))).toBe(plan.label !== null);
    expect(gathered.filter((c) => c.startsWith("POST") && c.endsWith("/comments"))).toHaveLength(1);
  });

  it("the variants cover every decision the plan can make", async () => {
    const kinds = new Set<string>();
    for (const v of variants) {
      const p = payload("issues.opened");
      v.edit(p);
      const config = v.config ? resolveConfig((await import("js-yaml")).load(v.config)).config : DEFAULTS;
      const event = issueEvent(p, { senderIsBot: false });
      const plan = planIssue(event, config);
      kinds.add(
        plan.kind === "answer"
          ? `answer read=${plan.readRepository} label=${plan.label !== null}`
          : `${plan.kind}:${"reason" in plan ? plan.reason : ""}`,
      );
    }
    expect([...kinds].sort()).toEqual(
      [
        "answer read=false label=false",
        "answer read=false label=true",
        "answer read=true label=true",
        "ignore:bot",
        "ignore:disabled",
        "ignore:ignored-label",
        "ignore:ignored-user",
        "ignore:locked",
        "ignore:nothing-to-answer",
      ].sort(),
    );
  });
});
