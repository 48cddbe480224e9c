import { sql } from "drizzle-orm";
import { tutorClosedForQuiz } from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { canEdit } from "./access.js";
import type { CourseRow } from "./course-view.js";

// The lesson tutor during a graded quiz (issue 42 item 17, decision 067): while a learner has an attempt in progress on
// a quiz of a course, the tutor of every lesson of that course is closed to them (it knows the course's material, so
// any lesson's tutor could answer the quiz), unless the quiz's owner let the tutor open during attempts of the version
// the attempt was started on. The course's owner and admins are never held (they edit the quiz and hold its key).

/**
 * The title of a quiz of `lessonId`'s course on which `userId` has an attempt in progress whose version keeps the tutor
 * closed, or null: one read over the learner's open attempts (at most one per quiz).
 */
export async function quizClosingTutor(db: Db, userId: number, lessonId: number): Promise<string | null> {
  const result = await db.execute(sql`
    select l.title from quiz_attempts a
      join quiz_versions v on v.id = a.version_id
      join lessons l on l.id = a.lesson_id
    where a.user_id = ${userId}::int and a.status = 'open' and not v.tutor_open
      and a.course_id = (select course_id from lessons where id = ${lessonId}::int)
    order by a.started_at, a.id
    limit 1`);
  const row = result.rows[0] as { title: string } | undefined;
  return row?.title ?? null;
}

/** Refuses (403, the quiz named) when a quiz holds the tutor closed for `who`; never for the course's owner or an admin. */
export function assertTutorOpen(closingQuiz: string | null, course: CourseRow, who: Who): void {
  if (closingQuiz !== null && !canEdit(course, who)) throw new AppError("FORBIDDEN", tutorClosedForQuiz(closingQuiz));
}
