import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type PublishQuizInput,
  QUESTION_MESSAGES,
  type Question,
  type QuestionChanges,
  type QuestionInput,
  type Quiz,
  type questionBodySchema,
  questionProblems,
  TRUE_FALSE_OPTIONS,
} from "../../../shared/contracts/assessment.js";
import { LESSON_NOT_FOUND } from "../../../shared/contracts/courses.js";
import type { Db, Tx } from "../../db/client.js";
import { quizQuestions, quizVersions } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { lessonFor } from "../courses/access.js";
import type { LessonRow } from "../courses/course-view.js";
import { lockedLesson } from "../courses/lessons-service.js";
import { moveInOrder, nextOrder } from "../courses/ordering.js";
import { freeze, type QuestionRow, toQuestion, toQuiz } from "./quiz-view.js";

// The owner's side of a quiz (issue 32, decision 040): the draft questions with their keys, their order, and publishing
// them as a new version. The course's owner and admins only (`lessonFor(..., "edit")`); every write that changes which
// questions a quiz has, or their order, runs under the course's order lock, as lessons do.

type Options = { db: Db; who: Who };
export type QuestionBodyOutput = z.output<typeof questionBodySchema>;

/** A lesson that is a quiz, or 400 `notAQuiz`. */
export function assertQuiz(lesson: Pick<LessonRow, "kind">): void {
  if (lesson.kind !== "quiz") throw new AppError("BAD_REQUEST", QUESTION_MESSAGES.notAQuiz);
}

/** The owner's quiz lesson, checked for edit and for being a quiz. */
export async function editableQuiz(db: Db, who: Who, lessonId: number): Promise<LessonRow> {
  const { lesson } = await lessonFor(db, who, lessonId, "edit");
  assertQuiz(lesson);
  return lesson;
}

/** Under the course lock: the quiz lesson as it is now (it may have gone since it was read). */
async function lockedQuiz(tx: Tx, courseId: number, lessonId: number): Promise<LessonRow> {
  const lesson = await lockedLesson(tx, courseId, lessonId);
  assertQuiz(lesson);
  return lesson;
}

const draftOf = (db: Db | Tx, lessonId: number) =>
  db.select().from(quizQuestions).where(eq(quizQuestions.lessonId, lessonId)).orderBy(asc(quizQuestions.order), asc(quizQuestions.id));

const latestVersion = async (db: Db | Tx, lessonId: number) =>
  (await db.select().from(quizVersions).where(eq(quizVersions.lessonId, lessonId)).orderBy(desc(quizVersions.version)).limit(1))[0];

async function quizOf(db: Db | Tx, lessonId: number): Promise<Quiz> {
  const [draft, latest] = await Promise.all([draftOf(db, lessonId), latestVersion(db, lessonId)]);
  return toQuiz(lessonId, draft, latest);
}

/** A question's problems as the 400 of a bad body: the first message, and each field's. */
function refuse(problems: [keyof QuestionInput, string][]): never {
  const errors: Record<string, string> = {};
  for (const [field, message] of problems) errors[field] ??= message;
  throw new AppError("BAD_REQUEST", problems[0]?.[1] ?? "Invalid question", { errors });
}

/** A true/false question's options are the server's, whatever was sent. */
const withKindOptions = <T extends { kind: string; options: string[] }>(q: T): T =>
  q.kind === "truefalse" ? { ...q, options: [...TRUE_FALSE_OPTIONS] } : q;

export async function getQuiz({ db, who, lessonId }: Options & { lessonId: number }): Promise<Quiz> {
  await editableQuiz(db, who, lessonId);
  return quizOf(db, lessonId);
}

/** Appends questions (already checked) at the end of the quiz, under the course lock. */
export async function appendQuestions(db: Db, lesson: LessonRow, drafts: QuestionBodyOutput[]): Promise<Question[]> {
  return db.transaction(async (tx) => {
    await lockedQuiz(tx, lesson.courseId, lesson.id);
    if (drafts.length === 0) return [];
    const rows = await tx
      .insert(quizQuestions)
      .values(
        drafts.map((draft, i) => ({
          ...withKindOptions(draft),
          lessonId: lesson.id,
          order: nextOrder(quizQuestions.order, quizQuestions.lessonId, lesson.id, i),
        })),
      )
      .returning();
    return rows.sort((a, b) => a.order - b.order).map(toQuestion);
  });
}

export async function addQuestion({
  db,
  who,
  lessonId,
  input,
}: Options & { lessonId: number; input: QuestionBodyOutput }): Promise<Question> {
  const lesson = await editableQuiz(db, who, lessonId);
  const [question] = await appendQuestions(db, lesson, [input]);
  if (!question) throw new AppError("NOT_FOUND", LESSON_NOT_FOUND);
  return question;
}

/** A question and its quiz lesson, checked for edit; 404 `questionNotFound` when it does not exist. */
async function editableQuestion(db: Db, who: Who, questionId: number): Promise<{ question: QuestionRow; lesson: LessonRow }> {
  const [question] = await db.select().from(quizQuestions).where(eq(quizQuestions.id, questionId)).limit(1);
  if (!question) throw new AppError("NOT_FOUND", QUESTION_MESSAGES.questionNotFound);
  return { question, lesson: await editableQuiz(db, who, question.lessonId) };
}

export async function updateQuestion({
  db,
  who,
  questionId,
  input,
}: Options & { questionId: number; input: QuestionChanges }): Promise<Question> {
  await editableQuestion(db, who, questionId);
  return db.transaction(async (tx) => {
    // The row as it is now, locked, so two changes merge one after the other.
    const [stored] = await tx.select().from(quizQuestions).where(eq(quizQuestions.id, questionId)).for("update");
    if (!stored) throw new AppError("NOT_FOUND", QUESTION_MESSAGES.questionNotFound);
    const merged = withKindOptions({
      kind: input.kind ?? stored.kind,
      prompt: input.prompt ?? stored.prompt,
      options: input.options ?? stored.options,
      correct: input.correct ?? stored.correct,
      accepted: input.accepted ?? stored.accepted,
      rubric: input.rubric ?? stored.rubric,
      aiGrading: input.aiGrading ?? stored.aiGrading,
      match: input.match ?? stored.match,
      explanation: input.explanation ?? stored.explanation,
    } as QuestionInput);
    const problems = questionProblems(merged);
    if (problems.length > 0) refuse(problems);
    const [row] = await tx
      .update(quizQuestions)
      .set({ ...merged, updatedAt: sql`now()` })
      .where(eq(quizQuestions.id, questionId))
      .returning();
    if (!row) throw new AppError("NOT_FOUND", QUESTION_MESSAGES.questionNotFound);
    return toQuestion(row);
  });
}

/** Renumbers a quiz's questions 1..n in their current order (after a delete), under the course lock. */
async function closeQuestionGaps(tx: Tx, lessonId: number): Promise<void> {
  await tx.execute(sql`
    update quiz_questions q set "order" = r.n
    from (select id, row_number() over (order by "order", id)::int as n from quiz_questions where lesson_id = ${lessonId}) r
    where q.id = r.id and q."order" <> r.n`);
}

export async function removeQuestion({ db, who, questionId }: Options & { questionId: number }): Promise<null> {
  const { lesson } = await editableQuestion(db, who, questionId);
  await db.transaction(async (tx) => {
    await lockedQuiz(tx, lesson.courseId, lesson.id);
    const gone = await tx
      .delete(quizQuestions)
      .where(and(eq(quizQuestions.id, questionId), eq(quizQuestions.lessonId, lesson.id)))
      .returning({ id: quizQuestions.id });
    if (gone.length === 0) throw new AppError("NOT_FOUND", QUESTION_MESSAGES.questionNotFound);
    await closeQuestionGaps(tx, lesson.id);
  });
  return null;
}

export async function moveQuestion({
  db,
  who,
  questionId,
  direction,
}: Options & { questionId: number; direction: "up" | "down" }): Promise<Question[]> {
  const { lesson } = await editableQuestion(db, who, questionId);
  return db.transaction(async (tx) => {
    await lockedQuiz(tx, lesson.courseId, lesson.id);
    const siblings = await tx
      .select({ id: quizQuestions.id, order: quizQuestions.order })
      .from(quizQuestions)
      .where(eq(quizQuestions.lessonId, lesson.id));
    if (!siblings.some((s) => s.id === questionId)) throw new AppError("NOT_FOUND", QUESTION_MESSAGES.questionNotFound);
    for (const [id, order] of moveInOrder(siblings, questionId, direction)) {
      await tx.update(quizQuestions).set({ order }).where(eq(quizQuestions.id, id));
    }
    return (await draftOf(tx, lesson.id)).map(toQuestion);
  });
}

/** The questions as they are become the quiz's next version, keys included; attempts already started keep theirs. */
export async function publishQuiz({ db, who, lessonId, input }: Options & { lessonId: number; input: PublishQuizInput }): Promise<Quiz> {
  const lesson = await editableQuiz(db, who, lessonId);
  return db.transaction(async (tx) => {
    await lockedQuiz(tx, lesson.courseId, lessonId);
    const draft = await draftOf(tx, lessonId);
    if (draft.length === 0) throw new AppError("BAD_REQUEST", QUESTION_MESSAGES.noQuestions);
    const latest = await latestVersion(tx, lessonId);
    await tx.insert(quizVersions).values({
      lessonId,
      version: (latest?.version ?? 0) + 1,
      passMark: input.passMark,
      attempts: input.attempts,
      showAnswers: input.showAnswers,
      tutorOpen: input.tutorOpen,
      questions: draft.map(freeze),
    });
    return quizOf(tx, lessonId);
  });
}
