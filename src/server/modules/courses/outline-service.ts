import { and, asc, eq, sql } from "drizzle-orm";
import type { CourseOutline } from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { certificates, courseEnrollments, courseModules, courses, lessonCompletions, lessons } from "../../db/schema/index.js";
import type { Who } from "../../lib/who.js";
import { canEdit, courseFor, lessonFor } from "./access.js";
import { countsTowardsCompletion, isComplete, issueCertificate, lessonDoneBy, settleCompletion } from "./completion.js";
import { toCourse, toModule } from "./course-view.js";
import { lessonOpensAt, startCourse } from "./drip.js";

type OutlineModule = CourseOutline["modules"][number];

/**
 * The detail and editor screens in one request and a few queries: the course; its modules with their lessons (no
 * bodies), whether each counts towards completion and whether this reader is done with it, beside this reader's start
 * and certificate; for a learner, the enrolment on the first read and the certificate on completion; for the owner or
 * an admin, how many learners started and finished.
 */
export async function getOutline(options: { db: Db; who: Who; courseId: number }): Promise<CourseOutline> {
  const { db, who, courseId } = options;
  const course = await courseFor(db, who, courseId, "view");
  const editable = canEdit(course, who);
  const [rows, [reader]] = await Promise.all([
    db
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
        counts: countsTowardsCompletion,
        done: lessonDoneBy(who.id),
      })
      .from(courseModules)
      .leftJoin(lessons, eq(lessons.moduleId, courseModules.id))
      .where(eq(courseModules.courseId, courseId))
      .orderBy(asc(courseModules.order), asc(courseModules.id), asc(lessons.order), asc(lessons.id)),
    db
      .select({ startedAt: courseEnrollments.startedAt, code: certificates.code })
      .from(courses)
      .leftJoin(courseEnrollments, and(eq(courseEnrollments.courseId, courses.id), eq(courseEnrollments.userId, who.id)))
      .leftJoin(certificates, and(eq(certificates.courseId, courses.id), eq(certificates.userId, who.id)))
      .where(eq(courses.id, courseId)),
  ]);
  const startedAt = editable ? null : await startCourse(db, who.id, courseId, reader?.startedAt ?? null);
  const now = new Date();

  const modules: OutlineModule[] = [];
  let completed = 0;
  let total = 0;
  let nextLessonId: number | null = null;
  for (const row of rows) {
    let current = modules.at(-1);
    if (current?.id !== row.module.id) {
      current = { ...toModule(row.module), lessons: [] };
      modules.push(current);
    }
    if (row.lesson) {
      const done = Boolean(row.done);
      if (row.counts) {
        total += 1;
        if (done) completed += 1;
        else nextLessonId ??= row.lesson.id;
      }
      const opensAt = startedAt ? lessonOpensAt(startedAt, row.lesson.releaseAfterDays, row.module.releaseAfterDays) : null;
      current.lessons.push({
        ...row.lesson,
        type: row.lesson.type as OutlineModule["lessons"][number]["type"],
        kind: row.lesson.kind === "quiz" ? "quiz" : "reading",
        createdAt: row.lesson.createdAt.toISOString(),
        updatedAt: row.lesson.updatedAt.toISOString(),
        completed: done,
        locked: opensAt !== null && opensAt > now,
        opensAt: opensAt?.toISOString() ?? null,
      });
    }
  }
  const complete = isComplete(completed, total);
  let certificateCode = reader?.code ?? null;
  if (complete && !certificateCode && !editable) certificateCode = await issueCertificate(db, who.id, courseId);
  return {
    course: toCourse(course),
    canEdit: editable,
    modules,
    progress: { completed, total, nextLessonId, complete, certificateCode },
    learners: editable ? await learnerCounts(db, courseId) : null,
  };
}

/** Learners who started the course (opened it) and who completed it. */
async function learnerCounts(db: Db, courseId: number): Promise<{ started: number; finished: number }> {
  const [row] = await db
    .select({
      started: sql<number>`count(*)::int`,
      finished: sql<number>`count(${courseEnrollments.completedAt})::int`,
    })
    .from(courseEnrollments)
    .where(eq(courseEnrollments.courseId, courseId));
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
  const { course, lesson } = await lessonFor(db, who, lessonId, "view");
  if (completed) {
    await db.insert(lessonCompletions).values({ userId: who.id, lessonId, courseId: lesson.courseId }).onConflictDoNothing();
    if (!canEdit(course, who)) await settleCompletion(db, who.id, lesson.courseId);
  } else {
    await db.delete(lessonCompletions).where(and(eq(lessonCompletions.userId, who.id), eq(lessonCompletions.lessonId, lessonId)));
  }
  return { completed };
}
