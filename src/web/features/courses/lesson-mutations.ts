import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { Lesson, updateLessonBodySchema } from "../../../shared/contracts/courses.js";
import { apiRequest } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { courseKeys, refreshCourse } from "./api.js";
import { toastFailure } from "./course-toasts.js";

export type LessonFields = z.input<typeof updateLessonBodySchema>;

/** POST /api/modules/{id}/lessons: appended after the module's last lesson. */
export function useAddLesson(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ moduleId, body }: { moduleId: number; body: LessonFields }) =>
      apiRequest<Lesson>("POST", `/api/modules/${moduleId}/lessons`, body),
    onSuccess: (lesson) => {
      client.setQueryData(courseKeys.lesson(lesson.id), lesson);
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
    mutationFn: ({ id, body }: { id: number; body: LessonFields }) => apiRequest<Lesson>("PATCH", `/api/lessons/${id}`, body),
    onSuccess: (lesson) => {
      client.setQueryData(courseKeys.lesson(lesson.id), lesson);
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
    mutationFn: (id: number) => apiRequest<void>("DELETE", `/api/lessons/${id}`),
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
    mutationFn: ({ id, direction }: { id: number; direction: "up" | "down" }) =>
      apiRequest<Lesson[]>("POST", `/api/lessons/${id}/move`, { direction }),
    onSuccess: () => refreshCourse(client, courseId),
    onError: (error) => toastFailure("moveLesson", error),
  });
}

/** POST /api/lessons/{id}/versions/{versionId}/restore: the current content becomes a version in turn. */
export function useRestoreVersion(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ lessonId, versionId }: { lessonId: number; versionId: number }) =>
      apiRequest<Lesson>("POST", `/api/lessons/${lessonId}/versions/${versionId}/restore`),
    onSuccess: (lesson) => {
      client.setQueryData(courseKeys.lesson(lesson.id), lesson);
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
      apiRequest<{ completed: boolean }>(completed ? "POST" : "DELETE", `/api/lessons/${id}/complete`),
    onSuccess: () => client.invalidateQueries({ queryKey: courseKeys.outline(courseId) }),
    onError: (error) => toastFailure("progress", error),
  });
}
