import { and, eq, or, type SQL } from "drizzle-orm";
import {
  COURSE_EDIT_FORBIDDEN,
  COURSE_FORBIDDEN,
  COURSE_NOT_FOUND,
  LESSON_NOT_FOUND,
  MODULE_NOT_FOUND,
} from "../../../shared/contracts/courses.js";
import { looksAfterAll, ownerOrAdmin } from "../../../shared/owner-or-admin.js";
import type { Db } from "../../db/client.js";
import { courseEnrollments, courseModules, courses, lessons, OPEN_TO_ALL } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CourseRow, LessonRow, ModuleRow } from "./course-view.js";
import { assertLessonOpen, lessonOpensAt, startCourse } from "./drip.js";

/** Who is asking, as far as courses care. */
export interface Reader {
  id: number;
  role: "user" | "admin";
}

/**
 * The course rules (issue 6): the owner and admins see and edit
 * everything; any signed-in user reads a public, published course; anything else of
 * someone else's is 403 (the screen shows Access Restricted); an unknown id is 404.
 * Modules and lessons take their permission from their course.
 */
export function canEdit(course: CourseRow, who: Reader): boolean {
  return ownerOrAdmin(who, course.userId);
}

/** Public and published: any signed-in user reads it. In a query: `openToAll`. */
export const isOpenToAll = (course: Pick<CourseRow, "isPublic" | "status">): boolean => course.isPublic && course.status === "published";

export function canView(course: CourseRow, who: Reader): boolean {
  return canEdit(course, who) || isOpenToAll(course);
}

/** `isOpenToAll` as a query's condition. */
export const openToAll = OPEN_TO_ALL(courses);

/** The courses `who` may read, as a query's condition (`canView`): none for an admin, who reads every course. */
export const viewableBy = (who: Reader): SQL | undefined => (looksAfterAll(who) ? undefined : or(eq(courses.userId, who.id), openToAll));

function check(course: CourseRow | undefined, who: Reader, mode: "view" | "edit"): CourseRow {
  if (!course) throw new AppError("NOT_FOUND", COURSE_NOT_FOUND);
  if (mode === "edit" && !canEdit(course, who)) {
    throw new AppError("FORBIDDEN", canView(course, who) ? COURSE_EDIT_FORBIDDEN : COURSE_FORBIDDEN);
  }
  if (!canView(course, who)) throw new AppError("FORBIDDEN", COURSE_FORBIDDEN);
  return course;
}

export async function courseFor(db: Db, who: Reader, courseId: number, mode: "view" | "edit"): Promise<CourseRow> {
  const [course] = await db.select().from(courses).where(eq(courses.id, courseId)).limit(1);
  return check(course, who, mode);
}

/** A module with its course, in one query; 404 "Module not found" when it does not exist. */
export async function moduleFor(
  db: Db,
  who: Reader,
  moduleId: number,
  mode: "view" | "edit",
): Promise<{ course: CourseRow; module: ModuleRow }> {
  const [row] = await db
    .select({ module: courseModules, course: courses })
    .from(courseModules)
    .innerJoin(courses, eq(courses.id, courseModules.courseId))
    .where(eq(courseModules.id, moduleId))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", MODULE_NOT_FOUND);
  return { course: check(row.course, who, mode), module: row.module };
}

/**
 * A lesson with its course, in one query; 404 "Lesson not found" when it does not exist. Viewing is also where drip
 * release is enforced (issue 32): a learner (not the owner, not an admin) starts the course here the first time, and a
 * lesson that is not open yet is a 403 with the date it opens, for every route that gives the lesson's content or quiz.
 */
export async function lessonFor(
  db: Db,
  who: Reader,
  lessonId: number,
  mode: "view" | "edit",
): Promise<{ course: CourseRow; lesson: LessonRow }> {
  const [row] = await db
    .select({ lesson: lessons, course: courses, moduleDays: courseModules.releaseAfterDays, startedAt: courseEnrollments.startedAt })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .innerJoin(courseModules, eq(courseModules.id, lessons.moduleId))
    .leftJoin(courseEnrollments, and(eq(courseEnrollments.courseId, lessons.courseId), eq(courseEnrollments.userId, who.id)))
    .where(eq(lessons.id, lessonId))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", LESSON_NOT_FOUND);
  const course = check(row.course, who, mode);
  if (mode === "view" && !canEdit(course, who)) {
    const startedAt = await startCourse(db, who.id, course.id, row.startedAt);
    assertLessonOpen(lessonOpensAt(startedAt, row.lesson.releaseAfterDays, row.moduleDays));
  }
  return { course, lesson: row.lesson };
}
