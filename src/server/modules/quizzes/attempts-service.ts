import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { type Attempt, QUESTION_MESSAGES } from "../../../shared/contracts/assessment.js";
import type { ProviderFailureLog } from "../../ai/provider-error.js";
import type { Db, Tx } from "../../db/client.js";
import { quizAnswers, quizAttempts, quizVersions } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { lessonFor } from "../courses/access.js";
import { settleCompletion } from "../courses/completion.js";
import type { LessonRow } from "../courses/course-view.js";
import { type AnswerRow, type AttemptRow, toAttempt } from "./attempt-view.js";
import { gradeWithAi } from "./attempts-grader.js";
import { type AnswerValue, answerProblem, answersForAi, gradeAttempt } from "./grading.js";
import { assertQuiz } from "./questions-service.js";
import type { VersionRow } from "./quiz-view.js";

// The learner's side of a quiz (issue 32, decision 040): attempts on the newest published version, each answer saved
// as it is given, and a submit graded on the server once. An attempt is its learner's alone: every query names
// `user_id = who.id`, so another user's attempt id is a 404.

type Options = { db: Db; who: Who };
type Reader = Db | Tx;

const notFound = () => new AppError("NOT_FOUND", QUESTION_MESSAGES.attemptNotFound);

/** The quiz lesson a learner may read, and its newest version; 409 `notPublished` before the first publish. */
async function publishedQuiz(db: Db, who: Who, lessonId: number): Promise<{ lesson: LessonRow; version: VersionRow }> {
  const { lesson } = await lessonFor(db, who, lessonId, "view");
  assertQuiz(lesson);
  const [latest] = await db
    .select()
    .from(quizVersions)
    .where(eq(quizVersions.lessonId, lessonId))
    .orderBy(desc(quizVersions.version))
    .limit(1);
  if (!latest) throw new AppError("CONFLICT", QUESTION_MESSAGES.notPublished);
  return { lesson, version: latest };
}

/** The caller's own attempt, or 404 (another user's included). */
async function ownAttempt(db: Reader, who: Who, attemptId: number): Promise<AttemptRow> {
  const [row] = await db
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.id, attemptId), eq(quizAttempts.userId, who.id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * The saved answers of these attempts, by question. The value is read as JSON text and parsed here: a jsonb string that
 * looks like JSON (a short answer "42" or "true") would otherwise come back from the driver as a number or a boolean.
 */
async function answersOf(db: Reader, attemptIds: number[]): Promise<AnswerRow[]> {
  const rows = await db
    .select({ attemptId: quizAnswers.attemptId, questionId: quizAnswers.questionId, json: sql<string>`${quizAnswers.value}::text` })
    .from(quizAnswers)
    .where(inArray(quizAnswers.attemptId, attemptIds))
    .orderBy(quizAnswers.questionId);
  return rows.map((r) => ({ attemptId: r.attemptId, questionId: r.questionId, value: JSON.parse(r.json) as AnswerValue }));
}

/** The learner's attempts at a quiz as they see them, newest first; `only` narrows them to some ids. */
async function viewsOf(db: Reader, who: Who, lessonId: number, only?: number[]): Promise<Attempt[]> {
  const mine = await db
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.lessonId, lessonId), eq(quizAttempts.userId, who.id)))
    .orderBy(desc(quizAttempts.id));
  const shown = only ? mine.filter((a) => only.includes(a.id)) : mine;
  if (shown.length === 0) return [];
  const [versions, answers] = await Promise.all([
    db
      .select()
      .from(quizVersions)
      .where(inArray(quizVersions.id, [...new Set(shown.map((a) => a.versionId))])),
    answersOf(
      db,
      shown.map((a) => a.id),
    ),
  ]);
  const passedAny = mine.some((a) => a.passed === true);
  return shown.flatMap((row) => {
    const version = versions.find((v) => v.id === row.versionId);
    if (!version) return [];
    const mineAnswers = answers.filter((a) => a.attemptId === row.id);
    return [toAttempt(row, { version, answers: mineAnswers, attemptsUsed: mine.length, passedAny })];
  });
}

async function viewOf(db: Reader, who: Who, row: AttemptRow): Promise<Attempt> {
  const [view] = await viewsOf(db, who, row.lessonId, [row.id]);
  if (!view) throw notFound();
  return view;
}

/**
 * The learner's open attempt at this quiz, or a new one on the newest version within the attempts allowed. Two starts
 * at once make one attempt: the second insert meets the one-open-attempt index and answers the first's.
 */
export async function startAttempt({ db, who, lessonId }: Options & { lessonId: number }): Promise<Attempt> {
  const { lesson, version } = await publishedQuiz(db, who, lessonId);
  const openOne = async () =>
    (
      await db
        .select()
        .from(quizAttempts)
        .where(and(eq(quizAttempts.lessonId, lessonId), eq(quizAttempts.userId, who.id), eq(quizAttempts.status, "open")))
        .limit(1)
    )[0];
  const open = await openOne();
  if (open) return viewOf(db, who, open);
  if (version.attempts !== null) {
    const [used] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(quizAttempts)
      .where(and(eq(quizAttempts.lessonId, lessonId), eq(quizAttempts.userId, who.id)));
    if ((used?.n ?? 0) >= version.attempts) throw new AppError("CONFLICT", QUESTION_MESSAGES.noAttemptsLeft);
  }
  const [created] = await db
    .insert(quizAttempts)
    .values({ lessonId, courseId: lesson.courseId, userId: who.id, versionId: version.id })
    .onConflictDoNothing({ target: [quizAttempts.userId, quizAttempts.lessonId], where: sql`status = 'open'` })
    .returning();
  const row = created ?? (await openOne());
  if (!row) throw new AppError("CONFLICT", QUESTION_MESSAGES.submitted);
  return viewOf(db, who, row);
}

/** The learner's attempts at this quiz, newest first. */
export async function listAttempts({ db, who, lessonId }: Options & { lessonId: number }): Promise<Attempt[]> {
  await publishedQuiz(db, who, lessonId);
  return viewsOf(db, who, lessonId);
}

export async function getAttempt({ db, who, attemptId }: Options & { attemptId: number }): Promise<Attempt> {
  return viewOf(db, who, await ownAttempt(db, who, attemptId));
}

/**
 * Saves one answer of the caller's open attempt (one row per question, upserted), checked against the question as the
 * attempt's version froze it. The attempt's row is share-locked, so a save and a submit never cross: a save after the
 * submit is refused, and a save before it is graded.
 */
export async function saveAnswer({
  db,
  who,
  attemptId,
  questionId,
  value,
}: Options & { attemptId: number; questionId: number; value: AnswerValue }): Promise<{ questionId: number; savedAt: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ attempt: quizAttempts, questions: quizVersions.questions })
      .from(quizAttempts)
      .innerJoin(quizVersions, eq(quizVersions.id, quizAttempts.versionId))
      .where(and(eq(quizAttempts.id, attemptId), eq(quizAttempts.userId, who.id)))
      .for("share", { of: quizAttempts });
    if (!row) throw notFound();
    if (row.attempt.status !== "open") throw new AppError("CONFLICT", QUESTION_MESSAGES.answerNotOpen);
    const question = row.questions.find((q) => q.id === questionId);
    if (!question) throw new AppError("NOT_FOUND", QUESTION_MESSAGES.questionNotFound);
    const problem = answerProblem(question, value);
    if (problem) throw new AppError("BAD_REQUEST", problem, { errors: { value: problem } });
    const [saved] = await tx
      .insert(quizAnswers)
      .values({ attemptId, questionId, value })
      .onConflictDoUpdate({ target: [quizAnswers.attemptId, quizAnswers.questionId], set: { value, updatedAt: sql`now()` } })
      .returning({ updatedAt: quizAnswers.updatedAt });
    return { questionId, savedAt: (saved?.updatedAt ?? new Date()).toISOString() };
  });
}

const answerMap = async (db: Reader, attemptId: number) =>
  new Map<number, AnswerValue>((await answersOf(db, [attemptId])).map((a) => [a.questionId, a.value]));

/** Submits in progress on this instance, per database and attempt: a second submit of the same attempt waits for the first. */
const grading = new WeakMap<Db, Map<number, Promise<Attempt>>>();

/**
 * Grades the caller's open attempt once. The AI's verdicts (bounded per attempt) are asked first, outside any lock;
 * then, under the attempt's row lock, an attempt still open is graded and written in one transaction, and one already
 * submitted is answered as it is, so a double submit grades once and both see the same result. A failure of the AI
 * leaves the attempt open (nothing is written) with a message saying to submit again.
 */
export async function submitAttempt({
  db,
  platformDeps,
  who,
  attemptId,
  log,
}: Options & { platformDeps: PlatformDeps; attemptId: number; log: ProviderFailureLog }): Promise<Attempt> {
  const attempt = await ownAttempt(db, who, attemptId);
  if (attempt.status !== "open") return viewOf(db, who, attempt);
  const running = grading.get(db) ?? new Map<number, Promise<Attempt>>();
  grading.set(db, running);
  const inFlight = running.get(attemptId);
  if (inFlight) return inFlight;
  const work = grade(db, platformDeps, who, attempt, log).finally(() => running.delete(attemptId));
  running.set(attemptId, work);
  return work;
}

async function grade(db: Db, platformDeps: PlatformDeps, who: Who, attempt: AttemptRow, log: ProviderFailureLog): Promise<Attempt> {
  const [version] = await db.select().from(quizVersions).where(eq(quizVersions.id, attempt.versionId)).limit(1);
  if (!version) throw notFound();
  const asked = answersForAi(version.questions, await answerMap(db, attempt.id));
  const verdicts = await gradeWithAi({ db, platformDeps, who, answers: asked, log });
  const view = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.id, attempt.id), eq(quizAttempts.userId, who.id)))
      .for("update");
    if (!row) throw notFound();
    if (row.status !== "open") return viewOf(tx, who, row);
    const answers = await answerMap(tx, attempt.id);
    // An answer the AI was to grade changed while it graded: grade what is saved now, on the next submit.
    const nowAsked = answersForAi(version.questions, answers);
    if (
      verdicts.size > 0 &&
      JSON.stringify(nowAsked.map((a) => [a.question.id, a.value])) !== JSON.stringify(asked.map((a) => [a.question.id, a.value]))
    ) {
      throw new AppError("CONFLICT", QUESTION_MESSAGES.answersChanged);
    }
    const { results, score } = gradeAttempt(version.questions, answers, verdicts);
    const [graded] = await tx
      .update(quizAttempts)
      .set({ status: "submitted", score, passed: score >= version.passMark, results, submittedAt: sql`now()` })
      .where(and(eq(quizAttempts.id, attempt.id), eq(quizAttempts.status, "open")))
      .returning();
    if (!graded) throw new AppError("CONFLICT", QUESTION_MESSAGES.submitted);
    return viewOf(tx, who, graded);
  });
  // A passing attempt may complete the course: its certificate is issued now, not at the next read of the course.
  if (view.passed) await settleCompletion(db, who.id, attempt.courseId);
  return view;
}
