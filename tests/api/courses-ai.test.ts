import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { courseAiApi, coursesApi, type GenerationRun, lessonsApi } from "../../src/shared/contracts/courses.js";
import { usageApi } from "../../src/shared/contracts/usage.js";
import { FAKE_OUTLINE } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let author: CookieClient;
let free: CookieClient;

const hints = { audience: "new managers", level: "beginner" as const, goals: "run a 1:1", notes: "" };

async function courseOf(client: CookieClient, title: string): Promise<number> {
  return (await client.ok(coursesApi.create, { body: { title } })).id;
}

/** The course's run (GET /api/courses/{id}/generation); a course with none fails the test. */
async function runOf(client: CookieClient, courseId: number): Promise<GenerationRun> {
  const run = await client.ok(courseAiApi.generation, { params: { id: courseId } });
  if (!run) throw new Error(`course ${courseId} has no run`);
  return run;
}

/** Polls the run until it leaves "running" (or the time runs out). */
async function settle(courseId: number, until: (run: GenerationRun) => boolean = (r) => r.status !== "running"): Promise<GenerationRun> {
  let run = await runOf(author, courseId);
  for (let i = 0; i < 200; i++) {
    run = await runOf(author, courseId);
    if (until(run)) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  return run;
}

const approve = (client: CookieClient, id: number) =>
  client.call(courseAiApi.approveOutline, { params: { id }, body: { outline: FAKE_OUTLINE } });
const stop = (client: CookieClient, id: number) => client.call(courseAiApi.stopGeneration, { params: { id } });
const resume = (client: CookieClient, id: number) => client.call(courseAiApi.resumeGeneration, { params: { id } });
const earlyAccess = async (userId: number) =>
  (await admin.call(adminUsersApi.update, { params: { id: userId }, body: { planType: "earlyAccess" } })).status;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
  const registered = await registerAndSignIn(t.app);
  author = registered.client;
  expect(await earlyAccess(registered.user.id)).toBe(200);
  free = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe("AI course building", () => {
  it("refuses a free user with 403 naming the plan on every AI call", async () => {
    const id = await courseOf(free, "Free course");
    const module = await free.ok(coursesApi.createModule, { params: { id }, body: { title: "M" } });
    for (const [url, call] of [
      ["/api/ai/course-description", () => free.call(courseAiApi.describe, { body: { title: "Anything" } })],
      [
        `/api/modules/${module.id}/lesson-content`,
        () => free.call(courseAiApi.lessonContent, { params: { id: module.id }, body: { title: "A lesson" } }),
      ],
      [`/api/courses/${id}/generate/outline`, () => free.call(courseAiApi.proposeOutline, { params: { id }, body: {} })],
      [`/api/courses/${id}/generate/approve`, () => approve(free, id)],
    ] as const) {
      const res = await call();
      expect({ url, status: res.status }).toEqual({ url, status: 403 });
      expect(res.error.message).toMatch(/AI course generation needs the Early Access plan/);
    }
  });

  it("writes a description and a lesson body with the hints in the prompt, and needs a title", async () => {
    const description = await author.call(courseAiApi.describe, { body: { title: "Leading 1:1s", hints } });
    expect(description.status).toBe(200);
    expect(description.data.description).toContain("Leading 1:1s");
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("Audience: new managers");
    expect((await author.call(courseAiApi.describe, { body: { title: " " } })).error.errors).toEqual({
      title: "Please enter a title first.",
    });

    const id = await courseOf(author, "Leading 1:1s");
    const module = await author.ok(coursesApi.createModule, { params: { id }, body: { title: "Preparing" } });
    const params = { id: module.id };
    const body = await author.ok(courseAiApi.lessonContent, { params, body: { title: "Agenda", hints } });
    expect(body.content).toContain('lesson "Agenda"');
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("Module 1: Preparing");
    expect((await author.call(courseAiApi.lessonContent, { params, body: { title: "" } })).error.errors).toEqual({
      title: "Please enter a title first",
    });
    expect((await free.call(courseAiApi.lessonContent, { params, body: { title: "x" } })).status).toBe(403);
  });

  it("proposes an outline as validated structured output; asks again once, then refuses invalid output", async () => {
    const id = await courseOf(author, "Negotiation basics");
    const proposal = await author.ok(courseAiApi.proposeOutline, { params: { id }, body: { hints } });
    expect(proposal).toMatchObject({ ...FAKE_OUTLINE, source: "ai", notice: null });

    const bad = await courseOf(author, "Broken #bad-json");
    const before = fake.requests.length;
    const refused = await author.call(courseAiApi.proposeOutline, { params: { id: bad }, body: {} });
    expect(refused.status).toBe(502);
    expect(refused.error.message).toMatch(/^Failed to generate course content/);
    expect(fake.requests.length - before).toBe(2);
  });

  it("creates the approved outline after existing modules, then writes every lesson, without touching the rest", async () => {
    const id = await courseOf(author, "Team rituals");
    const mine = await author.ok(coursesApi.createModule, { params: { id }, body: { title: "My own module" } });
    const handWritten = await author.ok(lessonsApi.create, {
      params: { id: mine.id },
      body: { title: "Mine", type: "reading", content: "Written by hand" },
    });
    const approved = await author.call(courseAiApi.approveOutline, { params: { id }, body: { outline: FAKE_OUTLINE, hints } });
    expect(approved.status).toBe(201);
    expect(approved.data).toMatchObject({ status: "running", total: 4 });
    const run = await settle(id);
    expect(run).toMatchObject({ status: "done", done: 4, total: 4, error: null });
    const outline = await author.ok(coursesApi.outline, { params: { id } });
    expect(outline.modules.map((m) => `${m.order} ${m.title}`)).toEqual(["1 My own module", "2 Getting Started", "3 Going Further"]);
    const generated = outline.modules[1]?.lessons[0];
    const lesson = await author.ok(lessonsApi.get, { params: { id: generated?.id ?? 0 } });
    expect(lesson).toMatchObject({ title: "Why it matters", aiGenerated: true });
    expect(lesson.content).toContain('lesson "Why it matters"');
    expect((await author.ok(lessonsApi.get, { params: { id: handWritten.id } })).content).toBe("Written by hand");
  });

  it("a Stop while a lesson waits for its first token spends that call's prompt estimate (the provider had it, decision 053)", async () => {
    const registered = await registerAndSignIn(t.app);
    expect(await earlyAccess(registered.user.id)).toBe(200);
    const { client, user } = registered;
    const holds = async () =>
      (await t.database.db.execute(sql`select prompt_estimate from ai_holds where user_id = ${user.id}`)).rows.map((row) =>
        Number((row as { prompt_estimate: number }).prompt_estimate),
      );
    // The course's title is in each lesson's prompt: #hang-start, the stand-in reads it and never answers.
    const id = await courseOf(client, "Never answered #hang-start");
    expect((await approve(client, id)).status).toBe(201);
    let held: number[] = [];
    for (let i = 0; i < 300 && held.length === 0; i++) {
      held = await holds();
      if (held.length === 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(held).toHaveLength(1);
    expect((await stop(client, id)).data?.status).toBe("stopped");
    for (let i = 0; i < 300 && (await holds()).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await holds()).toEqual([]);
    expect((await client.ok(usageApi.mine, {})).tokens.used).toBe(held[0]);
  });

  it("stops between lessons keeping what is done, and resumes where it ended", async () => {
    const id = await courseOf(author, "Slow course #slow");
    await approve(author, id);
    await settle(id, (r) => r.done >= 1);
    const stopped = (await stop(author, id)).data;
    expect(stopped?.status).toBe("stopped");
    expect(stopped?.done).toBeGreaterThanOrEqual(1);
    expect(stopped?.done).toBeLessThan(4);
    await new Promise((r) => setTimeout(r, 500));
    expect((await runOf(author, id)).done).toBe(stopped?.done);
    expect((await approve(author, id)).status).toBe(201);
    // A second approval while one runs is refused.
    expect((await approve(author, id)).status).toBe(409);
    await stop(author, id);
    expect((await resume(author, id)).data.status).toBe("running");
    const done = await settle(id);
    expect(done.status).toBe("done");
  }, 60_000);

  it("marks a run left running by a dead instance as stopped, resumable; another user cannot touch it", async () => {
    const id = await courseOf(author, "Interrupted");
    await approve(author, id);
    await stop(author, id);
    await t.database.db.execute(`update course_generation_runs set status = 'running', owner = 'gone-instance' where course_id = ${id}`);
    await t.app.ctx.courseGenerations.start();
    const run = await runOf(author, id);
    expect(run.status).toBe("stopped");
    expect(run.error).toMatch(/restart/);
    const params = { id };
    for (const [url, call] of [
      [`GET /api/courses/${id}/generation`, () => free.call(courseAiApi.generation, { params })],
      [`POST /api/courses/${id}/generation/resume`, () => resume(free, id)],
      [`POST /api/courses/${id}/generation/stop`, () => stop(free, id)],
      [`POST /api/courses/${id}/generate/outline`, () => free.call(courseAiApi.proposeOutline, { params, body: {} })],
    ] as const) {
      const res = await call();
      expect({ url, status: res.status }).toEqual({ url, status: 403 });
    }
    expect((await author.call(courseAiApi.generation, { params: { id: 99999999 } })).status).toBe(404);
  });

  it("falls back to the product's template when no AI platform is usable, and says so", async () => {
    const list = await admin.ok(aiPlatformsApi.list, {});
    const openai = list.find((p) => p.slug === "openai");
    if (!openai) throw new Error("no openai platform");
    await admin.ok(aiPlatformsApi.update, { params: { id: openai.id }, body: { status: "inactive" } });
    try {
      const id = await courseOf(author, "No AI here");
      const proposal = await author.ok(courseAiApi.proposeOutline, { params: { id }, body: {} });
      expect(proposal.source).toBe("template");
      expect(proposal.notice).toMatch(/No AI platform is set up/);
      expect(proposal.modules.map((m) => `${m.title}:${m.lessons.length}`)).toEqual([
        "Introduction:3",
        "Core Concepts:3",
        "Advanced Topics:3",
      ]);
    } finally {
      await admin.ok(aiPlatformsApi.update, { params: { id: openai.id }, body: { status: "active" } });
    }
  });

  it("lets one of several racing approvals or resumes through; the others get 409 and nothing is duplicated", async () => {
    const id = await courseOf(author, "Racing #slow");
    const approvals = await Promise.all([1, 2, 3].map(() => approve(author, id)));
    expect(approvals.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const modules = await author.ok(coursesApi.modules, { params: { id } });
    expect(modules).toHaveLength(FAKE_OUTLINE.modules.length);
    await stop(author, id);
    const resumes = await Promise.all([1, 2, 3].map(() => resume(author, id)));
    expect(resumes.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const running = await t.database.db.execute(
      `select count(*)::int as n from course_generation_runs where course_id = ${id} and status = 'running'`,
    );
    expect((running.rows[0] as { n: number }).n).toBe(1);
    await stop(author, id);
  });
});
