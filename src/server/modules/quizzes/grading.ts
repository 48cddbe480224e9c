import { z } from "zod";
import { QUESTION_MESSAGES, type SHOW_ANSWERS, type ShortMatch } from "../../../shared/contracts/assessment.js";
import type { FrozenQuestion, StoredResult } from "../../db/schema/index.js";

// How an attempt is graded (issue 32, decision 040): pure, so every rule is unit-tested beside it
// (grading.test.ts). The AI call itself is in attempts-grader.ts; this file only says when one is needed.

export type AnswerValue = number[] | string;

/** At most this many answers of one attempt are graded by the AI; beyond it an answer is graded by its key only. */
export const MAX_AI_GRADINGS_PER_ATTEMPT = 5;

/** What the AI answers when it grades a short answer against the owner's rubric. */
export const aiGradeSchema = z.object({ correct: z.boolean(), reasoning: z.string() });
export type AiGrade = z.infer<typeof aiGradeSchema>;

const isChoice = (q: Pick<FrozenQuestion, "kind">) => q.kind !== "short";

/** Why a value cannot be saved as this question's answer, or null when it can (an empty answer clears it). */
export function answerProblem(q: FrozenQuestion, value: AnswerValue): string | null {
  if (!isChoice(q)) return typeof value === "string" ? null : QUESTION_MESSAGES.answerText;
  if (typeof value === "string") return QUESTION_MESSAGES.answerOptions;
  if (value.some((i) => i >= q.options.length)) return QUESTION_MESSAGES.outOfRange;
  if (new Set(value).size !== value.length) return QUESTION_MESSAGES.answerOptions;
  if (q.kind !== "multiple" && value.length > 1) return QUESTION_MESSAGES.answerOne;
  return null;
}

/**
 * A short answer as it is compared (decision 059): composed (NFKC), lower case, punctuation read as a space, spaces
 * collapsed: "Twice,  a day!" is "twice a day". Text of punctuation only is kept as typed (trimmed, lower case).
 */
export function normalizedAnswer(text: string): string {
  const plain = text.normalize("NFKC").toLowerCase();
  const words = plain
    .replace(/\p{P}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return words || plain.trim();
}

/** Whether a short answer meets an accepted one: the same words (`exact`), or holding its words whole and in order. */
export function meetsAccepted(given: string, accepted: string, match: ShortMatch = "exact"): boolean {
  const [answer, key] = [normalizedAnswer(given), normalizedAnswer(accepted)];
  if (!answer || !key) return false;
  return match === "contains" ? ` ${answer} `.includes(` ${key} `) : answer === key;
}

/** Graded by the key alone: the exact option, the exact set of options, or an accepted answer (`meetsAccepted`). */
export function correctByKey(q: FrozenQuestion, value: AnswerValue | undefined): boolean {
  if (value === undefined) return false;
  if (!isChoice(q)) {
    if (typeof value !== "string" || !value.trim()) return false;
    return q.accepted.some((accepted) => meetsAccepted(value, accepted, q.match));
  }
  if (typeof value === "string") return false;
  const key = new Set(q.correct);
  return value.length === key.size && new Set(value).size === value.length && value.every((i) => key.has(i));
}

/** A short answer the key does not accept, on a question the owner asked the AI to grade against a rubric. */
export function wantsAi(q: FrozenQuestion, value: AnswerValue | undefined): value is string {
  return (
    !isChoice(q) && q.aiGrading && q.rubric.trim() !== "" && typeof value === "string" && value.trim() !== "" && !correctByKey(q, value)
  );
}

/** The answers to send to the AI, in question order, at most `MAX_AI_GRADINGS_PER_ATTEMPT`. */
export function answersForAi(
  questions: FrozenQuestion[],
  answers: Map<number, AnswerValue>,
): { question: FrozenQuestion; value: string }[] {
  const picked: { question: FrozenQuestion; value: string }[] = [];
  for (const question of questions) {
    const value = answers.get(question.id);
    if (picked.length < MAX_AI_GRADINGS_PER_ATTEMPT && wantsAi(question, value)) picked.push({ question, value });
  }
  return picked;
}

/** One result per question: the AI's verdict where it graded that very answer, the key's otherwise. */
export function gradeAttempt(
  questions: FrozenQuestion[],
  answers: Map<number, AnswerValue>,
  aiVerdicts: Map<number, { value: string; grade: AiGrade }>,
): { results: StoredResult[]; score: number } {
  const results = questions.map((question): StoredResult => {
    const value = answers.get(question.id);
    const verdict = aiVerdicts.get(question.id);
    if (verdict && verdict.value === value && wantsAi(question, value)) {
      return { questionId: question.id, correct: verdict.grade.correct, gradedBy: "ai", reasoning: verdict.grade.reasoning };
    }
    return { questionId: question.id, correct: correctByKey(question, value), gradedBy: "key", reasoning: null };
  });
  return { results, score: scoreOf(results) };
}

/** Percent of the questions answered correctly, rounded; 0 for a quiz without questions. */
export function scoreOf(results: Pick<StoredResult, "correct">[]): number {
  if (results.length === 0) return 0;
  return Math.round((100 * results.filter((r) => r.correct).length) / results.length);
}

/** Whether a submitted attempt shows the keys and explanations: after each attempt, or once the learner passed any. */
export function showsAnswers(showAnswers: (typeof SHOW_ANSWERS)[number] | string, passedAny: boolean): boolean {
  return showAnswers === "after_each" || passedAny;
}
