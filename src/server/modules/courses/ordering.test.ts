import { describe, expect, it } from "vitest";
import { moveInOrder } from "./ordering.js";

const items = (orders: number[]) => orders.map((order, i) => ({ id: i + 1, order }));

describe("moveInOrder", () => {
  it("swaps with the neighbour and keeps 1..n", () => {
    expect([...moveInOrder(items([1, 2, 3]), 3, "up")]).toEqual([
      [3, 2],
      [2, 3],
    ]);
    expect([...moveInOrder(items([1, 2, 3]), 1, "down")]).toEqual([
      [2, 1],
      [1, 2],
    ]);
  });

  it("does nothing at the ends", () => {
    expect(moveInOrder(items([1, 2, 3]), 1, "up").size).toBe(0);
    expect(moveInOrder(items([1, 2, 3]), 3, "down").size).toBe(0);
  });

  it("closes gaps left by deletes", () => {
    expect([...moveInOrder(items([1, 4, 9]), 1, "up")]).toEqual([
      [2, 2],
      [3, 3],
    ]);
  });
});
