// The like-for-like replacement (issue 53, "edits larger than the problem"; reader finding 16):
// burn's history lists `server`'s replacements unordered; the resolver, comparing what `server`
// brought in at its last release with what each replacement brings in, puts `remote-websocket`
// first (it still brings in `tokio-tungstenite` and `axum`; `remote-server` brings `iroh`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { planFix } from "../../src/cargo/fix/fix.js";
import { rankReplacements } from "../../src/cargo/judge/like-for-like.js";
import { snapshot } from "../../src/cargo/index/registry.js";
import { analyze } from "../../src/answer/analyze.js";
import { renderIssueComment } from "../../src/github/issue-comment.js";
import { root } from "../helpers/fixtures.js";

const head = join(root, "fixtures/repos/renovate-bump/head/Cargo.toml");

describe("the like-for-like replacement, from the resolver", () => {
  it("a Renovate bump from 0.21's `server` gets `remote-websocket`, and `remote-server` is named as the other", () => {
    const plan = planFix({ path: "Cargo.toml", text: readFileSync(head, "utf8") });
    if (plan.kind !== "fixed") throw new Error(plan.kind);
    expect(plan.change.after).toContain('features = ["std", "wgpu", "autodiff", "remote-websocket"]');
    const [renamed] = plan.change.resolves!.renamed;
    expect(renamed).toMatchObject({ feature: "server", to: "remote-websocket", others: ["remote-server"] });
    expect(renamed!.likeForLike!.kept).toEqual(expect.arrayContaining(["axum", "tokio-tungstenite"]));
  });

  it("the comment says which one keeps what `server` did, and names the other", () => {
    const log = readFileSync(join(root, "fixtures/cargo/refusal-server-0.22-build.txt"), "utf8");
    const manifest =
      '[package]\nname = "myapp"\n\n[dependencies]\nburn = { version = "0.22.0-pre.2", default-features = false, features = ["std", "wgpu", "server"] }\n';
    const body = renderIssueComment(analyze({ text: `\`\`\`\n${log}\n\`\`\`\n\n\`\`\`toml\n${manifest}\`\`\`\n` }))!;
    expect(body).toContain('"remote-websocket"]');
    expect(body).toContain("`remote-server` would replace `server` as well.");
    expect(body).toMatch(
      /`remote-websocket` is the like-for-like one: at `0\.21\.[^`]+` `server` brought in .*`tokio-tungstenite`/,
    );
  });

  it("the order comes from what each brings in, not from the history's list", () => {
    const registry = snapshot("tags");
    for (const order of [
      ["remote-server", "remote-websocket"],
      ["remote-websocket", "remote-server"],
    ])
      expect(rankReplacements("burn", "server", "0.22.0-pre.2", order, registry)?.replacement).toEqual([
        "remote-websocket",
        "remote-server",
      ]);
  });
});
