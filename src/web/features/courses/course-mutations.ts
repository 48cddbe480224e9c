import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Course, CreateCourseBody, UpdateCourseBody } from "../../../shared/contracts/courses.js";
import { apiRequest } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { putCourse, refreshCourse } from "./api.js";
import { toastFailure } from "./course-toasts.js";

/** POST /api/courses (a draft); the caller goes on to the editor. */
export function useCreateCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCourseBody) => apiRequest<Course>("POST", "/api/courses", { ...body, status: "draft" }),
    onSuccess: () => {
      void refreshCourse(client);
      notify.success("Course created");
    },
    onError: (error) => toastFailure("createCourse", error),
  });
}

/** PATCH /api/courses/{id}: the details form, or Publish Course / Switch to Draft. */
export function useUpdateCourse(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCourseBody) => apiRequest<Course>("PATCH", `/api/courses/${courseId}`, body),
    onSuccess: (course) => {
      putCourse(client, course);
      notify.success("Course updated");
    },
    onError: (error) => toastFailure("updateCourse", error),
  });
}

/** DELETE /api/courses/{id}. */
export function useDeleteCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<void>("DELETE", `/api/courses/${id}`),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: ["/api/courses", id] });
      void client.invalidateQueries({ queryKey: ["/api/courses", "list"] });
      notify.success("Course deleted");
    },
    onError: (error) => toastFailure("deleteCourse", error),
  });
}

/** POST /api/courses/{id}/cover (multipart, field "file"): PNG, JPEG or WebP up to 2 MB. */
export function useUploadCover(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const data = new FormData();
      data.append("file", file);
      return apiRequest<Course>("POST", `/api/courses/${courseId}/cover`, data);
    },
    onSuccess: (course) => {
      putCourse(client, course);
      notify.success("Course updated", "The cover image has been updated.");
    },
    onError: (error) => toastFailure("updateCourse", error),
  });
}

/** DELETE /api/courses/{id}/cover: back to the placeholder. */
export function useRemoveCover(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<Course>("DELETE", `/api/courses/${courseId}/cover`),
    onSuccess: (course) => {
      putCourse(client, course);
      notify.success("Course updated", "The cover image has been removed.");
    },
    onError: (error) => toastFailure("updateCourse", error),
  });
}
