import { useMutation, useQueryClient } from "@tanstack/react-query";
import { coursesApi, lessonsApi } from "../../../shared/contracts/courses.js";
import { call } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { refreshCourse } from "./api.js";
import { toastFailure } from "./course-toasts.js";

export type ModuleFields = { title: string; description?: string };

/** POST /api/courses/{id}/modules: appended after the last module. */
export function useAddModule(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ModuleFields) => call(coursesApi.createModule, { params: { id: courseId }, body }),
    onSuccess: () => {
      void refreshCourse(client, courseId);
      notify.success("Module added");
    },
    onError: (error) => toastFailure("addModule", error),
  });
}

/** PATCH /api/modules/{id}: title and description. */
export function useUpdateModule(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ModuleFields }) => call(lessonsApi.updateModule, { params: { id }, body }),
    onSuccess: () => {
      void refreshCourse(client, courseId);
      notify.success("Module updated");
    },
    onError: (error) => toastFailure("updateModule", error),
  });
}

/** DELETE /api/modules/{id}: its lessons go too. */
export function useDeleteModule(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(lessonsApi.removeModule, { params: { id } }),
    onSuccess: () => {
      void refreshCourse(client, courseId);
      notify.success("Module deleted");
    },
    onError: (error) => toastFailure("deleteModule", error),
  });
}

/** POST /api/modules/{id}/move: one step up or down. */
export function useMoveModule(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, direction }: { id: number; direction: "up" | "down" }) =>
      call(lessonsApi.moveModule, { params: { id }, body: { direction } }),
    onSuccess: () => refreshCourse(client, courseId),
    onError: (error) => toastFailure("moveModule", error),
  });
}
