import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { lessonsApi as api, type lessonBodySchema, type updateLessonBodySchema } from "../../../shared/contracts/courses.js";
import { call } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { courseKeys, lessonQuery, outlineQuery, refreshCourse } from "./api.js";
import { toastFailure } from "./course-toasts.js";

export type NewLessonFields = z.input<typeof lessonBodySchema>;
export type LessonFields = z.input<typeof updateLessonBodySchema>;

/** POST /api/modules/{id}/lessons: appended after the module's last lesson. */
export function useAddLesson(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ moduleId, body }: { moduleId: number; body: NewLessonFields }) => call(api.create, { params: { id: moduleId }, body }),
    onSuccess: (lesson) => {
      client.setQueryData(lessonQuery(lesson.id).queryKey, lesson);
      void refreshCourse(client, courseId);
      notify.success("Lesson added");
    },
    onError: (error) => toastFailure("addLesson", error),
  });
}

/** PATCH /api/lessons/{id}: the earlier content is kept as a version when the content changes. */
export function useUpdateLesson(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: LessonFields }) => call(api.update, { params: { id }, body }),
    onSuccess: (lesson) => {
      client.setQueryData(lessonQuery(lesson.id).queryKey, lesson);
      void client.invalidateQueries({ queryKey: courseKeys.versions(lesson.id) });
      void refreshCourse(client, courseId);
      notify.success("Lesson updated");
    },
    onError: (error) => toastFailure("updateLesson", error),
  });
}

/** DELETE /api/lessons/{id}. */
export function useDeleteLesson(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.remove, { params: { id } }),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: courseKeys.lesson(id) });
      void refreshCourse(client, courseId);
      notify.success("Lesson deleted");
    },
    onError: (error) => toastFailure("deleteLesson", error),
  });
}

/** POST /api/lessons/{id}/move: one step up or down within its module. */
export function useMoveLesson(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, direction }: { id: number; direction: "up" | "down" }) => call(api.move, { params: { id }, body: { direction } }),
    onSuccess: () => refreshCourse(client, courseId),
    onError: (error) => toastFailure("moveLesson", error),
  });
}

/** POST /api/lessons/{id}/versions/{versionId}/restore: the current content becomes a version in turn. */
export function useRestoreVersion(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ lessonId, versionId }: { lessonId: number; versionId: number }) =>
      call(api.restoreVersion, { params: { id: lessonId, versionId } }),
    onSuccess: (lesson) => {
      client.setQueryData(lessonQuery(lesson.id).queryKey, lesson);
      void client.invalidateQueries({ queryKey: courseKeys.versions(lesson.id) });
      void refreshCourse(client, courseId);
      notify.success("Lesson updated", "The earlier version has been restored.");
    },
    onError: (error) => toastFailure("updateLesson", error),
  });
}

/** POST (done) or DELETE (not done) /api/lessons/{id}/complete; the course's progress is read again. */
export function useSetLessonComplete(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, completed }: { id: number; completed: boolean }) =>
      call(completed ? api.complete : api.uncomplete, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: outlineQuery(courseId).queryKey }),
    onError: (error) => toastFailure("progress", error),
  });
}
