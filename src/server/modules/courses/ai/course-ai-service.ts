import { and, asc, desc, eq, isNotNull } from "drizzle-orm";
import {
  type DescribeCourseInput,
  LESSON_NOT_FOUND,
  type Lesson,
  type LessonContentInput,
  type MaterialOutlineRequestInput,
  type OutlineProposal,
  type OutlineRequestInput,
  outlineDraftSchema,
} from "../../../../shared/contracts/courses.js";
import { type TrainingHints, trainingHintsSchema } from "../../../../shared/contracts/fields.js";
import type { AiAllowance } from "../../../ai/allowance.js";
import { completeText } from "../../../ai/generate.js";
import { type ProviderFailureLog, toProviderError } from "../../../ai/provider-error.js";
import type { Db } from "../../../db/client.js";
import { courseGenerationRuns, courseModules, lessons } from "../../../db/schema/index.js";
import { AppError } from "../../../lib/app-error.js";
import type { Who } from "../../../lib/who.js";
import type { PlatformDeps } from "../../ai-platforms/platform-view.js";
import type { ResolvedModel } from "../../ai-platforms/resolve-platform.js";
import { findGlobalPrompt } from "../../ai-prompts/ai-prompts-service.js";
import type { Entitled } from "../../entitlements/entitlements.js";
import type { RetrievalDeps } from "../../knowledge/retrieval/retrieve.js";
import type { VectorStore } from "../../knowledge/retrieval/vector-store.js";
import { courseFor, lessonFor, moduleFor } from "../access.js";
import { saveRegeneratedLesson } from "../lessons-service.js";
import {
  type CourseMaterial,
  lessonQuery,
  lessonSourcesBlock,
  type MaterialPassage,
  outlineMaterial,
  passagesFor,
  plannedSourcesFor,
  resolveCourseMaterial,
  toScope,
  withQueriesEmbedded,
} from "./course-material.js";
import { askObject, courseModelFor, requireCourseModel } from "./course-model.js";
import { DEFAULT_PROMPTS, hintsText, lessonContext, templateOutline } from "./prompts.js";

/** `log`: where a provider failure is written (a request's logger, bound to its request id; the app's for a run). */
type Deps = { db: Db; platformDeps: PlatformDeps; who: Who; log: ProviderFailureLog };
/** What retrieving from a course's material needs besides: the vector store (pgvector, or full text only). */
type WithVectors = { vectors: VectorStore };
const TIMEOUT_MS = 120_000;

export const OUTLINE_FAILED = "Failed to generate course content";

async function systemPrompt(db: Db, key: keyof typeof DEFAULT_PROMPTS): Promise<string> {
  return (await findGlobalPrompt(db, key)) ?? DEFAULT_PROMPTS[key];
}

/** One provider call for `userId`: refused (429) like every AI call once an allowance is spent, and what it spends counts. */
async function write(
  allowance: AiAllowance,
  userId: number,
  model: ResolvedModel,
  system: string,
  prompt: string,
  maxOutputTokens: number,
  log: ProviderFailureLog,
  signal?: AbortSignal,
): Promise<string> {
  try {
    const text = (
      await completeText({
        model: model.model,
        system,
        prompt,
        maxOutputTokens,
        maxRetries: 1,
        timeout: TIMEOUT_MS,
        abortSignal: signal,
        spend: { allowance, userId },
      })
    ).trim();
    if (!text) throw new AppError("BAD_GATEWAY", `${model.platform.name} returned an empty answer. Please try again.`);
    return text;
  } catch (error) {
    throw toProviderError(error, { platform: model.platform, model: model.modelId, log });
  }
}

/** A description from the course title (and the Course Training hints). */
export async function describeCourse({
  db,
  platformDeps,
  who,
  input,
  log,
}: Deps & { input: DescribeCourseInput }): Promise<{ description: string }> {
  const model = await requireCourseModel(db, platformDeps, who);
  const prompt = `Course title: ${input.title}${hintsText(input.hints)}`;
  return {
    description: await write(platformDeps.allowance, who.id, model, await systemPrompt(db, "course-description"), prompt, 400, log),
  };
}

/**
 * Writes one lesson body from its title, its summary and its place in the course, with
 * the author's model. Used by the editor's "Generate with AI" and by the outline runner.
 * The caller has checked permission and plan. The hints may come from a stored run, so they are read through the schema.
 */
export async function writeLessonBody(options: {
  db: Db;
  platformDeps: PlatformDeps;
  author: Entitled & { id: number };
  course: { title: string; description: string };
  module: { id: number; title: string; order: number };
  lesson: { title: string; type: string; summary?: string };
  hints: TrainingHints;
  /**
   * A lesson from material: its passages, given numbered [n] (the lesson's sources are exactly these); none cleared
   * the relevance floor: [], and the model is told to cite nothing (decision 067). Absent: a lesson not from material.
   */
  passages?: readonly MaterialPassage[];
  log: ProviderFailureLog;
  signal?: AbortSignal;
}): Promise<string> {
  const { db, course, module, lesson } = options;
  const [siblings, model, system] = await Promise.all([
    db.select({ title: lessons.title }).from(lessons).where(eq(lessons.moduleId, module.id)).orderBy(asc(lessons.order)),
    requireCourseModel(db, options.platformDeps, options.author),
    systemPrompt(db, "lesson-content"),
  ]);
  const prompt =
    lessonContext({
      courseTitle: course.title,
      courseDescription: course.description,
      moduleTitle: module.title,
      moduleOrder: module.order,
      lessonTitle: lesson.title,
      lessonType: lesson.type,
      summary: lesson.summary,
      siblings: siblings.map((s) => s.title),
    }) + hintsText(trainingHintsSchema.parse(options.hints));
  const block = options.passages ? lessonSourcesBlock(options.passages) : undefined;
  const grounded = block ? `${system}\n\n${block}` : system;
  return write(options.platformDeps.allowance, options.author.id, model, grounded, prompt, 4000, options.log, options.signal);
}

/** A lesson body for the editor (not saved: the editor fills the field). */
export async function lessonContent({
  db,
  platformDeps,
  who,
  moduleId,
  input,
  log,
}: Deps & { moduleId: number; input: LessonContentInput }): Promise<{ content: string }> {
  const { course, module } = await moduleFor(db, who, moduleId, "edit");
  const content = await writeLessonBody({ db, platformDeps, author: who, course, module, lesson: input, hints: input.hints, log });
  return { content };
}

/**
 * A whole course as an outline to review: structured output validated by the shared zod
 * schema, asked again once if the model answers something invalid, then refused with the
 * product's message. With no usable platform, the fallback template, and a notice that says so.
 */
export async function proposeOutline({
  courseId,
  ...deps
}: Deps & WithVectors & { courseId: number; input: OutlineRequestInput }): Promise<OutlineProposal> {
  const course = await courseFor(deps.db, deps.who, courseId, "edit");
  return draftOutline(deps, course);
}

/** The same for "From my material" before any course exists (decision 059): the course is made when it is approved. */
export async function proposeMaterialOutline(deps: Deps & WithVectors & { input: MaterialOutlineRequestInput }): Promise<OutlineProposal> {
  return draftOutline(deps, { title: deps.input.title, description: "" });
}

async function draftOutline(
  { db, platformDeps, who, input, log, vectors }: Deps & WithVectors & { input: OutlineRequestInput },
  course: { title: string; description: string },
): Promise<OutlineProposal> {
  const [model, material] = await Promise.all([
    courseModelFor(db, platformDeps, who),
    input.sources ? resolveCourseMaterial(db, who.id, toScope(input.sources)) : Promise.resolve(null),
  ]);
  const retrieval = { db, vectors, platformDeps };
  if (!model) {
    return withPlannedSources(retrieval, material, {
      ...templateOutline(course.title),
      source: "template",
      notice:
        "No AI platform is set up, so this is the built-in template. An administrator can add an API key under Admin > AI Chat Settings.",
    });
  }
  const system = await systemPrompt(db, "course-outline");
  const about = `Course title: ${course.title}\n${course.description ? `Course description: ${course.description}\n` : ""}`;
  const grounding = material
    ? `\n\n${await outlineMaterial(retrieval, material, [course.title, course.description, input.hints.goals, input.hints.notes].filter(Boolean).join(" "))}`
    : "";
  const prompt = `${about}Modules: about ${input.moduleCount}${hintsText(input.hints)}${grounding}`;
  const draft = await askObject({
    model,
    system,
    prompt,
    schema: outlineDraftSchema,
    name: "course_outline",
    maxOutputTokens: 4000,
    timeoutMs: TIMEOUT_MS,
    spend: { allowance: platformDeps.allowance, userId: who.id },
    log,
  });
  if (!draft) {
    throw new AppError("BAD_GATEWAY", `${OUTLINE_FAILED}: ${model.platform.name} did not answer with a valid outline. Please try again.`);
  }
  return withPlannedSources(retrieval, material, { ...draft, source: "ai", notice: null });
}

/**
 * Each proposed lesson's planned sources, retrieved for it from the material (its title and summary as the query);
 * whatever the model put there is replaced. Display only: the approve retrieves again (decision 039).
 */
async function withPlannedSources(
  deps: RetrievalDeps,
  material: CourseMaterial | null,
  proposal: OutlineProposal,
): Promise<OutlineProposal> {
  const queries = proposal.modules.flatMap((m) => m.lessons.map(lessonQuery));
  const retrieval = material ? await withQueriesEmbedded(deps, material, queries) : deps;
  const modules = [];
  for (const module of proposal.modules) {
    const lessonsOf = [];
    for (const lesson of module.lessons) {
      lessonsOf.push({ ...lesson, sources: material ? await plannedSourcesFor(retrieval, material, lesson) : [] });
    }
    modules.push({ ...module, lessons: lessonsOf });
  }
  return { ...proposal, modules };
}

/**
 * The author of a course's material: whoever approved its latest run from material (their files or chats), else the
 * course's owner.
 */
async function materialOwnerOf(db: Db, course: { id: number; userId: number }): Promise<number> {
  const [run] = await db
    .select({ userId: courseGenerationRuns.userId })
    .from(courseGenerationRuns)
    .where(and(eq(courseGenerationRuns.courseId, course.id), isNotNull(courseGenerationRuns.sources)))
    .orderBy(desc(courseGenerationRuns.id))
    .limit(1);
  return run?.userId ?? course.userId;
}

/**
 * POST /api/lessons/{id}/regenerate: writes a saved lesson again. A course made from material retrieves the lesson's
 * passages again first (a file updated since is used); the old text is kept as a version and the sources replaced,
 * in one transaction (`saveRegeneratedLesson`).
 */
export async function regenerateLesson({
  db,
  platformDeps,
  vectors,
  who,
  lessonId,
  input,
  log,
}: Deps & WithVectors & { lessonId: number; input: { hints: TrainingHints } }): Promise<Lesson> {
  const { course, lesson } = await lessonFor(db, who, lessonId, "edit");
  const [module] = await db.select().from(courseModules).where(eq(courseModules.id, lesson.moduleId)).limit(1);
  if (!module) throw new AppError("NOT_FOUND", LESSON_NOT_FOUND);
  const retrieval = { db, vectors, platformDeps };
  const passages = course.sourceScope
    ? await passagesFor(
        retrieval,
        await resolveCourseMaterial(db, await materialOwnerOf(db, course), course.sourceScope),
        lessonQuery(lesson),
      )
    : undefined;
  const content = await writeLessonBody({ db, platformDeps, author: who, course, module, lesson, hints: input.hints, passages, log });
  return saveRegeneratedLesson(db, lesson, content, passages);
}
