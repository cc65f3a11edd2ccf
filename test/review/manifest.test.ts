import { describe, expect, it } from "@jest/globals";
import { commentableLines, reviewManifest, reviewWorkspaceRoot } from "../../src/review/manifest.js";
import { ruleById } from "../../src/review/rules.js";
import { fixture } from "../helpers/fixtures.js";

const autodiff = ruleById("autodiff")!;

const base = fixture("repos/pr-trim/base/Cargo.toml");
const head = fixture("repos/pr-trim/head/Cargo.toml");
const all = new Set(Array.from({ length: 50 }, (_, i) => i + 1));

describe("commentableLines", () => {
  it("keeps added and context lines of the head side, skips removed ones", () => {
    expect([...commentableLines(fixture("repos/pr-trim/patch.diff"))]).toEqual([4, 5, 6, 7, 8]);
    expect(commentableLines(undefined).size).toBe(0);
  });
});

describe("reviewManifest", () => {
  it("flags a change that turns autodiff off, with the fix on the changed line", () => {
    const r = reviewManifest(
      {
        path: "Cargo.toml",
        base,
        head,
        commentable: commentableLines(fixture("repos/pr-trim/patch.diff")),
      },
      autodiff,
    );
    expect(r).toMatchObject({ kind: "regression", inDiff: true });
  });
  it("marks a fix outside the diff so it goes into the review body", () => {
    expect(reviewManifest({ path: "Cargo.toml", base, head, commentable: new Set([1]) }, autodiff)).toMatchObject({
      kind: "regression",
      inDiff: false,
    });
  });
  it.each([
    ["unchanged meaning", base, base],
    ["turning autodiff on", head, base],
    ["a new manifest", null, head],
    ["autodiff kept by an explicit feature", base, head.replace('"dataset"]', '"dataset", "train"]')],
    // Off at the base already: the PR did not turn it off, so a serde bump is not accused.
    [
      "a serde bump where autodiff was already off",
      head,
      head.replace('serde = { version = "1"', 'serde = { version = "1.0.200"'),
    ],
  ])("no noise for %s", (_n, b, h) => {
    expect(reviewManifest({ path: "Cargo.toml", base: b, head: h, commentable: all }, autodiff).kind).toBe("fine");
  });
});

describe("reviewWorkspaceRoot", () => {
  const root = (df: boolean) =>
    `[workspace]\nmembers = ["m"]\n\n[workspace.dependencies]\nburn = { version = "0.22.0-pre.2"${df ? ", default-features = false" : ""} }\n`;
  const member = {
    path: "m/Cargo.toml",
    base: "[dependencies]\nburn = { workspace = true }\n",
    head: "[dependencies]\nburn = { workspace = true }\n",
  };
  it("a root change that turns a member's autodiff off is fixed in the root", () => {
    const [r] = reviewWorkspaceRoot(
      {
        path: "Cargo.toml",
        base: root(false),
        head: root(true),
        members: [member],
        commentable: all,
      },
      autodiff,
    );
    expect(r).toMatchObject({ kind: "regression", path: "Cargo.toml", member: "m/Cargo.toml" });
    expect(r?.kind === "regression" && r.plan.change.after).toContain(
      'default-features = false, features = ["autodiff"] }',
    );
  });
  it("no noise when members keep autodiff", () => {
    expect(
      reviewWorkspaceRoot(
        {
          path: "Cargo.toml",
          base: root(false),
          head: root(false),
          members: [member],
          commentable: all,
        },
        autodiff,
      ),
    ).toEqual([]);
  });
});
