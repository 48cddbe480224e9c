import { and, eq, sql } from "drizzle-orm";
import { lessonLockedMessage } from "../../../shared/contracts/assessment.js";
import type { Db } from "../../db/client.js";
import { courseEnrollments } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";

// Drip release (issue 32, decision 040): a lesson opens `releaseAfterDays` (the lesson's, else its module's) after
// the learner started the course, which is the first time they opened it (`course_enrollments`). The owner and admins
// are never locked; that is decided by the callers (`lessonFor` in access.ts, the outline), which know the course.

const DAY_MS = 86_400_000;

/** When a lesson opens for a learner who started at `startedAt`; null when it is open from the start. */
export function lessonOpensAt(startedAt: Date, lessonDays: number | null, moduleDays: number | null): Date | null {
  const days = lessonDays ?? moduleDays;
  return days ? new Date(startedAt.getTime() + days * DAY_MS) : null;
}

/**
 * The learner's start of the course: `known` when it was already read with the lesson or the outline, else made now
 * (one upsert, the first time only) and answered.
 */
export async function startCourse(db: Db, userId: number, courseId: number, known: Date | null): Promise<Date> {
  if (known) return known;
  const [row] = await db
    .insert(courseEnrollments)
    .values({ userId, courseId })
    .onConflictDoUpdate({
      target: [courseEnrollments.userId, courseEnrollments.courseId],
      set: { startedAt: sql`${courseEnrollments.startedAt}` },
    })
    .returning({ startedAt: courseEnrollments.startedAt });
  if (!row) throw new Error("enrolment upsert returned no row");
  return row.startedAt;
}

/** When the learner started the course, or null when they have not yet. */
export async function startOf(db: Db, userId: number, courseId: number): Promise<Date | null> {
  const [row] = await db
    .select({ startedAt: courseEnrollments.startedAt })
    .from(courseEnrollments)
    .where(and(eq(courseEnrollments.userId, userId), eq(courseEnrollments.courseId, courseId)))
    .limit(1);
  return row?.startedAt ?? null;
}

/** A learner's lesson still locked: 403 with the date it opens (`opensAt` in the error body). */
export function assertLessonOpen(opensAt: Date | null, now = new Date()): void {
  if (opensAt && opensAt > now) {
    const iso = opensAt.toISOString();
    throw new AppError("FORBIDDEN", lessonLockedMessage(iso), { opensAt: iso });
  }
}
