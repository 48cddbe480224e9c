import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/**
 * Moves one item a step up or down among its siblings and returns the new dense
 * order (1..n) for every sibling whose order changes. Works even if orders had gaps.
 */
export function moveInOrder<T extends { id: number; order: number }>(
  siblings: T[],
  id: number,
  direction: "up" | "down",
): Map<number, number> {
  const sorted = [...siblings].sort((a, b) => a.order - b.order || a.id - b.id);
  const index = sorted.findIndex((s) => s.id === id);
  const target = direction === "up" ? index - 1 : index + 1;
  if (index >= 0 && target >= 0 && target < sorted.length) {
    const moving = sorted[index] as T;
    sorted[index] = sorted[target] as T;
    sorted[target] = moving;
  }
  const changes = new Map<number, number>();
  sorted.forEach((item, i) => {
    if (item.order !== i + 1) changes.set(item.id, i + 1);
  });
  return changes;
}

/**
 * "At the end" among siblings, in the insert itself (no read-then-write race in the service): the last
 * order under the same parent, plus 1, plus `offset` for the n-th of several rows inserted together
 * (every row's subquery sees the table as it was before the statement).
 */
export function nextOrder(order: PgColumn, parent: PgColumn, parentId: number, offset = 0): SQL<number> {
  return sql<number>`(select coalesce(max(${order}), 0) + ${1 + offset} from ${order.table} where ${parent} = ${parentId})`;
}
