import { QUESTION_KINDS, type Question, type Quiz, SHOW_ANSWERS } from "../../../shared/contracts/assessment.js";
import type { FrozenQuestion, quizQuestions, quizVersions } from "../../db/schema/index.js";

// Rows as the contract's shapes, and a draft question as a published version freezes it.

export type QuestionRow = typeof quizQuestions.$inferSelect;
export type VersionRow = typeof quizVersions.$inferSelect;

const asKind = (kind: string) => QUESTION_KINDS.find((k) => k === kind) ?? "single";
const asShowAnswers = (value: string) => SHOW_ANSWERS.find((v) => v === value) ?? "after_each";

export function toQuestion(row: QuestionRow): Question {
  return {
    id: row.id,
    lessonId: row.lessonId,
    order: row.order,
    kind: asKind(row.kind),
    prompt: row.prompt,
    options: row.options,
    correct: row.correct,
    accepted: row.accepted,
    rubric: row.rubric,
    aiGrading: row.aiGrading,
    match: row.match,
    explanation: row.explanation,
  };
}

/** A question as a version keeps it (the same fields in the same order, whether from a draft row or a stored version). */
export function freeze(q: FrozenQuestion | QuestionRow): FrozenQuestion {
  return {
    id: q.id,
    kind: q.kind,
    prompt: q.prompt,
    options: q.options,
    correct: q.correct,
    accepted: q.accepted,
    rubric: q.rubric,
    aiGrading: q.aiGrading,
    match: q.match ?? "exact",
    explanation: q.explanation,
  };
}

export function settingsOf(version: VersionRow): NonNullable<Quiz["published"]> {
  return {
    version: version.version,
    passMark: version.passMark,
    attempts: version.attempts,
    showAnswers: asShowAnswers(version.showAnswers),
    tutorOpen: version.tutorOpen,
    publishedAt: version.publishedAt.toISOString(),
  };
}

/** The owner's view: the draft, the newest version, and whether they differ. */
export function toQuiz(lessonId: number, draft: QuestionRow[], latest: VersionRow | undefined): Quiz {
  const same = latest !== undefined && JSON.stringify(draft.map(freeze)) === JSON.stringify(latest.questions.map(freeze));
  return {
    lessonId,
    questions: draft.map(toQuestion),
    published: latest ? settingsOf(latest) : null,
    changedSincePublish: latest !== undefined && !same,
  };
}
