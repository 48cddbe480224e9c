import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { GenerationRun, OutlineDraft, OutlineProposal } from "../../../shared/contracts/courses.js";
import { apiRequest } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { courseKeys, refreshCourse } from "./api.js";
import { refreshPlanOn403, toastFailure } from "./course-toasts.js";
import type { Hints, LessonType } from "./training-hints.js";

/** POST /api/ai/course-description: a description for the title (the form keeps it until the user saves). */
export function useDescribeCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; hints: Hints }) => apiRequest<{ description: string }>("POST", "/api/ai/course-description", body),
    onSuccess: () => notify.success("AI Description Generated"),
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("describe", error);
    },
  });
}

export type LessonContentRequest = { moduleId: number; title: string; type: LessonType; hints: Hints };

/** POST /api/modules/{id}/lesson-content: a lesson body, not saved (it fills the content field). */
export function useGenerateLessonContent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ moduleId, ...body }: LessonContentRequest) =>
      apiRequest<{ content: string }>("POST", `/api/modules/${moduleId}/lesson-content`, body),
    onSuccess: () => notify.success("AI Content Generated"),
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("content", error);
    },
  });
}

/** POST /api/courses/{id}/generate/outline: a proposal to review; nothing is created yet. */
export function useProposeOutline(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { hints: Hints; moduleCount: number }) =>
      apiRequest<OutlineProposal>("POST", `/api/courses/${courseId}/generate/outline`, body),
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("course", error);
    },
  });
}

/** POST /api/courses/{id}/generate/approve: the reviewed modules are appended, then their lessons are written. */
export function useApproveOutline(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { outline: OutlineDraft; hints: Hints }) =>
      apiRequest<GenerationRun>("POST", `/api/courses/${courseId}/generate/approve`, body),
    onSuccess: (run) => {
      client.setQueryData(courseKeys.generation(courseId), run);
      void refreshCourse(client, courseId);
    },
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("course", error);
    },
  });
}

/** POST /api/courses/{id}/generation/stop or /resume; the run is read again. */
export function useGenerationControl(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: "stop" | "resume") => apiRequest<unknown>("POST", `/api/courses/${courseId}/generation/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: courseKeys.generation(courseId) }),
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("course", error);
    },
  });
}
