import { describe, expect, it } from "@jest/globals";
import { decide, labelHistoryOf, type OwnComment } from "../../src/answer/publish-plan.js";

const own = (id: number, body: string, answeredAt: string | null = null): OwnComment => ({ id, body, answeredAt });
const answer = (body: string, label: string | null = "burn: feature off") => ({ kind: "answer" as const, body, label });
const T1 = "2026-06-01T00:00:00Z";
const T2 = "2026-06-02T00:00:00Z";

describe("the publisher's decision", () => {
  it("creates a missing comment with its label, and nothing else", () => {
    expect(decide({ mine: [], updatedAt: T1 }, answer("A"))).toEqual({
      outcome: "created",
      steps: [
        { op: "create", body: "A" },
        { op: "label", name: "burn: feature off" },
      ],
      needsLabelHistory: false,
    });
  });

  it("an older delivery than the comment's answer changes nothing (duplicates of its own still go)", () => {
    const d = decide({ mine: [own(1, "new", T2), own(2, "x")], updatedAt: T1 }, answer("old"));
    expect(d.outcome).toBe("stale");
    expect(d.steps).toEqual([{ op: "delete", id: 2 }]);
    expect(decide({ mine: [own(1, "new", T1)], updatedAt: T2 }, answer("newer")).outcome).toBe("updated");
  });

  it("a current comment owes its label only when nobody ever added or removed it", () => {
    const observed = { mine: [own(1, "A")], updatedAt: T1 };
    expect(decide(observed, answer("A"))).toMatchObject({ outcome: "unchanged", steps: [], needsLabelHistory: true });
    expect(decide({ ...observed, labelHistory: "never" }, answer("A")).steps).toEqual([
      { op: "label", name: "burn: feature off" },
    ]);
    for (const h of ["added", "removed", "unknown"] as const)
      expect(decide({ ...observed, labelHistory: h }, answer("A")).steps).toEqual([]);
    expect(decide(observed, answer("A", null))).toMatchObject({ steps: [], needsLabelHistory: false });
  });

  it("a delivery moves the marker to its version; a scan compares answers only", () => {
    const marked = (at: string, answer: string) => `<!-- m ${at} -->\n${answer}`;
    const observed = { mine: [own(1, marked(T1, "A"), T1)], updatedAt: T2 };
    expect(decide(observed, answer(marked(T2, "A"), null)).steps).toEqual([
      { op: "update", id: 1, body: marked(T2, "A") },
    ]);
    expect(decide({ ...observed, answersOnly: true }, answer(marked(T2, "A"), null)).steps).toEqual([]);
  });

  it("keeps the oldest of its comments and deletes the rest", () => {
    const d = decide({ mine: [own(1, "A"), own(2, "A"), own(3, "B")], updatedAt: T1 }, answer("A", null));
    expect(d.steps).toEqual([
      { op: "delete", id: 2 },
      { op: "delete", id: 3 },
    ]);
  });

  it("retracts an answer the issue no longer calls for, once, and never creates one to retract", () => {
    const retract = { kind: "retract" as const, body: "R" };
    expect(decide({ mine: [], updatedAt: T1 }, retract)).toMatchObject({ outcome: "none", steps: [] });
    expect(decide({ mine: [own(1, "A")], updatedAt: T1 }, retract).steps).toEqual([{ op: "update", id: 1, body: "R" }]);
    expect(decide({ mine: [own(1, "R")], updatedAt: T1 }, retract)).toMatchObject({ outcome: "unchanged", steps: [] });
    expect(decide({ mine: [own(1, "A", T2)], updatedAt: T1 }, retract).outcome).toBe("stale");
  });

  it("reads a label's history from the issue's events, the last add or removal winning", () => {
    const ev = (event: string, name: string) => ({ event, label: { name } });
    expect(labelHistoryOf([], "x")).toBe("never");
    expect(labelHistoryOf([ev("labeled", "y"), ev("commented", "x")], "x")).toBe("never");
    expect(labelHistoryOf([ev("labeled", "x")], "x")).toBe("added");
    expect(labelHistoryOf([ev("labeled", "x"), ev("unlabeled", "x")], "x")).toBe("removed");
    expect(labelHistoryOf([ev("unlabeled", "x"), ev("labeled", "x")], "x")).toBe("added");
  });
});
