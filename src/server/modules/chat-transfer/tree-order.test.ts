import { describe, expect, it } from "vitest";
import { parentsFirst } from "./tree-order.js";

describe("parentsFirst", () => {
  it("puts parents first, each as early as its time allows, and leaves out a loop with its children", () => {
    const at = (minute: number) => new Date(Date.UTC(2025, 0, 2, 10, minute));
    const items = [
      { key: "answer", parentKey: "question", createdAt: at(0) },
      { key: "question", parentKey: null, createdAt: at(1) },
      { key: "loop-a", parentKey: "loop-b", createdAt: at(2) },
      { key: "loop-b", parentKey: "loop-a", createdAt: at(3) },
      { key: "under-loop", parentKey: "loop-a", createdAt: at(4) },
      { key: "second", parentKey: "question", createdAt: at(5) },
    ];
    expect(parentsFirst(items).map((item) => item.key)).toEqual(["question", "answer", "second"]);
  });

  it("is linear in the children waiting for a parent (it copied the waiting list for each one: 20,000 took seconds)", () => {
    // Every child is older than its parent, so all of them wait for it.
    const children = 20_000;
    const items = [{ key: "root", parentKey: null as string | null, createdAt: new Date(children) }];
    for (let i = 0; i < children; i++) items.push({ key: `child${i}`, parentKey: "root", createdAt: new Date(i) });
    const started = performance.now();
    const ordered = parentsFirst(items);
    const took = performance.now() - started;
    expect(ordered.map((item) => item.key).slice(0, 3)).toEqual(["root", "child0", "child1"]);
    expect(ordered).toHaveLength(children + 1);
    expect(took).toBeLessThan(1_000);
  });
});
