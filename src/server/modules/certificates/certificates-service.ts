import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { type Certificate, certificateParamsSchema, QUESTION_MESSAGES } from "../../../shared/contracts/assessment.js";
import { COURSE_NOT_FOUND } from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { certificates, courses } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { lookedAfterBy, type Who } from "../../lib/who.js";
import { canEdit, courseFor } from "../courses/access.js";
import { settleCompletion } from "../courses/completion.js";
import { type CourseRow, certificateStyleOf } from "../courses/course-view.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { certificatePdf } from "./certificate-pdf.js";

type Options = { db: Db; who: Who };
type CertificateRow = typeof certificates.$inferSelect;

function toCertificate(row: CertificateRow): Certificate {
  return {
    code: row.code,
    learnerName: row.learnerName,
    courseTitle: row.courseTitle,
    ownerName: row.ownerName,
    issuedAt: row.issuedAt.toISOString(),
    revoked: row.revokedAt !== null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** A course its owner or an admin looks after; anyone else gets 404, as if it did not exist (analytics, certificates). */
export async function lookedAfterCourse(db: Db, who: Who, courseId: number): Promise<CourseRow> {
  const [course] = await db
    .select()
    .from(courses)
    .where(and(eq(courses.id, courseId), lookedAfterBy(who, courses.userId)))
    .limit(1);
  if (!course) throw new AppError("NOT_FOUND", COURSE_NOT_FOUND);
  return course;
}

/** The learner's certificate of a completed course, as a PDF with the verification URL (`<origin>/certificates/<code>`). */
export async function certificateFile({ db, who, courseId, origin }: Options & { courseId: number; origin: string }) {
  const course = await courseFor(db, who, courseId, "view");
  const { code } = canEdit(course, who) ? { code: null } : await settleCompletion(db, who.id, courseId);
  if (!code) throw new AppError("FORBIDDEN", QUESTION_MESSAGES.notComplete);
  const [row] = await db.select().from(certificates).where(eq(certificates.code, code)).limit(1);
  if (!row) throw new AppError("FORBIDDEN", QUESTION_MESSAGES.notComplete);
  if (row.revokedAt) throw new AppError("FORBIDDEN", QUESTION_MESSAGES.certificateRevoked);
  const { platformName } = await readPlatformSettings(db);
  const pdf = await certificatePdf({
    platformName,
    // The style is the course's now (an earlier certificate is printed in it too); the names are as issued.
    style: certificateStyleOf(course.certificateStyle),
    learnerName: row.learnerName,
    courseTitle: row.courseTitle,
    ownerName: row.ownerName,
    issuedAt: row.issuedAt,
    verifyUrl: `${origin}/certificates/${row.code}`,
  });
  return { code: row.code, pdf };
}

/** Anyone: the certificate as issued, and whether it was revoked. */
export async function verifyCertificate({ db, code }: { db: Db; code: string }): Promise<Certificate> {
  const [row] = await db.select().from(certificates).where(eq(certificates.code, code)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", QUESTION_MESSAGES.certificateNotFound);
  return toCertificate(row);
}

/** Whether a certificate with this code was ever issued (revoked ones too): its verification page is a 404 otherwise. */
export async function certificateIssued({ db, code }: { db: Db; code: string }): Promise<boolean> {
  if (!certificateParamsSchema.safeParse({ code }).success) return false;
  const [row] = await db.select({ id: certificates.id }).from(certificates).where(eq(certificates.code, code)).limit(1);
  return row !== undefined;
}

/** The course's owner or an admin revokes a certificate (again: no change); anyone else gets 404. */
export async function revokeCertificate({ db, who, code }: Options & { code: string }): Promise<Certificate> {
  const lookedAfter = db.select({ id: courses.id }).from(courses).where(lookedAfterBy(who, courses.userId));
  const [row] = await db
    .update(certificates)
    .set({
      revokedAt: sql`coalesce(${certificates.revokedAt}, now())`,
      revokedBy: sql`coalesce(${certificates.revokedBy}, ${who.id})`,
    })
    .where(and(eq(certificates.code, code), inArray(certificates.courseId, lookedAfter)))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", QUESTION_MESSAGES.certificateNotFound);
  return toCertificate(row);
}

/** A course's certificates, newest first (its owner and admins). */
export async function courseCertificates({ db, who, courseId }: Options & { courseId: number }): Promise<Certificate[]> {
  await lookedAfterCourse(db, who, courseId);
  const rows = await db
    .select()
    .from(certificates)
    .where(eq(certificates.courseId, courseId))
    .orderBy(desc(certificates.issuedAt), desc(certificates.id));
  return rows.map(toCertificate);
}
