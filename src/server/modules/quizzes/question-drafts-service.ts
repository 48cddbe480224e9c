import { and, asc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import {
  draftedQuestionsSchema,
  type generateQuestionsBodySchema,
  QUESTION_MESSAGES,
  type Question,
  questionBodySchema,
} from "../../../shared/contracts/assessment.js";
import type { ProviderFailureLog } from "../../ai/provider-error.js";
import type { Db } from "../../db/client.js";
import { lessonSources, lessons } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { askObject, requireCourseModel } from "../courses/ai/course-model.js";
import { hintsText } from "../courses/ai/prompts.js";
import { appendQuestions, editableQuiz, type QuestionBodyOutput } from "./questions-service.js";

// "Generate quiz" (issue 32): questions drafted by the owner's model from the text of the module's reading lessons (and
// the passages their sources keep), each checked with the kind's rules and appended to the draft for the owner to
// review. Nothing reaches learners before a publish.

type GenerateInput = z.output<typeof generateQuestionsBodySchema>;

/** The most lesson text (and source passages) one request sends. */
const MATERIAL_CHARS = 16_000;
const TIMEOUT_MS = 120_000;
const SYSTEM =
  "You write quiz questions that check a learner understood the course material given. Use only facts in the material. " +
  "Kinds: single (one correct option), multiple (one or more correct options), truefalse (options True and False; " +
  "correct [0] for true, [1] for false), short (a short free answer; list the accepted answers). Options are 2 to 6 short " +
  "texts; `correct` holds the indexes of the correct options (0-based); `accepted` is empty except for short answers. " +
  "Give each question a one-line explanation of its answer.";

/** The module's reading lessons, with their sources' passages, as one text within the budget. */
async function materialOf(db: Db, moduleId: number): Promise<string> {
  const reading = await db
    .select({ id: lessons.id, title: lessons.title, content: lessons.content })
    .from(lessons)
    .where(and(eq(lessons.moduleId, moduleId), eq(lessons.kind, "reading")))
    .orderBy(asc(lessons.order), asc(lessons.id));
  if (reading.length === 0) return "";
  const passages = await db
    .select({ lessonId: lessonSources.lessonId, n: lessonSources.n, passage: lessonSources.passage })
    .from(lessonSources)
    .where(
      inArray(
        lessonSources.lessonId,
        reading.map((l) => l.id),
      ),
    )
    .orderBy(asc(lessonSources.lessonId), asc(lessonSources.n));
  const parts = reading
    .filter((l) => l.content.trim())
    .map((l) => {
      const sources = passages.filter((p) => p.lessonId === l.id).map((p) => `[${p.n}] ${p.passage}`);
      return `## ${l.title}\n${l.content.trim()}${sources.length ? `\n\nSources:\n${sources.join("\n")}` : ""}`;
    });
  return parts.join("\n\n").slice(0, MATERIAL_CHARS);
}

export async function generateQuestions(options: {
  db: Db;
  platformDeps: PlatformDeps;
  who: Who;
  lessonId: number;
  input: GenerateInput;
  log: ProviderFailureLog;
}): Promise<Question[]> {
  const { db, platformDeps, who, input, log } = options;
  const lesson = await editableQuiz(db, who, options.lessonId);
  const material = await materialOf(db, lesson.moduleId);
  if (!material.trim()) throw new AppError("BAD_REQUEST", QUESTION_MESSAGES.nothingToQuizOn);
  const model = await requireCourseModel(db, platformDeps, who);
  const prompt =
    `Write ${input.count} questions of these kinds: ${input.kinds.join(", ")}.${hintsText(input.hints)}\n\n` +
    `Course material:\n\n${material}`;
  // A draft fits the schema yet may break a kind's rules (a key that is no option): those are dropped, and an answer with
  // none left counts as no answer (asked again once).
  const valid = await askObject({
    model,
    system: SYSTEM,
    prompt,
    schema: draftedQuestionsSchema,
    name: "quiz_questions",
    maxOutputTokens: 4000,
    timeoutMs: TIMEOUT_MS,
    spend: { allowance: platformDeps.allowance, userId: who.id },
    log,
    accept: (drafted) => {
      const checked = drafted.questions.flatMap((draft): QuestionBodyOutput[] => {
        if (!input.kinds.includes(draft.kind)) return [];
        const body = questionBodySchema.safeParse({ ...draft, rubric: "", aiGrading: false });
        return body.success ? [body.data] : [];
      });
      return checked.length > 0 ? checked : null;
    },
  });
  if (valid) return appendQuestions(db, lesson, valid.slice(0, input.count));
  throw new AppError(
    "BAD_GATEWAY",
    `${QUESTION_MESSAGES.generateFailed}: ${model.platform.name} did not answer with valid questions. Please try again.`,
  );
}
