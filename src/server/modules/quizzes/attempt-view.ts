import type { Attempt } from "../../../shared/contracts/assessment.js";
import type { FrozenQuestion, quizAnswers, quizAttempts } from "../../db/schema/index.js";
import { showsAnswers } from "./grading.js";
import type { VersionRow } from "./quiz-view.js";

// An attempt as its learner sees it. Before submit: the version's questions without their keys, and the saved answers;
// after it, the result of each question, with the key and the explanation only when the quiz shows answers now.

export type AttemptRow = typeof quizAttempts.$inferSelect;
/** A saved answer (`answersOf` in attempts-service.ts reads them). */
export type AnswerRow = { attemptId: number; questionId: number; value: (typeof quizAnswers.$inferSelect)["value"] };

/** What an attempt's view needs besides its own row: its version, its answers, and the learner's attempts at the quiz. */
export interface AttemptContext {
  version: VersionRow;
  answers: AnswerRow[];
  attemptsUsed: number;
  /** The learner passed some attempt at this quiz (after_pass shows answers from then on). */
  passedAny: boolean;
}

const learnerQuestion = (q: FrozenQuestion) => ({
  id: q.id,
  kind: q.kind as Attempt["questions"][number]["kind"],
  prompt: q.prompt,
  options: q.options,
});

export function toAttempt(row: AttemptRow, { version, answers, attemptsUsed, passedAny }: AttemptContext): Attempt {
  const submitted = row.status === "submitted";
  const reveal = submitted && showsAnswers(version.showAnswers, passedAny);
  const byId = new Map(version.questions.map((q) => [q.id, q]));
  return {
    id: row.id,
    lessonId: row.lessonId,
    courseId: row.courseId,
    version: version.version,
    status: submitted ? "submitted" : "open",
    questions: version.questions.map(learnerQuestion),
    answers: answers.map((a) => ({ questionId: a.questionId, value: a.value })),
    score: submitted ? row.score : null,
    passed: submitted ? row.passed : null,
    passMark: version.passMark,
    attemptsUsed,
    attemptsAllowed: version.attempts,
    results:
      submitted && row.results
        ? row.results.map((r) => {
            const q = byId.get(r.questionId);
            return {
              questionId: r.questionId,
              correct: r.correct,
              gradedBy: r.gradedBy,
              reasoning: r.reasoning,
              key: reveal && q ? { correct: q.correct, accepted: q.accepted } : null,
              explanation: reveal && q ? q.explanation : null,
            };
          })
        : null,
    startedAt: row.startedAt.toISOString(),
    submittedAt: row.submittedAt?.toISOString() ?? null,
  };
}
