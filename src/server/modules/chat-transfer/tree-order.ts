/**
 * Puts the messages of one chat in an order where every parent comes before its children, as early as their
 * times allow: each is taken in time order once its parent is in. A message whose parent never comes (a loop
 * in the file) is left out, with its children. Linear in the messages (a sort aside): waiting children are
 * appended to their parent's list, never copied, and placed with a stack of our own, never by recursion.
 */
export function parentsFirst<T extends { key: string; parentKey: string | null; createdAt: Date }>(items: T[]): T[] {
  const sorted = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => a.item.createdAt.getTime() - b.item.createdAt.getTime() || a.index - b.index);
  const placed = new Set<string>();
  const waiting = new Map<string, T[]>();
  const out: T[] = [];
  const place = (item: T) => {
    const stack = [item];
    while (stack.length > 0) {
      const next = stack.pop() as T;
      out.push(next);
      placed.add(next.key);
      const children = waiting.get(next.key);
      if (children) {
        waiting.delete(next.key);
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as T);
      }
    }
  };
  for (const { item } of sorted) {
    if (item.parentKey === null || placed.has(item.parentKey)) place(item);
    else {
      const siblings = waiting.get(item.parentKey);
      if (siblings) siblings.push(item);
      else waiting.set(item.parentKey, [item]);
    }
  }
  return out;
}
