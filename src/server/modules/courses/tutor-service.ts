import { and, eq, isNotNull, sql } from "drizzle-orm";
import { tutorChatTitle } from "../../../shared/chat-title.js";
import { DEFAULT_PLATFORM_SLUG } from "../../../shared/constants.js";
import { LESSON_NOT_FOUND, TUTOR_LESSON_CLOSED } from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { chats, lessonSources } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import type { LessonTutor, TutorGiven } from "../chat/lesson-tutor.js";
import { countTokens } from "../knowledge/reading/chunk-text.js";
import { retrievePassages } from "../knowledge/retrieval/retrieve.js";
import { lessonFor } from "./access.js";
import { courseModelFor } from "./ai/course-model.js";
import { assertTutorOpen, quizClosingTutor } from "./tutor-during-quiz.js";

// A lesson's tutor (issue 31, decision 039): the reader's own chat bound to the lesson, whose replies are given the
// lesson's text and passages searched among the pieces the course lists as its sources, never the owner's library.

/** The lesson's text a tutor's reply is given: at most this many tokens of it. */
export const TUTOR_LESSON_TOKENS = 6_000;
/** The course's passages a tutor's reply is given for its question. */
export const TUTOR_PASSAGE_TOKENS = 3_000;
const TUTOR_PASSAGE_LIMIT = 8;

/** The lesson and its course when `who` may read it (`lessonFor`); else `refusal`, whether it is missing or not theirs. */
async function readableLesson(db: Db, who: Who, lessonId: number, refusal: () => AppError) {
  try {
    return await lessonFor(db, who, lessonId, "view");
  } catch (error) {
    if (error instanceof AppError && (error.code === "FORBIDDEN" || error.code === "NOT_FOUND")) throw refusal();
    throw error;
  }
}

/**
 * POST /api/lessons/{id}/tutor: the caller's tutor chat for a lesson they may read (`lessonFor(..., "view")`: a public,
 * published course for any signed-in reader; a private one for its owner and admins), made on the first call, named after
 * the lesson, with the caller's default model (chosen as a course's is). One per user and lesson: the unique index, so
 * two racing first calls answer the same chat. Closed (403) while the caller takes a graded quiz of the course
 * (`tutor-during-quiz.ts`, decision 067).
 */
export async function openTutor(options: { db: Db; who: Who; platformDeps: PlatformDeps; lessonId: number }): Promise<{ chatId: number }> {
  const { db, who, lessonId } = options;
  const [{ lesson, course }, existing, closing] = await Promise.all([
    readableLesson(db, who, lessonId, () => new AppError("NOT_FOUND", LESSON_NOT_FOUND)),
    tutorChatOf(db, who.id, lessonId),
    quizClosingTutor(db, who.id, lessonId),
  ]);
  assertTutorOpen(closing, course, who);
  if (existing !== null) return { chatId: existing };
  const model = await courseModelFor(db, options.platformDeps, who);
  const [made] = await db
    .insert(chats)
    .values({
      userId: who.id,
      title: tutorChatTitle(lesson.title),
      aiPlatform: model?.platform.slug ?? DEFAULT_PLATFORM_SLUG,
      model: model?.modelId ?? null,
      tutorLessonId: lessonId,
    })
    .onConflictDoNothing({ target: [chats.userId, chats.tutorLessonId], where: isNotNull(chats.tutorLessonId) })
    .returning({ id: chats.id });
  if (made) return { chatId: made.id };
  // Another call made it first.
  const raced = await tutorChatOf(db, who.id, lessonId);
  if (raced === null) throw new Error("tutor chat neither made nor found");
  return { chatId: raced };
}

async function tutorChatOf(db: Db, userId: number, lessonId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.userId, userId), eq(chats.tutorLessonId, lessonId)))
    .limit(1);
  return row?.id ?? null;
}

/** `text` cut to about `budget` tokens (`countTokens`), at a word. */
function withinTokens(text: string, budget: number): string {
  let cut = text;
  for (let tokens = countTokens(cut); tokens > budget; tokens = countTokens(cut)) {
    const end = Math.floor(cut.length * (budget / tokens) * 0.95);
    cut = cut.slice(0, cut.lastIndexOf(" ", end) > 0 ? cut.lastIndexOf(" ", end) : end);
  }
  return cut.length < text.length ? `${cut.trimEnd()} …` : text;
}

const lessonBlock = (course: string, lesson: string, text: string) =>
  `You are the tutor of the lesson "${lesson}" of the course "${course}". Help the learner understand it: answer from ` +
  "the lesson and the sources below, and say so when they do not hold the answer. The lesson's text:\n\n" +
  `<lesson>\n${text}\n</lesson>`;

/**
 * What a tutor chat's reply is given (the chat module's `LessonTutor`, wired in app.ts): the reader's right to the lesson
 * checked again (a course made private since: 403 with what to do), the tutor open (not closed by a graded quiz in
 * progress: 403 naming it, decision 067), both before anything is stored or asked, the lesson's text within `TUTOR_LESSON_TOKENS`, and
 * the passages of the owner's files that the course lists as sources (`lesson_sources.chunk_id`, any of its lessons)
 * searched with the question, scoped in SQL to those pieces; the question's embedding is spent from the reader's
 * allowance. A course without file sources gives no passages and asks nothing.
 */
export const tutorMaterial: LessonTutor = async ({ db, who, lessonId, query, retrieval }): Promise<TutorGiven> => {
  const [found, pieces, closing] = await Promise.all([
    readableLesson(db, who, lessonId, () => new AppError("FORBIDDEN", TUTOR_LESSON_CLOSED)),
    db
      .selectDistinct({ chunkId: lessonSources.chunkId })
      .from(lessonSources)
      .where(
        and(sql`${lessonSources.courseId} = (select course_id from lessons where id = ${lessonId})`, isNotNull(lessonSources.chunkId)),
      ),
    quizClosingTutor(db, who.id, lessonId),
  ]);
  const { course, lesson } = found;
  assertTutorOpen(closing, course, who);
  const chunkIds = pieces.map((p) => Number(p.chunkId));
  const passages =
    chunkIds.length === 0
      ? []
      : await retrievePassages(retrieval, {
          userId: course.userId,
          payerId: who.id,
          query,
          chunkIds,
          budgetTokens: TUTOR_PASSAGE_TOKENS,
          limit: TUTOR_PASSAGE_LIMIT,
        });
  return { lesson: lessonBlock(course.title, lesson.title, withinTokens(lesson.content, TUTOR_LESSON_TOKENS)), passages };
};
