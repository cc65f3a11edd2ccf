// Without --apply, scan's client lets through only reads: a GET, or a GraphQL document of queries.
// A document that carries a mutation after a query (GitHub runs the one `operationName` names) is
// refused as a write.
import { describe, expect, it } from "@jest/globals";
import { reads } from "../../src/cli/scan.js";

const gql = (query: string) => ({ method: "POST", url: "https://api.github.com/graphql", query });

describe("scan's read-only client", () => {
  it("lets GETs and GraphQL queries through", () => {
    expect(reads({ method: "GET", url: "https://api.github.com/repos/a/b/issues" })).toBe(true);
    expect(reads(gql('  query($owner: String!) { repository(owner: $owner, name: "b") { id } }'))).toBe(true);
  });

  it("refuses REST writes and any document holding a mutation or subscription", () => {
    expect(reads({ method: "POST", url: "https://api.github.com/repos/a/b/issues/1/comments" })).toBe(false);
    expect(reads({ method: "DELETE", url: "https://api.github.com/repos/a/b/issues/comments/1" })).toBe(false);
    expect(reads(gql("mutation { addComment(input: {}) { clientMutationId } }"))).toBe(false);
    expect(reads(gql("query A { viewer { login } } mutation B { addComment(input: {}) { clientMutationId } }"))).toBe(
      false,
    );
    expect(reads(gql("query A { viewer { login } } subscription B { x }"))).toBe(false);
    expect(reads({ method: "POST", url: "https://api.github.com/repos/a/b/graphql", query: 1 })).toBe(false);
  });
});
