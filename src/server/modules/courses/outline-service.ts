import { and, asc, eq, sql } from "drizzle-orm";
import type { CourseOutline } from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { courseModules, lessonCompletions, lessons } from "../../db/schema/index.js";
import type { Who } from "../../lib/who.js";
import { canEdit, courseFor, lessonFor } from "./access.js";
import { toCourse, toModule } from "./course-view.js";

type OutlineModule = CourseOutline["modules"][number];

/**
 * The detail and editor screens in one request and at most three queries: the course,
 * its modules with their lessons (no bodies) and this reader's completions in one join,
 * and, for the owner or an admin, how many learners started and finished.
 */
export async function getOutline(options: { db: Db; who: Who; courseId: number }): Promise<CourseOutline> {
  const { db, who, courseId } = options;
  const course = await courseFor(db, who, courseId, "view");
  const rows = await db
    .select({
      module: courseModules,
      lesson: {
        id: lessons.id,
        moduleId: lessons.moduleId,
        courseId: lessons.courseId,
        title: lessons.title,
        type: lessons.type,
        kind: lessons.kind,
        order: lessons.order,
        releaseAfterDays: lessons.releaseAfterDays,
        aiGenerated: lessons.aiGenerated,
        createdAt: lessons.createdAt,
        updatedAt: lessons.updatedAt,
      },
      completed: sql<boolean>`${lessonCompletions.lessonId} is not null`,
    })
    .from(courseModules)
    .leftJoin(lessons, eq(lessons.moduleId, courseModules.id))
    .leftJoin(lessonCompletions, and(eq(lessonCompletions.lessonId, lessons.id), eq(lessonCompletions.userId, who.id)))
    .where(eq(courseModules.courseId, courseId))
    .orderBy(asc(courseModules.order), asc(courseModules.id), asc(lessons.order), asc(lessons.id));

  const modules: OutlineModule[] = [];
  for (const row of rows) {
    let current = modules.at(-1);
    if (current?.id !== row.module.id) {
      current = { ...toModule(row.module), lessons: [] };
      modules.push(current);
    }
    if (row.lesson) {
      current.lessons.push({
        ...row.lesson,
        type: row.lesson.type as OutlineModule["lessons"][number]["type"],
        kind: row.lesson.kind === "quiz" ? "quiz" : "reading",
        createdAt: row.lesson.createdAt.toISOString(),
        updatedAt: row.lesson.updatedAt.toISOString(),
        completed: Boolean(row.completed),
      });
    }
  }
  const all = modules.flatMap((m) => m.lessons);
  const completed = all.filter((l) => l.completed).length;
  const editable = canEdit(course, who);
  return {
    course: toCourse(course),
    canEdit: editable,
    modules,
    progress: { completed, total: all.length, nextLessonId: all.find((l) => !l.completed)?.id ?? null },
    learners: editable ? await learnerCounts(db, courseId) : null,
  };
}

async function learnerCounts(db: Db, courseId: number): Promise<{ started: number; finished: number }> {
  const result = await db.execute(sql`
    select count(*)::int as started,
           count(*) filter (where done >= total and total > 0)::int as finished
    from (select user_id, count(*) as done from lesson_completions where course_id = ${courseId} group by user_id) per_user,
         (select count(*) as total from lessons where course_id = ${courseId}) lesson_count`);
  const row = result.rows[0] as { started: number; finished: number } | undefined;
  return { started: Number(row?.started ?? 0), finished: Number(row?.finished ?? 0) };
}

/** A reader marks a lesson done (or undoes it): anyone who may read the course. */
export async function setLessonCompleted(options: {
  db: Db;
  who: Who;
  lessonId: number;
  completed: boolean;
}): Promise<{ completed: boolean }> {
  const { db, who, lessonId, completed } = options;
  const { lesson } = await lessonFor(db, who, lessonId, "view");
  if (completed) {
    await db.insert(lessonCompletions).values({ userId: who.id, lessonId, courseId: lesson.courseId }).onConflictDoNothing();
  } else {
    await db.delete(lessonCompletions).where(and(eq(lessonCompletions.userId, who.id), eq(lessonCompletions.lessonId, lessonId)));
  }
  return { completed };
}
