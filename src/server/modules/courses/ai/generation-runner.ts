import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  type ApproveMaterialOutlineInput,
  type ApproveOutlineInput,
  COURSE_NOT_FOUND,
  type GenerationRun,
} from "../../../../shared/contracts/courses.js";
import type { ProviderFailureLog } from "../../../ai/provider-error.js";
import { assertLessonCount, claimAiSlot } from "../../../ai/usage-limits.js";
import type { Db, Tx } from "../../../db/client.js";
import { type CourseSourceScope, courseGenerationRuns, courseModules, courses, lessons, users } from "../../../db/schema/index.js";
import { AppError } from "../../../lib/app-error.js";
import { isUniqueViolation } from "../../../lib/db-errors.js";
import { type IsInstanceAlive, ownedWork, stillOwned, sweepEach } from "../../../lib/liveness.js";
import type { Who } from "../../../lib/who.js";
import type { PlatformDeps } from "../../ai-platforms/platform-view.js";
import { entitlements } from "../../entitlements/entitlements.js";
import type { RetrievalDeps } from "../../knowledge/retrieval/retrieve.js";
import type { VectorStore } from "../../knowledge/retrieval/vector-store.js";
import { courseFor } from "../access.js";
import { createCourse } from "../courses-service.js";
import { replaceLessonSources } from "../lesson-sources.js";
import { lockCourse, nextOrder } from "../ordering.js";
import { writeLessonBody } from "./course-ai-service.js";
import { type CourseMaterial, lessonQuery, passagesFor, resolveCourseMaterial, toScope, withQueriesEmbedded } from "./course-material.js";

type RunRow = typeof courseGenerationRuns.$inferSelect;
/** What a run from material writes with: the material, and retrieval with its lessons' queries already embedded. */
type Grounding = { material: CourseMaterial; retrieval: RetrievalDeps };
/** What the routes pass: the signed-in user and the course (the runner holds the database). */
type ForCourse = { who: Who; courseId: number };
export const INTERRUPTED = "Interrupted by a server restart. Press Resume to go on where it stopped.";
export const PROGRESS_NOT_SAVED = "Writing stopped because the database did not answer. Press Resume to go on where it stopped.";
/** Runs nobody writes are looked for this often: a dead owner's heartbeat lapses in 15 s, so they close within 20 s. */
const SWEEP_EVERY_MS = 5000;
/** A run that ended here without its status saved is tried again this often. */
const RETRY_MS = 2000;

/** What a failed query says without its parameters (they hold lesson text): its code and the database's own message. */
function failure(error: unknown): { code?: string; reason: string } {
  const cause = ((error as { cause?: unknown })?.cause ?? error) as { code?: string; message?: string };
  return {
    code: cause?.code,
    reason:
      String(cause?.message ?? error)
        .split("\n")[0]
        ?.slice(0, 200) ?? "",
  };
}
const BUSY = "Lessons are still being written for this course. Stop that first or wait for it to finish.";

/**
 * Writes the bodies of an approved outline's lessons one at a time, apart from any
 * request. Progress lives in the run row, so a reload shows it and a stopped, failed or
 * interrupted run resumes where it ended. A lesson that already has content (written by
 * hand meanwhile) is never overwritten.
 */
export class CourseGenerationRunner {
  private readonly active = new Map<number, AbortController>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly retries = new Set<NodeJS.Timeout>();

  constructor(
    private readonly options: {
      db: Db;
      platformDeps: PlatformDeps;
      /** Retrieval of a course's material (pgvector, or full text only). */
      vectors: VectorStore;
      instanceId: string;
      isInstanceAlive?: IsInstanceAlive;
      /** Replies and course runs one user may have running at once; lessons one approval may write. */
      limits: { maxRunning: number; maxLessonsPerApprove: number };
      /** Never gets lesson text: callers pass ids and `failure()` summaries. */
      log: (msg: string, err?: unknown) => void;
      /** Where a provider failure of a run is written (the app's logger: a run outlives its request). */
      providerLog: ProviderFailureLog;
    },
  ) {}

  /** Closes the runs nobody writes now, then looks again every few seconds (another instance may die). */
  async start(): Promise<void> {
    await this.sweep();
    this.sweeper = setInterval(
      () => void this.sweep().catch((e) => this.options.log("course run sweep failed", failure(e))),
      SWEEP_EVERY_MS,
    );
    this.sweeper.unref();
  }

  /**
   * Runs "running" that nobody writes become resumable: left by an instance that is gone (stopped), or
   * ours but no longer running here because their progress could not be saved (failed). A row that cannot
   * be changed is logged and skipped: it never stops a start or the sweep.
   */
  async sweep(): Promise<void> {
    const { db, instanceId, isInstanceAlive } = this.options;
    // Ours and just written: the run is starting (launch() comes right after the insert).
    const rows = await db
      .select({ id: courseGenerationRuns.id, ...ownedWork(courseGenerationRuns.owner, courseGenerationRuns.updatedAt) })
      .from(courseGenerationRuns)
      .where(eq(courseGenerationRuns.status, "running"));
    await sweepEach(
      rows,
      async (row) => {
        if (await stillOwned({ ...row, runsHere: this.active.has(row.id) }, instanceId, isInstanceAlive)) return;
        const ours = row.owner === instanceId;
        await this.end(
          row.id,
          row.owner,
          ours ? { status: "failed", error: PROGRESS_NOT_SAVED } : { status: "stopped", error: INTERRUPTED },
        );
      },
      (row, error) => this.options.log(`closing course run ${row.id} failed`, failure(error)),
    );
  }

  /** Ends a run still running for `owner` (never one another instance resumed meanwhile). */
  private async end(runId: number, owner: string | null, change: { status: "stopped" | "failed"; error: string }): Promise<void> {
    await this.options.db
      .update(courseGenerationRuns)
      .set({ ...change, owner: null, currentLessonId: null, updatedAt: new Date() })
      .where(
        and(
          eq(courseGenerationRuns.id, runId),
          eq(courseGenerationRuns.status, "running"),
          owner ? eq(courseGenerationRuns.owner, owner) : isNull(courseGenerationRuns.owner),
        ),
      );
  }

  /** A run of ours whose loop ended without saving how (the database refused): failed, as soon as it answers. */
  private endWhenPossible(runId: number): void {
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      if (this.active.has(runId)) return;
      this.end(runId, this.options.instanceId, { status: "failed", error: PROGRESS_NOT_SAVED }).catch(() => this.endWhenPossible(runId));
    }, RETRY_MS);
    timer.unref();
    this.retries.add(timer);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const timer of this.retries) clearTimeout(timer);
    for (const [runId, controller] of this.active) {
      controller.abort();
      await this.options.db
        .update(courseGenerationRuns)
        .set({ status: "stopped", error: INTERRUPTED, owner: null })
        .where(eq(courseGenerationRuns.id, runId))
        // The next instance's sweep closes it.
        .catch((error) => this.options.log(`stopping course run ${runId} failed`, failure(error)));
    }
  }

  async latest({ who, courseId }: ForCourse): Promise<GenerationRun | null> {
    await courseFor(this.options.db, who, courseId, "edit");
    const [row] = await this.options.db
      .select()
      .from(courseGenerationRuns)
      .where(eq(courseGenerationRuns.courseId, courseId))
      .orderBy(desc(courseGenerationRuns.id))
      .limit(1);
    return row ? this.view(row) : null;
  }

  /** Creates the reviewed outline (appended after existing modules) in one transaction, then starts writing. */
  async approve({ who, courseId, input }: ForCourse & { input: ApproveOutlineInput }): Promise<GenerationRun> {
    await courseFor(this.options.db, who, courseId, "edit");
    return this.begin(who, input, async () => courseId);
  }

  /**
   * "From my material" approved (decision 059): the course (a private draft of the caller's, titled as asked) is made in
   * the transaction that creates its outline and run, so nothing is left when any step before is refused or fails.
   */
  async approveNew({ who, input }: { who: Who; input: ApproveMaterialOutlineInput }): Promise<GenerationRun> {
    return this.begin(who, input, async (tx) => {
      const course = await createCourse({ db: tx, who, input: { title: input.title, description: "", isPublic: false, status: "draft" } });
      return course.id;
    });
  }

  private async begin(who: Who, input: ApproveOutlineInput, courseIn: (tx: Tx) => Promise<number>): Promise<GenerationRun> {
    const { db } = this.options;
    const { outline, hints } = input;
    // The material is checked again (the caller's own, something ready); the outline's planned sources are never used.
    const scope = input.sources ? toScope(input.sources) : null;
    if (scope) await resolveCourseMaterial(db, who.id, scope);
    assertLessonCount(
      outline.modules.reduce((sum, m) => sum + m.lessons.length, 0),
      this.options.limits.maxLessonsPerApprove,
    );
    const run = await db
      .transaction(async (tx) => {
        await claimAiSlot(tx, who.id, this.options.limits.maxRunning);
        const courseId = await courseIn(tx);
        // The course's order lock (after the user's row, as every writer takes them): its modules go at the end.
        if (!(await lockCourse(tx, courseId))) throw new AppError("NOT_FOUND", COURSE_NOT_FOUND);
        const [busy] = await tx
          .select({ id: courseGenerationRuns.id })
          .from(courseGenerationRuns)
          .where(and(eq(courseGenerationRuns.courseId, courseId), eq(courseGenerationRuns.status, "running")))
          .limit(1);
        if (busy) throw new AppError("CONFLICT", BUSY);
        const modules = await tx
          .insert(courseModules)
          .values(
            outline.modules.map((m, i) => ({
              courseId,
              title: m.title,
              description: m.description,
              order: nextOrder(courseModules.order, courseModules.courseId, courseId, i),
            })),
          )
          .returning({ id: courseModules.id, order: courseModules.order });
        modules.sort((a, b) => a.order - b.order);
        const lessonValues = outline.modules.flatMap((m, i) =>
          m.lessons.map((l, j) => ({
            moduleId: modules[i]?.id ?? 0,
            courseId,
            title: l.title,
            type: l.type,
            summary: l.summary,
            content: "",
            order: j + 1,
          })),
        );
        const created = await tx
          .insert(lessons)
          .values(lessonValues)
          .returning({ id: lessons.id, moduleId: lessons.moduleId, order: lessons.order });
        const moduleRank = new Map(modules.map((m) => [m.id, m.order]));
        created.sort((a, b) => (moduleRank.get(a.moduleId) ?? 0) - (moduleRank.get(b.moduleId) ?? 0) || a.order - b.order);
        await tx
          .update(courses)
          .set({ updatedAt: sql`now()`, ...(scope ? { sourceScope: scope } : {}) })
          .where(eq(courses.id, courseId));
        const [row] = await tx
          .insert(courseGenerationRuns)
          .values({
            courseId,
            userId: who.id,
            lessonIds: created.map((l) => l.id),
            hints,
            sources: scope,
            owner: this.options.instanceId,
          })
          .returning();
        return row;
      })
      .catch((error) => {
        throw isUniqueViolation(error) ? new AppError("CONFLICT", BUSY) : error;
      });
    if (!run) throw new Error("insert returned no row");
    this.launch(run.id);
    return this.view(run);
  }

  async stop(target: ForCourse): Promise<GenerationRun | null> {
    const latest = await this.latest(target);
    if (latest?.status !== "running") return latest;
    await this.options.db
      .update(courseGenerationRuns)
      .set({ status: "stopped", error: null, owner: null, updatedAt: new Date() })
      .where(eq(courseGenerationRuns.id, latest.id));
    // Here: stop the lesson being written at once. Elsewhere: that instance sees the status before its next lesson.
    this.active.get(latest.id)?.abort();
    return this.latest(target);
  }

  async resume(target: ForCourse): Promise<GenerationRun> {
    const latest = await this.latest(target);
    if (!latest) throw new AppError("BAD_REQUEST", "There is nothing to resume for this course.");
    if (latest.status === "running") throw new AppError("CONFLICT", BUSY);
    if (latest.status === "done") return latest;
    // Only one of several racing resumes wins the row; the others are told it is busy.
    const claimed = await this.options.db
      .transaction(async (tx) => {
        await claimAiSlot(tx, target.who.id, this.options.limits.maxRunning);
        return tx
          .update(courseGenerationRuns)
          .set({ status: "running", error: null, owner: this.options.instanceId, updatedAt: new Date() })
          .where(and(eq(courseGenerationRuns.id, latest.id), inArray(courseGenerationRuns.status, ["stopped", "failed"])))
          .returning({ id: courseGenerationRuns.id });
      })
      .catch((error) => {
        throw isUniqueViolation(error) ? new AppError("CONFLICT", BUSY) : error;
      });
    if (claimed.length === 0) throw new AppError("CONFLICT", BUSY);
    this.launch(latest.id);
    return (await this.latest(target)) as GenerationRun;
  }

  private launch(runId: number): void {
    const controller = new AbortController();
    this.active.set(runId, controller);
    void this.loop(runId, controller.signal)
      .catch((error) => {
        // Its progress or its end could not be saved: it must not stay "running".
        this.options.log(`course run ${runId} stopped: saving failed`, failure(error));
        this.endWhenPossible(runId);
      })
      .finally(() => {
        if (this.active.get(runId) === controller) this.active.delete(runId);
      });
  }

  private async loop(runId: number, signal: AbortSignal): Promise<void> {
    const { db } = this.options;
    // The run's material, resolved again from its stored scope once per start (a resume reads the same scope).
    let material: Promise<Grounding | null> | undefined;
    const setRun = (change: Partial<RunRow>) =>
      db
        .update(courseGenerationRuns)
        .set({ ...change, updatedAt: new Date() })
        .where(eq(courseGenerationRuns.id, runId));
    for (;;) {
      const [run] = await db.select().from(courseGenerationRuns).where(eq(courseGenerationRuns.id, runId)).limit(1);
      // Stopped, or taken over by another instance after a resume there: this loop is done.
      if (run?.status !== "running" || run.owner !== this.options.instanceId || signal.aborted) return;
      const lessonId = run.lessonIds[run.done];
      if (lessonId === undefined) return void (await setRun({ status: "done", currentLessonId: null, owner: null }));
      try {
        await setRun({ currentLessonId: lessonId });
        material ??= run.sources ? this.grounding(run, run.sources) : Promise.resolve(null);
        await this.writeLesson(run, lessonId, await material, signal);
        await setRun({ done: run.done + 1 });
      } catch (error) {
        if (signal.aborted) return;
        const message = error instanceof AppError ? error.message : "Failed to generate course content";
        return void (await setRun({ status: "failed", error: message, owner: null }));
      }
    }
  }

  /** A run's material and its retrieval, the lessons' queries embedded together (one provider call per start). */
  private async grounding(run: RunRow, scope: CourseSourceScope): Promise<Grounding> {
    const { db, platformDeps, vectors } = this.options;
    const material = await resolveCourseMaterial(db, run.userId, scope);
    const left = run.lessonIds.slice(run.done);
    const rows = left.length
      ? await db.select({ title: lessons.title, summary: lessons.summary }).from(lessons).where(inArray(lessons.id, left))
      : [];
    const retrieval = await withQueriesEmbedded({ db, vectors, platformDeps }, material, rows.map(lessonQuery));
    return { material, retrieval };
  }

  private async writeLesson(run: RunRow, lessonId: number, grounding: Grounding | null, signal: AbortSignal): Promise<void> {
    const { db, platformDeps } = this.options;
    const [row] = await db
      .select({ lesson: lessons, module: courseModules, course: courses })
      .from(lessons)
      .innerJoin(courseModules, eq(courseModules.id, lessons.moduleId))
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(eq(lessons.id, lessonId))
      .limit(1);
    if (!row || row.lesson.content.trim()) return; // deleted, or written meanwhile: never overwrite
    const [owner] = await db
      .select({ id: users.id, role: users.role, planType: users.planType })
      .from(users)
      .where(eq(users.id, run.userId))
      .limit(1);
    if (!owner) throw new AppError("NOT_FOUND", "The course's author no longer exists.");
    entitlements.assertCanGenerateCourses(owner);
    // A course from material: the passages retrieved for this lesson now (those that clear the relevance floor, decision
    // 067) are what the model is given, and its sources; none: it is told to cite nothing, and the lesson says so.
    const passages = grounding ? await passagesFor(grounding.retrieval, grounding.material, lessonQuery(row.lesson)) : undefined;
    const text = await writeLessonBody({
      db,
      platformDeps,
      author: owner,
      course: row.course,
      module: row.module,
      lesson: row.lesson,
      hints: run.hints,
      passages,
      log: this.options.providerLog,
      signal,
    });
    // Only into a lesson still empty (the author may have written it meanwhile), with its sources, in one transaction.
    await db.transaction(async (tx) => {
      const written = await tx
        .update(lessons)
        .set({ content: text, aiGenerated: true, withoutSource: passages?.length === 0, updatedAt: sql`now()` })
        .where(and(eq(lessons.id, lessonId), eq(lessons.content, "")))
        .returning({ id: lessons.id, courseId: lessons.courseId });
      const lesson = written[0];
      if (lesson && passages) await replaceLessonSources(tx, lesson, passages);
    });
  }

  private async view(run: RunRow): Promise<GenerationRun> {
    const current = run.currentLessonId
      ? (
          await this.options.db
            .select({ title: lessons.title })
            .from(lessons)
            .where(inArray(lessons.id, [run.currentLessonId]))
            .limit(1)
        )[0]
      : undefined;
    return {
      id: run.id,
      courseId: run.courseId,
      status: run.status as GenerationRun["status"],
      total: run.lessonIds.length,
      done: run.done,
      currentLessonId: run.status === "running" ? run.currentLessonId : null,
      currentLessonTitle: run.status === "running" ? (current?.title ?? null) : null,
      error: run.error,
      createdAt: run.createdAt.toISOString(),
      updatedAt: run.updatedAt.toISOString(),
    };
  }
}
