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
