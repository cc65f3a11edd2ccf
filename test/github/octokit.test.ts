import { describe, expect, it } from "@jest/globals";
import { asRead, productionOctokit, withinApi, writesExceptReads } from "../../src/github/octokit.js";
import { startFakeGitHub } from "../support/fake-github.js";

describe("withinApi", () => {
  it("takes the API root and what is below it, and GitHub Enterprise Server's GraphQL endpoint", () => {
    expect(withinApi("https://api.github.com/repos/o/r", "https://api.github.com")).toBe(true);
    expect(withinApi("https://api.github.com/graphql", "https://api.github.com")).toBe(true);
    expect(withinApi("https://ghe.example/api/v3/repos/o/r", "https://ghe.example/api/v3")).toBe(true);
    // Octokit sends GHES's GraphQL queries beside the REST root, not below it.
    expect(withinApi("https://ghe.example/api/graphql", "https://ghe.example/api/v3")).toBe(true);
  });

  it("refuses another origin, and other paths beside a GHES root", () => {
    expect(withinApi("https://evil.example/graphql", "https://api.github.com")).toBe(false);
    expect(withinApi("https://evil.example/api/graphql", "https://ghe.example/api/v3")).toBe(false);
    expect(withinApi("https://ghe.example/api/uploads", "https://ghe.example/api/v3")).toBe(false);
    expect(withinApi("https://ghe.example/graphql", "https://ghe.example/api/v3")).toBe(false);
  });
});

describe("writesExceptReads", () => {
  it("lets a query marked as a read through, and paces everything else through the write group", async () => {
    const paced: string[] = [];
    const group = {
      key: (id: string) => ({
        schedule: async <R>(_o: object, fn: (...a: unknown[]) => R | Promise<R>, ...args: unknown[]) => {
          paced.push(id);
          return fn(...args);
        },
      }),
    };
    const writes = writesExceptReads(group);
    const noop = async () => "ran";
    expect(await asRead(() => writes.key("install-1").schedule({}, noop))).toBe("ran");
    expect(paced).toEqual([]);
    expect(await writes.key("install-1").schedule({}, noop)).toBe("ran");
    expect(paced).toEqual(["install-1"]);
  });
});

describe("productionOctokit's write pacing", () => {
  it("keeps a caller's own write group (scan spaces its writes itself), reads still let through", async () => {
    const fake = await startFakeGitHub({});
    const paced: string[] = [];
    const own = {
      key: () => ({
        schedule: async <R>(_o: object, fn: (...a: unknown[]) => R | Promise<R>, ...args: unknown[]) => {
          paced.push("write");
          return fn(...args);
        },
      }),
    };
    // biome-ignore lint/suspicious/noExplicitAny: Octokit's merged options are untyped here
    const Octokit = productionOctokit().defaults((o: any) => ({ ...o, throttle: { ...o.throttle, write: own } }));
    const octokit = new Octokit({ auth: "ghs_fake_1", baseUrl: fake.apiUrl, retry: { enabled: false } });
    try {
      await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        owner: "o",
        repo: "r",
        issue_number: 1,
        body: "hi",
      });
      expect(paced).toEqual(["write"]);
      await asRead(() =>
        octokit.graphql("query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id } }", {
          owner: "o",
          name: "r",
        }),
      );
      expect(paced).toEqual(["write"]);
    } finally {
      await fake.close();
    }
  });
});
