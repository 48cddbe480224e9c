import { useMutation, useQueryClient } from "@tanstack/react-query";
import { coursesApi as api, type CreateCourseBody, type UpdateCourseBody } from "../../../shared/contracts/courses.js";
import { call } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { forgetCourse, putCourse, refreshCourse } from "./api.js";
import { toastFailure } from "./course-toasts.js";

/** POST /api/courses (a draft); the caller goes on to the editor. */
export function useCreateCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCourseBody) => call(api.create, { body: { ...body, status: "draft" } }),
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
    mutationFn: (body: UpdateCourseBody) => call(api.update, { params: { id: courseId }, body }),
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
    mutationFn: (id: number) => call(api.remove, { params: { id } }),
    onSuccess: (_data, id) => {
      forgetCourse(client, id);
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
      return call(api.uploadCover, { params: { id: courseId }, body: data });
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
    mutationFn: () => call(api.removeCover, { params: { id: courseId } }),
    onSuccess: (course) => {
      putCourse(client, course);
      notify.success("Course updated", "The cover image has been removed.");
    },
    onError: (error) => toastFailure("updateCourse", error),
  });
}
