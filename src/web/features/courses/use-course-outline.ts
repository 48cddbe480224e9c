import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import type { CourseOutline } from "../../../shared/contracts/courses.js";
import { loadFailure } from "../../lib/load-failure.js";
import { outlineQuery } from "./api.js";
import { toastFailure } from "./course-toasts.js";

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
