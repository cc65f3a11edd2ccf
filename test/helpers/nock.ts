import { afterAll, afterEach, beforeAll, beforeEach } from "@jest/globals";
import nock from "nock";

export const API = "https://api.github.com";
export const REPO = "/repos/alice/mnist-demo";

/** The installation token every first call of a delivery needs. */
export function github(): nock.Scope {
  return nock(API)
    .post("/app/installations/42/access_tokens")
    .reply(201, { token: "ghs_test", expires_at: "2099-01-01T00:00:00Z", permissions: {} });
}

/** No `.github/burn-triage.yml`: the repository is asked first, then the owner's `.github`. */
export function noConfig(scope: nock.Scope): nock.Scope {
  return scope
    .get(`${REPO}/contents/.github%2Fburn-triage.yml`)
    .reply(404)
    .get("/repos/alice/.github/contents/.github%2Fburn-triage.yml")
    .reply(404);
}

/** The app's own identity (`GET /app`, once per app instance): its comments are `burn-triage[bot]`'s. */
export const APP = { id: 1, slug: "burn-triage" };
export function asApp(scope: nock.Scope): nock.Scope {
  return scope.get("/app").reply(200, APP);
}

/** The app's identity, then the issue's comments as listed (one page). */
export function listed(scope: nock.Scope, issue: number, comments: unknown[]): nock.Scope {
  return asApp(scope).get(`${REPO}/issues/${issue}/comments`).query({ per_page: 100 }).reply(200, comments);
}

/** A comment written by this app. */
export function own(id: number, body: string) {
  return {
    id,
    body,
    user: { login: "burn-triage[bot]", type: "Bot" },
    performed_via_github_app: { id: 1, slug: "burn-triage" },
  };
}

/** An issue without comments that gets one; `seen` receives the posted body. */
export function newComment(scope: nock.Scope, issue: number, seen: (body: string) => void = () => {}): nock.Scope {
  return asApp(scope)
    .get(`${REPO}/issues/${issue}/comments`)
    .query({ per_page: 100 })
    .reply(200, [])
    .post(`${REPO}/issues/${issue}/comments`, (b: { body: string }) => {
      seen(b.body);
      return true;
    })
    .reply(201, { id: 1 });
}

export const LABEL = "burn: feature off";
/** The issue's events: its label history, read when its comment exists and the label is not on. */
export function labelEvents(scope: nock.Scope, issue: number, history: Array<"labeled" | "unlabeled">): nock.Scope {
  return scope
    .get(`${REPO}/issues/${issue}/events`)
    .query({ per_page: 100 })
    .reply(
      200,
      history.map((event) => ({ event, label: { name: LABEL } })),
    );
}

/**
 * A describe's hooks for nock mocking GitHub call by call with REST: the REST reads run
 * (GRAPHQL_READS=off, as on a GitHub that refuses GraphQL) and no request leaves the process.
 */
export function restReadsWithNock(): void {
  beforeAll(() => {
    process.env.GRAPHQL_READS = "off";
  });
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => {
    delete process.env.GRAPHQL_READS;
    nock.restore();
  });
}
