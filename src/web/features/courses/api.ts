import { infiniteQueryOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import { NEXT_CURSOR_HEADER } from "../../../shared/contracts/common.js";
import type { Course, CourseOutline, GenerationRun, Lesson, LessonVersion } from "../../../shared/contracts/courses.js";
import { apiRequest, apiRequestWithHeaders } from "../../lib/api-client.js";

export type CourseScope = "all" | "mine" | "public";
export const COURSE_PAGE_SIZE = 60;

export const courseKeys = {
  all: ["/api/courses"] as const,
  list: (scope: CourseScope) => ["/api/courses", "list", scope] as const,
  outline: (id: number) => ["/api/courses", id, "outline"] as const,
  generation: (id: number) => ["/api/courses", id, "generation"] as const,
  lesson: (id: number) => ["/api/lessons", id] as const,
  versions: (id: number) => ["/api/lessons", id, "versions"] as const,
};

/** GET /api/courses?scope=...: one tab of the list, page by page (next cursor in X-Next-Cursor). */
export const courseListQuery = (scope: CourseScope) =>
  infiniteQueryOptions({
    queryKey: courseKeys.list(scope),
    queryFn: async ({ pageParam }) => {
      const cursor = pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : "";
      const { data, headers } = await apiRequestWithHeaders<Course[]>(
        "GET",
        `/api/courses?scope=${scope}&limit=${COURSE_PAGE_SIZE}${cursor}`,
      );
      return { items: data ?? [], nextCursor: headers.get(NEXT_CURSOR_HEADER) || null };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** GET /api/courses/{id}/outline: the course, its modules and lessons (no content), progress and rights in one request. */
export const outlineQuery = (id: number) =>
  queryOptions({ queryKey: courseKeys.outline(id), queryFn: () => apiRequest<CourseOutline>("GET", `/api/courses/${id}/outline`) });

/** GET /api/lessons/{id}: one lesson with its content. */
export const lessonQuery = (id: number) =>
  queryOptions({ queryKey: courseKeys.lesson(id), queryFn: () => apiRequest<Lesson>("GET", `/api/lessons/${id}`) });

/** GET /api/lessons/{id}/versions: earlier contents, newest first. */
export const versionsQuery = (id: number) =>
  queryOptions({
    queryKey: courseKeys.versions(id),
    queryFn: () => apiRequest<LessonVersion[]>("GET", `/api/lessons/${id}/versions`),
    staleTime: 0,
  });

/** GET /api/courses/{id}/generation: the latest run (null when there is none: 204); read every second while it runs. */
export const generationQuery = (courseId: number) =>
  queryOptions({
    queryKey: courseKeys.generation(courseId),
    queryFn: async () => (await apiRequest<GenerationRun | undefined>("GET", `/api/courses/${courseId}/generation`)) ?? null,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
  });

/** After a change to a course, its modules or lessons: the lists and the outline are read again. */
export function refreshCourse(client: QueryClient, courseId?: number) {
  if (courseId === undefined) return client.invalidateQueries({ queryKey: courseKeys.all });
  void client.invalidateQueries({ queryKey: ["/api/courses", "list"] });
  return client.invalidateQueries({ queryKey: courseKeys.outline(courseId) });
}

/** Puts a saved course into the cached outline at once (the lists are read again). */
export function putCourse(client: QueryClient, course: Course) {
  client.setQueryData<CourseOutline>(courseKeys.outline(course.id), (old) => (old ? { ...old, course } : old));
  void client.invalidateQueries({ queryKey: ["/api/courses", "list"] });
}
