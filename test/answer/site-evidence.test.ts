// A panic's site said as the data has it (reader findings 4, 5, 6, 9, 12, 19): a printed line the
// data does not have is said so in the text as in the JSON; a line several refs share names each;
// a macro's panic is placed at its call site; an unknown commit stays unknown, said once.
import { describe, expect, it } from "@jest/globals";
import { runCli } from "../../src/cli/run.js";

async function cli(args: string[]) {
  let out = "";
  const code = await runCli(args, { stdout: (s) => (out += s), stderr: () => {}, stdin: () => "" });
  return { code, out };
}

interface Claim {
  about: string;
  subject: string;
  evidence: { detail: string }[];
}
async function explain(name: string) {
  const json = JSON.parse((await cli(["explain", `fixtures/issues/${name}.md`, "--offline", "--json"])).out);
  const raised = (json.claims as Claim[]).find((c) => c.about === "raised-at")!.evidence[0]!.detail;
  return { json, text: json.comment as string, raised };
}

describe("a printed line that is no site in the data (findings 5, 19)", () => {
  it("tracing-panic: backend.rs:859 is said not to be a site at 0.22.0-pre.1, and where the data has it", async () => {
    const { text, raised } = await explain("pos-tracing-panic");
    expect(text).toContain("which is not one of its sites in my data at `0.22.0-pre.1`");
    expect(text).toContain("The data has one at that line at `0.22.0-pre.2` (`from_inner`).");
    expect(text).not.toMatch(/is raised by a stub in \[/);
    // The JSON agrees, and gives no cfg: another line's cfg is not this one's.
    expect(raised).toContain("(as printed, not in the data)");
    expect(raised).toContain("at 0.22.0-pre.2 (from_inner)");
    expect(raised).not.toContain("#[cfg");
  });

  it("color-eyre: backend.rs:829 at 0.22.0-pre.2 matches no ref, and says so", async () => {
    const { text } = await explain("pos-color-eyre");
    expect(text).toContain("which is not one of its sites in my data at `0.22.0-pre.2`.");
    expect(text).not.toContain("The data has one at that line");
  });
});

describe("a macro's panic at its call site (finding 6)", () => {
  it("wrap-device: the macros are named and backend.rs:96 is said to be a call of one", async () => {
    const { text, raised } = await explain("pos-misuse-wrap-device");
    expect(text).toContain(
      "is raised by the fallback arm of one of the macros `dispatch_device_arms`, `to_device_arms` or `creation_op_arms` (in `src/macros.rs` at `0.22.0-pre.2`)",
    );
    expect(text).toContain("so that line is a call of it, not the arm");
    expect(raised).toContain("raised in macro_rules! dispatch_device_arms (src/macros.rs:126)");
    expect(raised).toContain("(as printed, not in the data)");
  });
});

describe("a line several refs share identifies none (finding 4)", () => {
  it("local checkout: backend.rs:849 is backward on main and int_inner at 0.22.0-pre.1", async () => {
    const { json, text, raised } = await explain("pos-unfenced-local-checkout");
    expect(text).not.toContain("which only that commit has");
    expect(text).toContain("which `0.22.0-pre.1` also has, so the line alone does not settle it");
    expect(text).toContain("`src/backend.rs:849` is `backward` at `2c06be3` or `int_inner` at `0.22.0-pre.1`");
    expect(text).not.toContain("In your output it was `backward`");
    expect((json.claims as Claim[]).some((c) => c.about === "reached-by")).toBe(false);
    expect(json.unseen).toContain("location");
    expect(raised).toContain("the data also has a site at that line at 0.22.0-pre.1 (int_inner)");
  });
});

describe("an unknown commit (finding 9)", () => {
  it("qtensor at d16f7ba: no promise to check an edit, no usual cause, no cfg for the seeded line", async () => {
    const { json, text, raised } = await explain("pos-qtensor-windows-git");
    expect(text).not.toContain("I will check the exact edit");
    expect(text).not.toContain("The usual cause is");
    expect(text).toContain("I cannot tell whether `burn-dispatch/autodiff` is on there");
    expect(raised).not.toContain("#[cfg");
    expect(raised).toContain("(as printed, not in the data)");
    expect(json.edits).toEqual([]);
  });
});

describe("an assumed manifest's verdict (finding 19)", () => {
  it("is unseen in the JSON, and the claim says it was assumed", async () => {
    const { json } = await explain("pos-tracing-panic");
    expect(json.manifest).toEqual({ origin: "assumed", path: null, verdict: "unseen" });
    const claim = (json.claims as Claim[]).find((c) => c.about === "manifest-verdict")!;
    expect(claim.evidence[0]!.detail).toMatch(/^assumed Cargo\.toml/);
  });
});

describe("why on a path checkout (finding 12)", () => {
  const path = "fixtures/manifests/burn-checkout-path.toml";
  it("prints unknown, names no commit it did not use, and says the could-not-read once", async () => {
    const { out } = await cli(["why", path, "--offline"]);
    expect(out.split("\n")[0]).toBe("burn-dispatch/autodiff: unknown (burn at a commit the data cannot read)");
    expect(out.match(/could not be read/g)).toHaveLength(1);
    expect(out).not.toMatch(/^assumed:/m);
  });

  it("--json: on is null, and the release and the assumption name no commit", async () => {
    const w = JSON.parse((await cli(["why", path, "--offline", "--json"])).out);
    expect(w.on).toBeNull();
    expect(w.verdict).toBe("unknown-commit");
    expect(w.release).toMatchObject({ version: null, commit: null, source: "path" });
    expect(w.assumed).toEqual([{ about: "graph", kind: "path", used: null }]);
  });
});
