import { and, desc, eq, lt, sql } from "drizzle-orm";
import { INVALID_CURSOR, MAX_ID } from "../../../shared/contracts/common.js";
import type { Course, CourseChanges, CourseListQuery, CreateCourseInput } from "../../../shared/contracts/courses.js";
import type { Db, DbOrTx } from "../../db/client.js";
import { courses } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { deleteOwnUpload, storeImage } from "../../lib/stored-images.js";
import type { Who } from "../../lib/who.js";
import { courseFor, openToAll, viewableBy } from "./access.js";
import { toCourse } from "./course-view.js";

/** The three tabs: all = what the reader may see (admins: everything), mine, public. Newest first, paged by id. */
export async function listCourses(options: {
  db: Db;
  who: Who;
  query: CourseListQuery;
}): Promise<{ items: Course[]; nextCursor: string | null }> {
  const { db, who } = options;
  const { scope, limit, cursor } = options.query;
  const before = cursor ? Number(cursor) : undefined;
  if (cursor && (!/^\d{1,10}$/.test(cursor) || (before ?? 0) > MAX_ID)) throw new AppError("BAD_REQUEST", INVALID_CURSOR);
  const scopeFilter = scope === "mine" ? eq(courses.userId, who.id) : scope === "public" ? openToAll : viewableBy(who);
  const rows = await db
    .select()
    .from(courses)
    .where(and(scopeFilter, before ? lt(courses.id, before) : undefined))
    .orderBy(desc(courses.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toCourse), nextCursor: rows.length > limit && last ? String(last.id) : null };
}

export async function createCourse(options: { db: DbOrTx; who: Who; input: CreateCourseInput }): Promise<Course> {
  const { input } = options;
  const [row] = await options.db
    .insert(courses)
    .values({
      userId: options.who.id,
      title: input.title,
      description: input.description,
      status: input.status,
      isPublic: input.isPublic,
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return toCourse(row);
}

export async function getCourse(options: { db: Db; who: Who; courseId: number }): Promise<Course> {
  return toCourse(await courseFor(options.db, options.who, options.courseId, "view"));
}

export async function updateCourse(options: { db: Db; who: Who; courseId: number; input: CourseChanges }): Promise<Course> {
  const { db, who, courseId, input } = options;
  await courseFor(db, who, courseId, "edit");
  const [row] = await db
    .update(courses)
    .set({
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.isPublic !== undefined ? { isPublic: input.isPublic } : {}),
      ...(input.listedInCatalog !== undefined ? { listedInCatalog: input.listedInCatalog } : {}),
      ...(input.certificateStyle !== undefined ? { certificateStyle: input.certificateStyle } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(courses.id, courseId))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", "Course not found");
  return toCourse(row);
}

/** One statement: modules, lessons, versions, progress and runs go with it (foreign keys cascade). */
export async function deleteCourse(options: { db: Db; who: Who; courseId: number }): Promise<void> {
  const { db, who, courseId } = options;
  const course = await courseFor(db, who, courseId, "edit");
  await db.transaction(async (tx) => {
    await tx.delete(courses).where(eq(courses.id, courseId));
    await deleteOwnUpload(tx, course.userId, course.coverImage);
  });
}

/** Sets (bytes) or removes (null) the cover image; the previous image is deleted. */
export async function setCover(options: { db: Db; who: Who; courseId: number; bytes: Uint8Array | null }): Promise<Course> {
  const { db, who, courseId, bytes } = options;
  const course = await courseFor(db, who, courseId, "edit");
  return db.transaction(async (tx) => {
    const url = bytes ? await storeImage(tx, course.userId, bytes) : null;
    const [row] = await tx.update(courses).set({ coverImage: url, updatedAt: sql`now()` }).where(eq(courses.id, courseId)).returning();
    await deleteOwnUpload(tx, course.userId, course.coverImage);
    if (!row) throw new AppError("NOT_FOUND", "Course not found");
    return toCourse(row);
  });
}
