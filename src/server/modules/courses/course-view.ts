import {
  CERTIFICATE_STYLES,
  type CertificateStyle,
  type Course,
  type CourseModule,
  type Lesson,
} from "../../../shared/contracts/courses.js";
import type { courseModules, courses, lessons } from "../../db/schema/index.js";

export type CourseRow = typeof courses.$inferSelect;
export type ModuleRow = typeof courseModules.$inferSelect;
export type LessonRow = typeof lessons.$inferSelect;

/** The stored style, `classic` for anything else. */
export const certificateStyleOf = (value: string): CertificateStyle =>
  (CERTIFICATE_STYLES as readonly string[]).includes(value) ? (value as CertificateStyle) : "classic";

export function toCourse(row: CourseRow): Course {
  return {
    id: row.id,
    userId: row.userId,
    title: row.title,
    description: row.description,
    status: row.status as Course["status"],
    isPublic: row.isPublic,
    listedInCatalog: row.listedInCatalog,
    certificateStyle: certificateStyleOf(row.certificateStyle),
    coverImage: row.coverImage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toModule(row: ModuleRow): CourseModule {
  return {
    id: row.id,
    courseId: row.courseId,
    title: row.title,
    description: row.description,
    order: row.order,
    releaseAfterDays: row.releaseAfterDays,
  };
}

/** A lesson as the API answers it, with its sources (`sourcesOfLessons`; [] for a lesson written without any). */
export function toLesson(row: LessonRow, sources: Lesson["sources"]): Lesson {
  return {
    id: row.id,
    moduleId: row.moduleId,
    courseId: row.courseId,
    title: row.title,
    type: row.type as Lesson["type"],
    kind: row.kind === "quiz" ? "quiz" : "reading",
    content: row.content,
    order: row.order,
    releaseAfterDays: row.releaseAfterDays,
    aiGenerated: row.aiGenerated,
    sources,
    withoutSource: row.withoutSource,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
