import type { z } from "zod";
import { type Lesson, lessonFieldsSchema, readingNeedsContent } from "../../../shared/contracts/courses.js";

/** Add Lesson and the inline editor: title, type and content required (docs/product.md, Validation messages). */
export const lessonFormSchema = readingNeedsContent(lessonFieldsSchema.omit({ order: true }));
export type LessonFormInput = z.input<typeof lessonFormSchema>;
export type LessonFormOutput = z.output<typeof lessonFormSchema>;

export const LESSON_FIELDS = ["title", "type", "content", "releaseAfterDays"] as const;

export function lessonFormValues(lesson?: Lesson): LessonFormInput {
  return {
    title: lesson?.title ?? "",
    type: lesson?.type ?? "reading",
    content: lesson?.content ?? "",
    kind: lesson?.kind ?? "reading",
    releaseAfterDays: lesson?.releaseAfterDays ?? null,
    aiGenerated: lesson?.aiGenerated ?? false,
  };
}
