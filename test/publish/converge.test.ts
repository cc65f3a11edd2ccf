// Runs converge: any interleaving of deliveries, edits, a maintainer's label removal, replays of
// older deliveries, and faults (a 5xx before or after GitHub stored the write, a kill before or
// after it, a failed read), each failed delivery retried, ends where the model says one clean
// run ends: one comment with the newest version's answer, the label on unless a person took it
// off, nothing created twice.
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { type Desired, labelHistoryOf } from "../../src/answer/publish-plan.js";
import { converge, type GitHubReads, type GitHubWrites, plan, type Where } from "../../src/github/publish.js";
import { issueMarker } from "../../src/render/issue.js";

type Fault = "ok" | "fail-before" | "fail-after" | "kill-before" | "kill-after" | "read-fail";
const WHERE: Where = { owner: "o", repo: "r", issue_number: 7 };
const LABEL = "burn: feature off";
const PREFIX = "<!-- burn-triage:issue";

class Killed extends Error {}

function memoryGitHub(faults: Fault[]) {
  const s = {
    comments: [] as Array<{ id: number; body: string }>,
    labels: new Set<string>(),
    events: [] as Array<{ event: string; label: { name: string } }>,
    created: 0,
    nextId: 1,
  };
  const fault = () => faults.shift() ?? "ok";
  const write = async (apply: () => void) => {
    const f = fault();
    if (f === "fail-before" || f === "read-fail") throw Object.assign(new Error("Bad Gateway"), { status: 502 });
    if (f === "kill-before") throw new Killed();
    apply();
    if (f === "fail-after") throw Object.assign(new Error("Bad Gateway"), { status: 502 });
    if (f === "kill-after") throw new Killed();
  };
  const read = async <T>(value: () => T): Promise<T> => {
    if (faults[0] === "read-fail") {
      faults.shift();
      throw Object.assign(new Error("Bad Gateway"), { status: 502 });
    }
    return value();
  };
  const gh: GitHubWrites = {
    marked: (_w, marker) => read(() => s.comments.filter((c) => c.body.startsWith(marker)).map((c) => ({ ...c }))),
    labelHistory: (_w, label) => read(() => labelHistoryOf(s.events, label)),
    createComment: async (_w, body) => {
      const id = s.nextId++;
      await write(() => {
        s.comments.push({ id, body });
        s.created++;
      });
      return id;
    },
    updateComment: (_w, id, body) =>
      write(() => {
        const c = s.comments.find((x) => x.id === id);
        if (c) c.body = body;
      }),
    deleteComment: (_w, id) =>
      write(() => {
        s.comments = s.comments.filter((x) => x.id !== id);
      }),
    addLabel: (_w, name) =>
      write(() => {
        if (!s.labels.has(name)) s.events.push({ event: "labeled", label: { name } });
        s.labels.add(name);
      }),
  };
  const removeLabel = () => {
    if (s.labels.delete(LABEL)) s.events.push({ event: "unlabeled", label: { name: LABEL } });
  };
  return { s, gh, removeLabel };
}

/** A version of the issue: its `updated_at` order and what it shows (an answer, or no panic). */
interface Version {
  at: number;
  answer: string | null;
}
type Action = { kind: "deliver"; version: number } | { kind: "unlabel" };

const iso = (at: number) => new Date(Date.UTC(2026, 5, 1) + at * 60_000).toISOString().replace(/\.\d+Z$/, "Z");

function desiredOf(v: Version): Desired {
  const marker = issueMarker(iso(v.at));
  return v.answer === null
    ? { kind: "retract", body: `${marker}\nresolved\n` }
    : { kind: "answer", body: `${marker}\n${v.answer}\n`, label: LABEL };
}

/** A delivery and its retries, as the webhook's redelivery queue runs them. */
async function deliver(gh: GitHubWrites, labels: Set<string>, v: Version): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const d = desiredOf(v);
    // Each attempt sees the issue's labels as GitHub serves them then (a retry re-reads the issue).
    const desired = d.kind === "answer" && labels.has(LABEL) ? { ...d, label: null } : d;
    try {
      await converge(gh, { where: WHERE, marker: PREFIX, updatedAt: iso(v.at) }, desired);
      return;
    } catch (e) {
      if (!(e instanceof Killed) && (e as { status?: number }).status !== 502) throw e;
    }
  }
  throw new Error("did not converge in 50 attempts");
}

const body = (c: { body: string }) => c.body.slice(c.body.indexOf("\n") + 1);

describe("runs converge", () => {
  it("to one clean run's end state, whatever the faults, kills, retries, edits and replays", async () => {
    const versions = fc.array(fc.option(fc.constantFrom("A", "B", "C"), { nil: null }), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(
        versions,
        fc.array(
          fc.oneof(
            fc.nat(7).map((n) => ({ kind: "deliver" as const, version: n })),
            fc.constant({ kind: "unlabel" as const }),
          ),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.array(
          fc.constantFrom<Fault>("ok", "ok", "fail-before", "fail-after", "kill-before", "kill-after", "read-fail"),
          {
            maxLength: 30,
          },
        ),
        async (answers, actions, faults) => {
          const vs: Version[] = answers.map((answer, i) => ({ at: i + 1, answer }));
          const { s, gh, removeLabel } = memoryGitHub([...faults]);
          let newest: Version | null = null;
          let everAnswered = false;
          let removedByPerson = false;
          for (const a of actions as Action[]) {
            if (a.kind === "unlabel") {
              if (s.labels.has(LABEL)) removedByPerson = true;
              removeLabel();
              continue;
            }
            const v = vs[a.version % vs.length]!;
            // A webhook for a text that never showed a panic costs nothing and writes nothing.
            if (v.answer === null && !everAnswered) continue;
            await deliver(gh, s.labels, v);
            if (!newest || v.at > newest.at) newest = v;
            if (v.answer !== null && newest === v) everAnswered = true;
          }
          const mine = s.comments.filter((c) => c.body.startsWith(PREFIX));
          if (!newest) return expect(mine).toEqual([]);
          // One comment, saying the newest delivered version's answer (or its retraction).
          expect(mine).toHaveLength(1);
          expect(body(mine[0]!)).toBe(newest.answer === null ? "resolved\n" : `${newest.answer}\n`);
          // Created once: a lost answer to a create is found, not posted again.
          expect(s.created).toBe(1);
          // The label went on with the answer and stays off once a person took it off.
          expect(s.labels.has(LABEL)).toBe(everAnswered && !removedByPerson);
          expect(s.events.filter((e) => e.event === "labeled")).toHaveLength(1);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("racing replicas' duplicate comments are removed, the oldest kept", async () => {
    const { s, gh } = memoryGitHub([]);
    s.comments.push({ id: 1, body: `${PREFIX} -->\nA\n` }, { id: 2, body: `${PREFIX} -->\nA\n` });
    await deliver(gh, s.labels, { at: 1, answer: "A" });
    expect(s.comments.map((c) => c.id)).toEqual([1]);
  });

  it("a report plans with a client that cannot write, by type", async () => {
    const { s, gh } = memoryGitHub([]);
    s.comments.push({ id: 1, body: `${PREFIX} -->\nA\n` }, { id: 2, body: `${PREFIX} -->\nB\n` });
    const reads: GitHubReads = { marked: gh.marked, labelHistory: gh.labelHistory };
    const d = await plan(reads, { where: WHERE, marker: PREFIX, updatedAt: null }, desiredOf({ at: 1, answer: "A" }));
    expect(d.steps.map((x) => x.op)).toEqual(["update", "label", "delete"]);
    expect(s.comments).toHaveLength(2);
    const target = { where: WHERE, marker: PREFIX, updatedAt: null };
    // @ts-expect-error: a GitHubReads has no method that writes, so it cannot be published with
    await expect(converge(reads, target, desiredOf({ at: 1, answer: "A" }))).rejects.toThrow();
  });
});
