import { eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Tx } from "../../db/client.js";
import { courses } from "../../db/schema/index.js";

/** A transaction of `db.transaction()`. */
export type { Tx };

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
 * (every row's subquery sees the table as it was before the statement). Run it under `lockCourse()`,
 * so two inserts cannot read the same last order.
 */
export function nextOrder(order: PgColumn, parent: PgColumn, parentId: number, offset = 0): SQL<number> {
  return sql<number>`(select coalesce(max(${order}), 0) + ${1 + offset} from ${order.table} where ${parent} = ${parentId})`;
}

/**
 * The one lock of a course's order. Every write that changes which modules or lessons a course has, or their
 * order, runs in a transaction that takes it first, so those writes serialise per course; and since they all
 * lock the course first (then modules, then lessons), they cannot deadlock each other. `no key update` is the
 * row lock an UPDATE of the course takes: it excludes the other writers of the course, but not a foreign-key
 * check (progress, runs, lesson inserts), which only needs `key share`. False when the course is gone.
 */
export async function lockCourse(tx: Tx, courseId: number): Promise<boolean> {
  const rows = await tx.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId)).for("no key update");
  return rows.length > 0;
}

/** Renumbers the modules of a course 1..n in their current order (after a delete), under `lockCourse()`. */
export async function closeModuleGaps(tx: Tx, courseId: number): Promise<void> {
  await tx.execute(sql`
    update course_modules m set "order" = r.n
    from (select id, row_number() over (order by "order", id)::int as n from course_modules where course_id = ${courseId}) r
    where m.id = r.id and m."order" <> r.n`);
}

/** Renumbers the lessons of a module 1..n in their current order (after a delete), under `lockCourse()`. */
export async function closeLessonGaps(tx: Tx, moduleId: number): Promise<void> {
  await tx.execute(sql`
    update lessons l set "order" = r.n
    from (select id, row_number() over (order by "order", id)::int as n from lessons where module_id = ${moduleId}) r
    where l.id = r.id and l."order" <> r.n`);
}
