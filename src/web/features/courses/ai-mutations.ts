import { useMutation, useQueryClient } from "@tanstack/react-query";
import { courseAiApi as api, type CourseSources, type OutlineDraft } from "../../../shared/contracts/courses.js";
import { call } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { courseKeys, generationQuery, lessonQuery, refreshCourse } from "./api.js";
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
    mutationFn: (body: { outline: OutlineDraft; hints: Hints; sources?: CourseSources }) =>
      call(api.approveOutline, { params: { id: courseId }, body }),
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

/** "From my material" (decision 059): the outline drawn from the material before any course exists. */
export function useMaterialOutline() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; hints: Hints; moduleCount: number; sources: CourseSources }) =>
      call(api.proposeMaterialOutline, { body }),
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("course", error);
    },
  });
}

/** Its approve: the course is made with the outline and its run in one step; the run names the new course. */
export function useApproveMaterialOutline() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; outline: OutlineDraft; hints: Hints; sources: CourseSources }) =>
      call(api.approveMaterialOutline, { body }),
    onSuccess: (run) => {
      client.setQueryData(generationQuery(run.courseId).queryKey, run);
      void refreshCourse(client, run.courseId);
    },
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("createCourse", error);
    },
  });
}

/** POST /api/lessons/{id}/regenerate: written again from its material; the text it had is kept as a version. */
export function useRegenerateLesson(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ lessonId, hints }: { lessonId: number; hints: Hints }) =>
      call(api.regenerateLesson, { params: { id: lessonId }, body: { hints } }),
    onSuccess: (lesson) => {
      client.setQueryData(lessonQuery(lesson.id).queryKey, lesson);
      void client.invalidateQueries({ queryKey: courseKeys.versions(lesson.id) });
      void refreshCourse(client, courseId);
      notify.success("Lesson regenerated", "The text it had is kept in its versions.");
    },
    onError: (error) => {
      refreshPlanOn403(client, error);
      toastFailure("regenerate", error);
    },
  });
}
