import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { type Attempt, type answerValueSchema, quizzesApi } from "../../../shared/contracts/assessment.js";
import { call } from "../../lib/api-client.js";
import { failureText } from "../../lib/failure-text.js";
import { attemptsQuery } from "./api.js";

export type AnswerValue = z.infer<typeof answerValueSchema>;
export type SaveStatus = { state: "idle" | "saving" | "saved" | "failed"; message: string | null };

/** How long an answer rests before it is sent: every choice and every pause in typing is saved. */
export const AUTOSAVE_DELAY_MS = 500;
const SAVE_FAILED = "Your last answer is not saved yet. Check your connection and retry.";

/**
 * The answers of an open attempt, each saved on the server `AUTOSAVE_DELAY_MS` after it last changed (one request at a
 * time, in order, so an older value never lands after a newer one). A failed save is kept and sent again by `retry`
 * or `flush` (which Submit awaits); the saved answers go into the cached attempt, so coming back shows them.
 */
export function useAnswerAutosave(attempt: Attempt) {
  const client = useQueryClient();
  const [answers, setAnswers] = useState(() => new Map(attempt.answers.map((a) => [a.questionId, a.value])));
  const [status, setStatus] = useState<SaveStatus>({ state: "idle", message: null });
  const latest = useRef(new Map<number, AnswerValue>());
  const timers = useRef(new Map<number, number>());
  const unsaved = useRef(new Set<number>());
  const failed = useRef(new Set<number>());
  const queue = useRef<Promise<void>>(Promise.resolve());
  const sending = useRef(0);

  const report = useCallback(() => {
    if (sending.current > 0 || timers.current.size > 0) setStatus({ state: "saving", message: null });
    else if (failed.current.size > 0) setStatus((old) => ({ state: "failed", message: old.message ?? SAVE_FAILED }));
    else setStatus({ state: "saved", message: null });
  }, []);

  const keep = useCallback(
    (questionId: number, value: AnswerValue) => {
      client.setQueryData<Attempt[]>(attemptsQuery(attempt.lessonId).queryKey, (list) =>
        list?.map((a) =>
          a.id === attempt.id ? { ...a, answers: [...a.answers.filter((x) => x.questionId !== questionId), { questionId, value }] } : a,
        ),
      );
    },
    [client, attempt.id, attempt.lessonId],
  );

  const send = useCallback(
    (questionId: number) => {
      sending.current += 1;
      report();
      queue.current = queue.current.then(async () => {
        const value = latest.current.get(questionId);
        try {
          if (value === undefined) return;
          await call(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId }, body: { value } });
          failed.current.delete(questionId);
          if (latest.current.get(questionId) === value) unsaved.current.delete(questionId);
          keep(questionId, value);
          setStatus((old) => ({ ...old, message: null }));
        } catch (error) {
          failed.current.add(questionId);
          setStatus({ state: "failed", message: `${failureText(error, SAVE_FAILED)}` });
        } finally {
          sending.current -= 1;
          report();
        }
      });
      return queue.current;
    },
    [attempt.id, keep, report],
  );

  const change = useCallback(
    (questionId: number, value: AnswerValue) => {
      latest.current.set(questionId, value);
      unsaved.current.add(questionId);
      setAnswers((old) => new Map(old).set(questionId, value));
      window.clearTimeout(timers.current.get(questionId));
      timers.current.set(
        questionId,
        window.setTimeout(() => {
          timers.current.delete(questionId);
          void send(questionId);
        }, AUTOSAVE_DELAY_MS),
      );
      report();
    },
    [send, report],
  );

  /** Sends at once whatever waits or failed; answers whether every answer is saved. */
  const flush = useCallback(async () => {
    for (const [questionId, timer] of timers.current) {
      window.clearTimeout(timer);
      timers.current.delete(questionId);
      void send(questionId);
    }
    for (const questionId of failed.current) void send(questionId);
    await queue.current;
    return failed.current.size === 0 && unsaved.current.size === 0;
  }, [send]);

  // Leaving the quiz sends what is still waiting.
  useEffect(
    () => () => {
      void flush();
    },
    [flush],
  );

  return { answers, status, change, flush, retry: flush, pending: status.state === "saving" || status.state === "failed" };
}
