import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { collectStartupGarbage } from "./lean-memory.js";

describe("collectStartupGarbage", () => {
  it("collects what is no longer reachable and hands the heap's freed pages back", () => {
    let garbage: unknown[] | null = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `item ${i}` }));
    const before = getHeapStatistics();
    expect(garbage.length).toBe(200_000);
    garbage = null;
    collectStartupGarbage();
    const after = getHeapStatistics();
    expect(after.used_heap_size).toBeLessThan(before.used_heap_size - 5 * 1024 * 1024);
    expect(after.total_physical_size).toBeLessThan(before.total_physical_size);
  });
});
