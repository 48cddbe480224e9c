import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { certificates, courseEnrollments, lessons } from "../../db/schema/index.js";

// Completion (issue 32, decision 040): a course is complete for a learner when every reading lesson is done
// (lesson_completions) and every published quiz is passed (a quiz_attempts row with passed). A quiz nobody published
// does not count. On completion the learner's certificate is issued, once per learner and course.

/** Whether this lesson counts towards completion: a reading lesson, or a quiz with a published version. */
export const countsTowardsCompletion = sql<boolean>`(${lessons.kind} <> 'quiz' or exists (select 1 from quiz_versions qv where qv.lesson_id = ${lessons.id}))`;

/** Whether this learner is done with this lesson: a reading lesson marked done, a quiz passed on any attempt. */
export const lessonDoneBy = (userId: number) =>
  sql<boolean>`(case when ${lessons.kind} = 'quiz'
    then exists (select 1 from quiz_attempts qa where qa.lesson_id = ${lessons.id} and qa.user_id = ${userId} and qa.passed)
    else exists (select 1 from lesson_completions lc where lc.lesson_id = ${lessons.id} and lc.user_id = ${userId}) end)`;

export interface Completion {
  completed: number;
  total: number;
  complete: boolean;
}

export const isComplete = (completed: number, total: number) => total > 0 && completed >= total;

/** The learner's progress in one query (the outline counts the same way from its rows). */
export async function courseProgress(db: Db, userId: number, courseId: number): Promise<Completion> {
  const [row] = await db
    .select({
      total: sql<number>`count(*) filter (where ${countsTowardsCompletion})::int`,
      completed: sql<number>`count(*) filter (where ${countsTowardsCompletion} and ${lessonDoneBy(userId)})::int`,
    })
    .from(lessons)
    .where(eq(lessons.courseId, courseId));
  const total = Number(row?.total ?? 0);
  const completed = Number(row?.completed ?? 0);
  return { completed, total, complete: isComplete(completed, total) };
}

/** The learner's certificate code for this course, or null. */
export async function certificateCodeOf(db: Db, userId: number, courseId: number): Promise<string | null> {
  const [row] = await db
    .select({ code: certificates.code })
    .from(certificates)
    .where(and(eq(certificates.courseId, courseId), eq(certificates.userId, userId)))
    .limit(1);
  return row?.code ?? null;
}

/**
 * Issues the certificate of a completed course and marks the enrolment completed: idempotent, and one certificate per
 * learner and course even when parallel requests get here (the unique index decides; the loser reads the winner's).
 * The learner's name, the course's title and the owner's name are kept as they are now. Answers the code.
 */
export async function issueCertificate(db: Db, userId: number, courseId: number): Promise<string> {
  await db
    .insert(courseEnrollments)
    .values({ userId, courseId, completedAt: sql`now()` })
    .onConflictDoUpdate({
      target: [courseEnrollments.userId, courseEnrollments.courseId],
      set: { completedAt: sql`coalesce(${courseEnrollments.completedAt}, now())` },
    });
  const code = randomBytes(12).toString("base64url");
  await db.execute(sql`
    insert into certificates (code, course_id, user_id, learner_name, course_title, owner_name)
    select ${code}, c.id, learner.id, coalesce(nullif(learner.name, ''), learner.username), c.title,
           coalesce(nullif(owner.name, ''), owner.username)
    from courses c join users owner on owner.id = c.user_id, users learner
    where c.id = ${courseId} and learner.id = ${userId}
    on conflict (course_id, user_id) do nothing`);
  const issued = await certificateCodeOf(db, userId, courseId);
  if (!issued) throw new Error("certificate not issued");
  return issued;
}

/**
 * After anything that may complete a course (a lesson marked done, a quiz passed, the certificate asked for): the
 * learner's progress, and the certificate issued when complete. Answers the code, or null when not complete.
 */
export async function settleCompletion(db: Db, userId: number, courseId: number): Promise<{ progress: Completion; code: string | null }> {
  const progress = await courseProgress(db, userId, courseId);
  if (!progress.complete) return { progress, code: await certificateCodeOf(db, userId, courseId) };
  return { progress, code: (await certificateCodeOf(db, userId, courseId)) ?? (await issueCertificate(db, userId, courseId)) };
}
