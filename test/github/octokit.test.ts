import { describe, expect, it } from "@jest/globals";
import { asRead, withinApi, writesExceptReads } from "../../src/github/octokit.js";

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
