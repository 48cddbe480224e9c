import { eq } from "drizzle-orm";
import { COURSE_EDIT_FORBIDDEN, COURSE_FORBIDDEN, COURSE_NOT_FOUND } from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { courseModules, courses, lessons } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CourseRow, LessonRow, ModuleRow } from "./course-view.js";

/** Who is asking, as far as courses care. */
export interface Reader {
  id: number;
  role: "user" | "admin";
}

/**
 * The course rules (issue 6, DESIGN.md section 4): the owner and admins see and edit
 * everything; any signed-in user reads a public, published course; anything else of
 * someone else's is 403 (the screen shows Access Restricted); an unknown id is 404.
 * Modules and lessons take their permission from their course.
 */
export function canEdit(course: CourseRow, who: Reader): boolean {
  return who.role === "admin" || course.userId === who.id;
}

export function canView(course: CourseRow, who: Reader): boolean {
  return canEdit(course, who) || (course.isPublic && course.status === "published");
}

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
  if (!row) throw new AppError("NOT_FOUND", "Module not found");
  return { course: check(row.course, who, mode), module: row.module };
}

/** A lesson with its course, in one query; 404 "Lesson not found" when it does not exist. */
export async function lessonFor(
  db: Db,
  who: Reader,
  lessonId: number,
  mode: "view" | "edit",
): Promise<{ course: CourseRow; lesson: LessonRow }> {
  const [row] = await db
    .select({ lesson: lessons, course: courses })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(eq(lessons.id, lessonId))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Lesson not found");
  return { course: check(row.course, who, mode), lesson: row.lesson };
}
