import { and, asc, desc, eq, sql } from "drizzle-orm";
import {
  COURSE_NOT_FOUND,
  LESSON_NOT_FOUND,
  type Lesson,
  type LessonChanges,
  type LessonInput,
  type LessonVersion,
  MODULE_NOT_FOUND,
  type MoveInput,
} from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { courseModules, lessons, lessonVersions } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { canEdit, lessonFor, moduleFor } from "./access.js";
import type { MaterialPassage } from "./ai/course-material.js";
import { type LessonRow, toLesson } from "./course-view.js";
import { lessonOpensAt, startCourse, startOf } from "./drip.js";
import { replaceLessonSources, sourcesOfLessons } from "./lesson-sources.js";
import { touchCourse } from "./modules-service.js";
import { closeLessonGaps, lockCourse, moveInOrder, nextOrder, type Tx } from "./ordering.js";

type Options = { db: Db; who: Who };
const KEEP_VERSIONS = 20;

export async function listLessons({ db, who, moduleId }: Options & { moduleId: number }): Promise<Lesson[]> {
  const { course, module } = await moduleFor(db, who, moduleId, "view");
  const rows = await db.select().from(lessons).where(eq(lessons.moduleId, moduleId)).orderBy(asc(lessons.order), asc(lessons.id));
  if (canEdit(course, who)) return withSources(db, rows);
  // Drip release: a learner gets a lesson that is not open yet without its content (and without its sources).
  const startedAt = await startCourse(db, who.id, course.id, await startOf(db, who.id, course.id));
  const now = new Date();
  const open = rows.filter((row) => {
    const opensAt = lessonOpensAt(startedAt, row.releaseAfterDays, module.releaseAfterDays);
    return !opensAt || opensAt <= now;
  });
  const shown = await withSources(db, open);
  return rows.map((row) => shown.find((lesson) => lesson.id === row.id) ?? toLesson({ ...row, content: "" }, []));
}

/** Appends: order is the module's highest plus 1 (1 if none); `order` is ignored. */
export async function createLesson({ db, who, moduleId, input }: Options & { moduleId: number; input: LessonInput }): Promise<Lesson> {
  const { module } = await moduleFor(db, who, moduleId, "edit");
  return db.transaction(async (tx) => {
    await lockCourseOf(tx, module.courseId);
    const [stillThere] = await tx.select({ id: courseModules.id }).from(courseModules).where(eq(courseModules.id, moduleId)).limit(1);
    if (!stillThere) throw new AppError("NOT_FOUND", MODULE_NOT_FOUND);
    const [row] = await tx
      .insert(lessons)
      .values({
        moduleId,
        courseId: module.courseId,
        title: input.title,
        type: input.type,
        content: input.content,
        kind: input.kind,
        releaseAfterDays: input.releaseAfterDays,
        aiGenerated: input.aiGenerated,
        order: nextOrder(lessons.order, lessons.moduleId, moduleId),
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    await touchCourse(tx, module.courseId);
    return toLesson(row, []);
  });
}

export async function getLesson({ db, who, lessonId }: Options & { lessonId: number }): Promise<Lesson> {
  const { lesson } = await lessonFor(db, who, lessonId, "view");
  return (await withSources(db, [lesson]))[0] as Lesson;
}

/** Saves the change; when the content changes, the previous content is kept as a version first. */
export async function updateLesson({ db, who, lessonId, input }: Options & { lessonId: number; input: LessonChanges }): Promise<Lesson> {
  const { lesson } = await lessonFor(db, who, lessonId, "edit");
  return saveLesson(db, lesson, input);
}

/**
 * Locks the course first, as every order write does (course, then modules, then lessons), so the two cannot
 * deadlock; the content kept as a version is the one read under that lock.
 */
async function saveLesson(
  db: Db,
  lesson: LessonRow,
  input: LessonChanges & { withoutSource?: boolean },
  also?: (tx: Tx) => Promise<void>,
): Promise<Lesson> {
  const lessonId = lesson.id;
  return db.transaction(async (tx) => {
    const { content: previousContent, kind } = await lockedLesson(tx, lesson.courseId, lessonId);
    if (kind === "reading" && input.content !== undefined && !input.content) {
      throw new AppError("BAD_REQUEST", "Content is required", { errors: { content: "Content is required" } });
    }
    if (input.content !== undefined && input.content !== previousContent && previousContent.trim()) {
      await tx.insert(lessonVersions).values({ lessonId, content: previousContent });
      await tx.execute(
        sql`delete from lesson_versions where lesson_id = ${lessonId} and id not in (select id from lesson_versions where lesson_id = ${lessonId} order by id desc limit ${KEEP_VERSIONS})`,
      );
    }
    const [row] = await tx
      .update(lessons)
      .set({ ...input, updatedAt: sql`now()` })
      .where(eq(lessons.id, lessonId))
      .returning();
    if (!row) throw new AppError("NOT_FOUND", LESSON_NOT_FOUND);
    await also?.(tx);
    await touchCourse(tx, row.courseId);
    return (await withSources(tx, [row]))[0] as Lesson;
  });
}

/**
 * A lesson written again by the AI (POST /api/lessons/{id}/regenerate): its text kept as a version as an edit keeps it,
 * the new text stored and its sources replaced by the passages it was written from, in one transaction. `passages`:
 * undefined for a course not made from material; [] when none cleared the relevance floor (`withoutSource`, decision 067).
 */
export async function saveRegeneratedLesson(
  db: Db,
  lesson: LessonRow,
  content: string,
  passages: readonly MaterialPassage[] | undefined,
): Promise<Lesson> {
  const withoutSource = passages !== undefined && passages.length === 0;
  return saveLesson(db, lesson, { content, aiGenerated: true, withoutSource }, (tx) => replaceLessonSources(tx, lesson, passages ?? []));
}

/** The lessons as the API answers them, their sources read in one query. */
async function withSources(db: Pick<Db, "select">, rows: LessonRow[]): Promise<Lesson[]> {
  const sources = await sourcesOfLessons(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toLesson(row, sources.get(row.id) ?? []));
}

async function lockCourseOf(tx: Tx, courseId: number): Promise<void> {
  if (!(await lockCourse(tx, courseId))) throw new AppError("NOT_FOUND", COURSE_NOT_FOUND);
}

/** Under the course lock, the lesson as it is now (it may have moved or gone since it was read). */
export async function lockedLesson(tx: Tx, courseId: number, lessonId: number): Promise<LessonRow> {
  await lockCourseOf(tx, courseId);
  const [row] = await tx.select().from(lessons).where(eq(lessons.id, lessonId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", LESSON_NOT_FOUND);
  return row;
}

/** Deletes the lesson and renumbers its module's lessons 1..n, in one transaction under the course lock. */
export async function deleteLesson({ db, who, lessonId }: Options & { lessonId: number }): Promise<void> {
  const { lesson } = await lessonFor(db, who, lessonId, "edit");
  await db.transaction(async (tx) => {
    await lockedLesson(tx, lesson.courseId, lessonId);
    await tx.delete(lessons).where(eq(lessons.id, lessonId));
    await closeLessonGaps(tx, lesson.moduleId);
    await touchCourse(tx, lesson.courseId);
  });
}

/** Swaps with the neighbour in its module and renumbers 1..n, under the course lock. */
export async function moveLesson({ db, who, lessonId, input }: Options & { lessonId: number; input: MoveInput }): Promise<Lesson[]> {
  const { lesson } = await lessonFor(db, who, lessonId, "edit");
  return db.transaction(async (tx) => {
    await lockedLesson(tx, lesson.courseId, lessonId);
    const siblings = await tx.select({ id: lessons.id, order: lessons.order }).from(lessons).where(eq(lessons.moduleId, lesson.moduleId));
    for (const [id, order] of moveInOrder(siblings, lessonId, input.direction)) {
      await tx.update(lessons).set({ order }).where(eq(lessons.id, id));
    }
    const rows = await tx.select().from(lessons).where(eq(lessons.moduleId, lesson.moduleId)).orderBy(asc(lessons.order), asc(lessons.id));
    return withSources(tx, rows);
  });
}

export async function listVersions({ db, who, lessonId }: Options & { lessonId: number }): Promise<LessonVersion[]> {
  await lessonFor(db, who, lessonId, "edit");
  const rows = await db.select().from(lessonVersions).where(eq(lessonVersions.lessonId, lessonId)).orderBy(desc(lessonVersions.id));
  return rows.map((r) => ({ id: r.id, lessonId: r.lessonId, content: r.content, createdAt: r.createdAt.toISOString() }));
}

/** Restoring is itself a change: the content being replaced becomes a version too. */
export async function restoreVersion({ db, who, lessonId, versionId }: Options & { lessonId: number; versionId: number }): Promise<Lesson> {
  const { lesson } = await lessonFor(db, who, lessonId, "edit");
  const [version] = await db
    .select()
    .from(lessonVersions)
    .where(and(eq(lessonVersions.id, versionId), eq(lessonVersions.lessonId, lessonId)))
    .limit(1);
  if (!version) throw new AppError("NOT_FOUND", "Version not found");
  return saveLesson(db, lesson, { content: version.content });
}
