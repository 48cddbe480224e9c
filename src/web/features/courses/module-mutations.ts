import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CourseModule } from "../../../shared/contracts/courses.js";
import { apiRequest } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { refreshCourse } from "./api.js";
import { toastFailure } from "./course-toasts.js";

export type ModuleFields = { title: string; description?: string };

/** POST /api/courses/{id}/modules: appended after the last module. */
export function useAddModule(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ModuleFields) => apiRequest<CourseModule>("POST", `/api/courses/${courseId}/modules`, body),
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
    mutationFn: ({ id, body }: { id: number; body: ModuleFields }) => apiRequest<CourseModule>("PATCH", `/api/modules/${id}`, body),
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
    mutationFn: (id: number) => apiRequest<void>("DELETE", `/api/modules/${id}`),
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
      apiRequest<CourseModule[]>("POST", `/api/modules/${id}/move`, { direction }),
    onSuccess: () => refreshCourse(client, courseId),
    onError: (error) => toastFailure("moveModule", error),
  });
}
