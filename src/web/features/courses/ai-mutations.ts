import { useMutation, useQueryClient } from "@tanstack/react-query";
import { courseAiApi as api, type OutlineDraft } from "../../../shared/contracts/courses.js";
import { call } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { generationQuery, refreshCourse } from "./api.js";
import { refreshPlanOn403, toastFailure } from "./course-toasts.js";
import type { Hints, LessonType } from "./training-hints.js";

/** POST /api/ai/course-description: a description for the title (the form keeps it until the user saves). */
export function useDescribeCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; hints: Hints }) => call(api.describe, { body }),
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
    mutationFn: ({ moduleId, ...body }: LessonContentRequest) => call(api.lessonContent, { params: { id: moduleId }, body }),
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
    mutationFn: (body: { hints: Hints; moduleCount: number }) => call(api.proposeOutline, { params: { id: courseId }, body }),
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
    mutationFn: (body: { outline: OutlineDraft; hints: Hints }) => call(api.approveOutline, { params: { id: courseId }, body }),
    onSuccess: (run) => {
      client.setQueryData(generationQuery(courseId).queryKey, run);
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
    mutationFn: (action: "stop" | "resume") =>
      call(action === "stop" ? api.stopGeneration : api.resumeGeneration, { params: { id: courseId } }),
    onSettled: () => client.invalidateQueries({ queryKey: generationQuery(courseId).queryKey }),
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("course", error);
    },
  });
}
