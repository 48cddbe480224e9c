import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import {
  type Attempt,
  quizzesApi as api,
  type generateQuestionsBodySchema,
  type PublishQuizInput,
  type Question,
  type QuestionBody,
  type QuestionChanges,
  type Quiz,
} from "../../../shared/contracts/assessment.js";
import { coursesApi, lessonsApi } from "../../../shared/contracts/courses.js";
import { call, endpointKey } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";
import { failureText } from "../../lib/failure-text.js";
import { notify } from "../../lib/notify.js";

/** GET /api/lessons/{id}/quiz: the owner's draft questions and the published version. */
export const quizQuery = (lessonId: number) => endpointQuery(api.quiz, { params: { id: lessonId } });

/** GET /api/lessons/{id}/attempts: the learner's attempts, newest first. */
export const attemptsQuery = (lessonId: number) => endpointQuery(api.attempts, { params: { id: lessonId } });

/** The questions changed: the quiz (with its "changed since publishing") is put in the cache or read again. */
function putQuiz(client: QueryClient, lessonId: number, change: (quiz: Quiz) => Quiz) {
  client.setQueryData<Quiz>(quizQuery(lessonId).queryKey, (old) => (old ? change(old) : old));
  return client.invalidateQueries({ queryKey: quizQuery(lessonId).queryKey });
}

const byOrder = (questions: Question[]) => [...questions].sort((a, b) => a.order - b.order);

export function useAddQuestion(lessonId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuestionBody) => call(api.addQuestion, { params: { id: lessonId }, body }),
    onSuccess: (question) => {
      notify.success("Question added");
      return putQuiz(client, lessonId, (quiz) => ({ ...quiz, questions: byOrder([...quiz.questions, question]) }));
    },
    onError: (error) => notify.error("Error adding question", failureText(error, "Failed to add the question. Check it and try again.")),
  });
}

export function useUpdateQuestion(lessonId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: QuestionChanges }) => call(api.updateQuestion, { params: { id }, body }),
    onSuccess: (question) => {
      notify.success("Question saved");
      return putQuiz(client, lessonId, (quiz) => ({
        ...quiz,
        questions: quiz.questions.map((q) => (q.id === question.id ? question : q)),
      }));
    },
    onError: (error) => notify.error("Error saving question", failureText(error, "Failed to save the question. Check it and try again.")),
  });
}

export function useRemoveQuestion(lessonId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.removeQuestion, { params: { id } }),
    onSuccess: (_none, id) => {
      notify.success("Question deleted");
      return putQuiz(client, lessonId, (quiz) => ({ ...quiz, questions: quiz.questions.filter((q) => q.id !== id) }));
    },
    onError: (error) => notify.error("Error deleting question", failureText(error, "Failed to delete the question. Try again.")),
  });
}

export function useMoveQuestion(lessonId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, direction }: { id: number; direction: "up" | "down" }) =>
      call(api.moveQuestion, { params: { id }, body: { direction } }),
    onSuccess: (questions) => putQuiz(client, lessonId, (quiz) => ({ ...quiz, questions: byOrder(questions) })),
    onError: (error) => notify.error("Error moving question", failureText(error, "Failed to move the question. Try again.")),
  });
}

export type GenerateInput = z.input<typeof generateQuestionsBodySchema>;

/** POST /api/lessons/{id}/questions/generate: drafts appended for the owner to review (the dialog shows a failure itself). */
export function useGenerateQuestions(lessonId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: GenerateInput) => call(api.generateQuestions, { params: { id: lessonId }, body }),
    onSuccess: (drafts) => {
      notify.success(
        "Questions drafted",
        `${drafts.length} new ${drafts.length === 1 ? "question" : "questions"} to review before publishing.`,
      );
      return client.invalidateQueries({ queryKey: quizQuery(lessonId).queryKey });
    },
  });
}

export function usePublishQuiz(lessonId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PublishQuizInput) => call(api.publish, { params: { id: lessonId }, body }),
    onSuccess: (quiz) => {
      client.setQueryData(quizQuery(lessonId).queryKey, quiz);
      notify.success("Quiz published", `Learners now take version ${quiz.published?.version ?? ""}.`);
    },
    onError: (error) => notify.error("Error publishing quiz", failureText(error, "Failed to publish the quiz. Try again.")),
  });
}

/** An attempt answered by the server: it goes first in the cached list of the lesson's attempts. */
export function putAttempt(client: QueryClient, attempt: Attempt) {
  client.setQueryData<Attempt[]>(attemptsQuery(attempt.lessonId).queryKey, (old) => [
    attempt,
    ...(old ?? []).filter((a) => a.id !== attempt.id),
  ]);
}

/** POST /api/lessons/{id}/attempts: the open attempt, or a new one within the attempts allowed. */
export function useStartAttempt(lessonId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.startAttempt, { params: { id: lessonId } }),
    onSuccess: (attempt) => {
      putAttempt(client, attempt);
      // An attempt in progress may close the lesson tutor (decision 067): an open panel asks again.
      void client.invalidateQueries({ queryKey: endpointKey(lessonsApi.tutor) });
    },
    onError: (error) => notify.error("Error starting quiz", failureText(error, "Failed to start the quiz. Try again.")),
  });
}

/** POST /api/attempts/{id}/submit: graded on the server; the course's progress is read again. */
export function useSubmitAttempt() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.submit, { params: { id } }),
    onSuccess: (attempt) => {
      putAttempt(client, attempt);
      void client.invalidateQueries({ queryKey: endpointKey(coursesApi.outline, { params: { id: attempt.courseId } }) });
      // Submitted: the lesson tutor opens again (decision 067).
      void client.invalidateQueries({ queryKey: endpointKey(lessonsApi.tutor) });
    },
    onError: (error) =>
      notify.error("Error submitting quiz", failureText(error, "Failed to submit. Your answers are saved: submit again in a moment.")),
  });
}
