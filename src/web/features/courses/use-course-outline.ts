import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { MAX_ID } from "../../../shared/contracts/common.js";
import type { CourseOutline } from "../../../shared/contracts/courses.js";
import { isApiError } from "../../lib/api-client.js";
import { outlineQuery } from "./api.js";
import { toastFailure } from "./course-toasts.js";

export type LoadFailure = "missing" | "forbidden" | "failed";

/** How a failed read is shown: 404 and 403 have their own views; anything else toasts and offers Retry. */
export function loadFailure(error: unknown): LoadFailure | null {
  if (!error) return null;
  if (isApiError(error) && error.status === 404) return "missing";
  if (isApiError(error) && error.status === 403) return "forbidden";
  return "failed";
}

/** A route's id: a positive whole number, or null (the page then redirects to /courses). */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 && id <= MAX_ID ? id : null;
}

/** The course's outline for the detail, editor and reader screens ("Error loading course" when it fails for another reason). */
export function useCourseOutline(courseId: number) {
  const query = useQuery(outlineQuery(courseId));
  const failure = loadFailure(query.error);
  useEffect(() => {
    if (failure === "failed") toastFailure("loadCourse", query.error);
  }, [failure, query.error]);
  return { query, failure };
}

/** Modules and lessons in reading order (by `order`). */
export function sortedModules(outline: CourseOutline): CourseOutline["modules"] {
  return [...outline.modules]
    .sort((a, b) => a.order - b.order)
    .map((module) => ({ ...module, lessons: [...module.lessons].sort((a, b) => a.order - b.order) }));
}

/** Every lesson of the course in reading order, each with its module. */
export function readingOrder(outline: CourseOutline) {
  return sortedModules(outline).flatMap((module) => module.lessons.map((lesson) => ({ lesson, module })));
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });
}
