import type { QueryClient } from "@tanstack/react-query";
import { currentUserQuery } from "../../domain/session.js";
import { isApiError } from "../../lib/api-client.js";
import { failureText } from "../../lib/failure-text.js";
import { notify } from "../../lib/notify.js";

/** Each failure toast's title and the text shown when the server sends none. */
export const FAILURES = {
  createCourse: ["Error creating course", "Failed to create course"],
  deleteCourse: ["Error deleting course", "Failed to delete course"],
  loadCourse: ["Error loading course", undefined],
  loadLesson: ["Error loading lesson", undefined],
  updateCourse: ["Error updating course", "Failed to update course"],
  addModule: ["Error adding module", "Failed to add module"],
  addLesson: ["Error adding lesson", "Failed to add lesson"],
  updateLesson: ["Error updating lesson", "Failed to update lesson"],
  deleteModule: ["Error deleting module", "Failed to delete module"],
  deleteLesson: ["Error deleting lesson", "Failed to delete lesson"],
  describe: ["Error generating description", "Failed to generate AI description. Please try again or enter your own."],
  content: ["Error generating content", "Failed to generate AI content. Please try again or enter your own content."],
  course: ["Error Generating Course", "Failed to generate course content"],
  // Not in the product's catalogue (the screens it adds): the same pattern.
  updateModule: ["Error updating module", "Failed to update module"],
  moveModule: ["Error moving module", "Failed to move module"],
  moveLesson: ["Error moving lesson", "Failed to move lesson"],
  progress: ["Error saving progress", "Failed to save your progress"],
  regenerate: ["Error regenerating lesson", "Failed to regenerate the lesson. Its text is unchanged; please try again."],
} as const satisfies Record<string, readonly [string, string | undefined]>;

export type Failure = keyof typeof FAILURES;

/** A destructive toast with the product's title. */
export function toastFailure(kind: Failure, error: unknown) {
  const [title, fallback] = FAILURES[kind];
  notify.error(title, failureText(error, fallback));
}

/** An AI call refused with 403: the plan may have changed since the page loaded, so the user is read again. */
export function refreshPlanOn403(client: QueryClient, error: unknown) {
  if (isApiError(error) && error.status === 403) void client.invalidateQueries({ queryKey: currentUserQuery.queryKey });
}
