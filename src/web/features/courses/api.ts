import { infiniteQueryOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import { type Course, type CourseOutline, courseAiApi, coursesApi, lessonsApi } from "../../../shared/contracts/courses.js";
import { call, endpointKey } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";

export type CourseScope = "all" | "mine" | "public";
export const COURSE_PAGE_SIZE = 60;

/**
 * The course reads in the cache, named by their endpoint (`endpointKey`): without an id a key reaches
 * every read of that endpoint (all tabs of the list, every outline...), with one only that resource's.
 */
export const courseKeys = {
  lists: () => endpointKey(coursesApi.list),
  list: (scope: CourseScope) => endpointKey(coursesApi.list, { query: { scope, limit: COURSE_PAGE_SIZE } }),
  outlines: () => endpointKey(coursesApi.outline),
  outline: (id: number) => endpointKey(coursesApi.outline, { params: { id } }),
  generations: () => endpointKey(courseAiApi.generation),
  generation: (id: number) => endpointKey(courseAiApi.generation, { params: { id } }),
  lesson: (id: number) => endpointKey(lessonsApi.get, { params: { id } }),
  versions: (id: number) => endpointKey(lessonsApi.versions, { params: { id } }),
};

/** GET /api/courses?scope=...: one tab of the list, page by page (next cursor in X-Next-Cursor). */
export const courseListQuery = (scope: CourseScope) =>
  infiniteQueryOptions({
    queryKey: courseKeys.list(scope),
    queryFn: ({ pageParam, signal }) =>
      call(coursesApi.list, { query: { scope, limit: COURSE_PAGE_SIZE, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor || null,
  });

/** GET /api/courses/{id}/outline: the course, its modules and lessons (no content), progress and rights in one request. */
export const outlineQuery = (id: number) => endpointQuery(coursesApi.outline, { params: { id } });

/** GET /api/lessons/{id}: one lesson with its content. */
export const lessonQuery = (id: number) => endpointQuery(lessonsApi.get, { params: { id } });

/** GET /api/lessons/{id}/versions: earlier contents, newest first. */
export const versionsQuery = (id: number) => queryOptions({ ...endpointQuery(lessonsApi.versions, { params: { id } }), staleTime: 0 });

/** GET /api/courses/{id}/generation: the latest run (null when there is none: 204); read every second while it runs. */
export const generationQuery = (courseId: number) =>
  queryOptions({
    queryKey: courseKeys.generation(courseId),
    queryFn: async ({ signal }) => (await call(courseAiApi.generation, { params: { id: courseId } }, { signal })) ?? null,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
  });

/** After a change to a course, its modules or lessons: the lists and the outline are read again (every course's without an id). */
export function refreshCourse(client: QueryClient, courseId?: number) {
  if (courseId === undefined) {
    const keys = [courseKeys.lists(), courseKeys.outlines(), courseKeys.generations()];
    return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
  }
  void client.invalidateQueries({ queryKey: courseKeys.lists() });
  return client.invalidateQueries({ queryKey: courseKeys.outline(courseId) });
}

/** Puts a saved course into the cached outline at once (the lists are read again). */
export function putCourse(client: QueryClient, course: Course) {
  client.setQueryData<CourseOutline>(outlineQuery(course.id).queryKey, (old) => (old ? { ...old, course } : old));
  void client.invalidateQueries({ queryKey: courseKeys.lists() });
}

/** A deleted course: its cached reads go, the lists are read again. */
export function forgetCourse(client: QueryClient, courseId: number) {
  client.removeQueries({ queryKey: courseKeys.outline(courseId) });
  client.removeQueries({ queryKey: courseKeys.generation(courseId) });
  void client.invalidateQueries({ queryKey: courseKeys.lists() });
}
