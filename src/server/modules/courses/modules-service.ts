import { asc, eq, sql } from "drizzle-orm";
import {
  COURSE_NOT_FOUND,
  type CourseModule,
  MODULE_NOT_FOUND,
  type ModuleChanges,
  type ModuleInput,
  type MoveInput,
} from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { courseModules, courses } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { courseFor, moduleFor } from "./access.js";
import { type ModuleRow, toModule } from "./course-view.js";
import { closeModuleGaps, lockCourse, moveInOrder, nextOrder, type Tx } from "./ordering.js";

type Options = { db: Db; who: Who };

export async function listModules({ db, who, courseId }: Options & { courseId: number }): Promise<CourseModule[]> {
  await courseFor(db, who, courseId, "view");
  const rows = await db
    .select()
    .from(courseModules)
    .where(eq(courseModules.courseId, courseId))
    .orderBy(asc(courseModules.order), asc(courseModules.id));
  return rows.map(toModule);
}

/** Appends: the new module's order is the highest plus 1 (1 if none), computed in the insert itself; `order` is ignored. */
export async function createModule({
  db,
  who,
  courseId,
  input,
}: Options & { courseId: number; input: ModuleInput }): Promise<CourseModule> {
  await courseFor(db, who, courseId, "edit");
  return db.transaction(async (tx) => {
    if (!(await lockCourse(tx, courseId))) throw new AppError("NOT_FOUND", COURSE_NOT_FOUND);
    const [row] = await tx
      .insert(courseModules)
      .values({
        courseId,
        title: input.title,
        description: input.description,
        releaseAfterDays: input.releaseAfterDays,
        order: nextOrder(courseModules.order, courseModules.courseId, courseId),
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    await touchCourse(tx, courseId);
    return toModule(row);
  });
}

export async function getModule({ db, who, moduleId }: Options & { moduleId: number }): Promise<CourseModule> {
  return toModule((await moduleFor(db, who, moduleId, "view")).module);
}

export async function updateModule({
  db,
  who,
  moduleId,
  input,
}: Options & { moduleId: number; input: ModuleChanges }): Promise<CourseModule> {
  const { module } = await moduleFor(db, who, moduleId, "edit");
  const change = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.releaseAfterDays !== undefined ? { releaseAfterDays: input.releaseAfterDays } : {}),
  };
  // Nothing known was sent (unknown fields are dropped): nothing to write.
  if (Object.keys(change).length === 0) return toModule(module);
  const [row] = await db.update(courseModules).set(change).where(eq(courseModules.id, moduleId)).returning();
  await touchCourse(db, module.courseId);
  return toModule(row ?? module);
}

/**
 * Locks the course (the one order lock, see `lockCourse()`), then reads the module again: what was read
 * before the lock may have moved or gone meanwhile.
 */
async function lockedModule(tx: Tx, courseId: number, moduleId: number): Promise<ModuleRow> {
  if (!(await lockCourse(tx, courseId))) throw new AppError("NOT_FOUND", COURSE_NOT_FOUND);
  const [row] = await tx.select().from(courseModules).where(eq(courseModules.id, moduleId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", MODULE_NOT_FOUND);
  return row;
}

/** Deletes the module and its lessons (cascade) and renumbers the rest 1..n, in one transaction under the course lock. */
export async function deleteModule({ db, who, moduleId }: Options & { moduleId: number }): Promise<void> {
  const { module } = await moduleFor(db, who, moduleId, "edit");
  await db.transaction(async (tx) => {
    await lockedModule(tx, module.courseId, moduleId);
    await tx.delete(courseModules).where(eq(courseModules.id, moduleId));
    await closeModuleGaps(tx, module.courseId);
    await touchCourse(tx, module.courseId);
  });
}

/** Swaps with the neighbour and renumbers 1..n, under the course lock. */
export async function moveModule({ db, who, moduleId, input }: Options & { moduleId: number; input: MoveInput }): Promise<CourseModule[]> {
  const { module } = await moduleFor(db, who, moduleId, "edit");
  return db.transaction(async (tx) => {
    await lockedModule(tx, module.courseId, moduleId);
    const siblings = await tx
      .select({ id: courseModules.id, order: courseModules.order })
      .from(courseModules)
      .where(eq(courseModules.courseId, module.courseId));
    for (const [id, order] of moveInOrder(siblings, moduleId, input.direction)) {
      await tx.update(courseModules).set({ order }).where(eq(courseModules.id, id));
    }
    const rows = await tx
      .select()
      .from(courseModules)
      .where(eq(courseModules.courseId, module.courseId))
      .orderBy(asc(courseModules.order), asc(courseModules.id));
    return rows.map(toModule);
  });
}

export async function touchCourse(db: Db | Tx, courseId: number): Promise<void> {
  await db.update(courses).set({ updatedAt: sql`now()` }).where(eq(courses.id, courseId));
}
