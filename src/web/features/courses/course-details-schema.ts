import type { z } from "zod";
import { type Course, updateCourseBodySchema } from "../../../shared/contracts/courses.js";

/** The editor's details form: the contract's PATCH body with title and status required ("Title is required", "Status is required"). */
export const courseDetailsSchema = updateCourseBodySchema.required({ title: true, status: true });
export type CourseDetailsInput = z.input<typeof courseDetailsSchema>;
export type CourseDetailsOutput = z.output<typeof courseDetailsSchema>;

export const COURSE_DETAIL_FIELDS = ["title", "description", "status", "isPublic", "listedInCatalog", "certificateStyle"] as const;

/** The stored values, which Reset Changes brings back. */
export function courseDetailsValues(course: Course): CourseDetailsInput {
  return {
    title: course.title,
    description: course.description,
    status: course.status,
    isPublic: course.isPublic,
    listedInCatalog: course.listedInCatalog,
    certificateStyle: course.certificateStyle,
  };
}
