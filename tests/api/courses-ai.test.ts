import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

type Run = { status: string; done: number; total: number; error: string | null };
const hints = { audience: "new managers", level: "beginner", goals: "run a 1:1", notes: "" };

async function courseOf(client: CookieClient, title: string): Promise<number> {
  return (await client.post("/api/courses", { title })).json().id as number;
}

/** Polls the run until it leaves "running" (or the time runs out). */
async function settle(courseId: number, until: (run: Run) => boolean = (r) => r.status !== "running"): Promise<Run> {
  let run: Run = { status: "", done: 0, total: 0, error: null };
  for (let i = 0; i < 200; i++) {
    run = (await author.get(`/api/courses/${courseId}/generation`)).json();
    if (until(run)) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  return run;
}

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
  const registered = await registerAndSignIn(t.app);
  author = registered.client;
  expect((await admin.patch(`/api/admin/users/${registered.user.id}`, { planType: "earlyAccess" })).statusCode).toBe(200);
  free = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe("AI course building", () => {
  it("refuses a free user with 403 naming the plan on every AI call", async () => {
    const id = await courseOf(free, "Free course");
    const module = (await free.post(`/api/courses/${id}/modules`, { title: "M" })).json();
    for (const [url, body] of [
      ["/api/ai/course-description", { title: "Anything" }],
      [`/api/modules/${module.id}/lesson-content`, { title: "A lesson" }],
      [`/api/courses/${id}/generate/outline`, {}],
      [`/api/courses/${id}/generate/approve`, { outline: FAKE_OUTLINE }],
    ] as const) {
      const res = await free.post(url, body);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
      expect(res.json().message).toMatch(/AI course generation needs the Early Access plan/);
    }
  });

  it("writes a description and a lesson body with the hints in the prompt, and needs a title", async () => {
    const description = await author.post("/api/ai/course-description", { title: "Leading 1:1s", hints });
    expect(description.statusCode).toBe(200);
    expect(description.json().description).toContain("Leading 1:1s");
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("Audience: new managers");
    expect((await author.post("/api/ai/course-description", { title: " " })).json().errors).toEqual({
      title: "Please enter a title first.",
    });

    const id = await courseOf(author, "Leading 1:1s");
    const module = (await author.post(`/api/courses/${id}/modules`, { title: "Preparing" })).json();
    const body = await author.post(`/api/modules/${module.id}/lesson-content`, { title: "Agenda", hints });
    expect(body.json().content).toContain('lesson "Agenda"');
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("Module 1: Preparing");
    expect((await author.post(`/api/modules/${module.id}/lesson-content`, { title: "" })).json().errors).toEqual({
      title: "Please enter a title first",
    });
    expect((await free.post(`/api/modules/${module.id}/lesson-content`, { title: "x" })).statusCode).toBe(403);
  });

  it("proposes an outline as validated structured output; asks again once, then refuses invalid output", async () => {
    const id = await courseOf(author, "Negotiation basics");
    const proposal = (await author.post(`/api/courses/${id}/generate/outline`, { hints })).json();
    expect(proposal).toMatchObject({ ...FAKE_OUTLINE, source: "ai", notice: null });

    const bad = await courseOf(author, "Broken #bad-json");
    const before = fake.requests.length;
    const refused = await author.post(`/api/courses/${bad}/generate/outline`, {});
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/^Failed to generate course content/);
    expect(fake.requests.length - before).toBe(2);
  });

  it("creates the approved outline after existing modules, then writes every lesson, without touching the rest", async () => {
    const id = await courseOf(author, "Team rituals");
    const mine = (await author.post(`/api/courses/${id}/modules`, { title: "My own module" })).json();
    const handWritten = (
      await author.post(`/api/modules/${mine.id}/lessons`, { title: "Mine", type: "reading", content: "Written by hand" })
    ).json();
    const approved = await author.post(`/api/courses/${id}/generate/approve`, { outline: FAKE_OUTLINE, hints });
    expect(approved.statusCode).toBe(201);
    expect(approved.json()).toMatchObject({ status: "running", total: 4 });
    const run = await settle(id);
    expect(run).toMatchObject({ status: "done", done: 4, total: 4, error: null });
    const outline = (await author.get(`/api/courses/${id}/outline`)).json();
    expect(outline.modules.map((m: { title: string; order: number }) => `${m.order} ${m.title}`)).toEqual([
      "1 My own module",
      "2 Getting Started",
      "3 Going Further",
    ]);
    const generated = outline.modules[1].lessons[0];
    const lesson = (await author.get(`/api/lessons/${generated.id}`)).json();
    expect(lesson).toMatchObject({ title: "Why it matters", aiGenerated: true });
    expect(lesson.content).toContain('lesson "Why it matters"');
    expect((await author.get(`/api/lessons/${handWritten.id}`)).json().content).toBe("Written by hand");
  });

  it("a Stop while a lesson waits for its first token spends that call's prompt estimate (the provider had it, decision 053)", async () => {
    const registered = await registerAndSignIn(t.app);
    expect((await admin.patch(`/api/admin/users/${registered.user.id}`, { planType: "earlyAccess" })).statusCode).toBe(200);
    const { client, user } = registered;
    const holds = async () =>
      (await t.database.db.execute(sql`select prompt_estimate from ai_holds where user_id = ${user.id}`)).rows.map((row) =>
        Number((row as { prompt_estimate: number }).prompt_estimate),
      );
    // The course's title is in each lesson's prompt: #hang-start, the stand-in reads it and never answers.
    const id = await courseOf(client, "Never answered #hang-start");
    expect((await client.post(`/api/courses/${id}/generate/approve`, { outline: FAKE_OUTLINE })).statusCode).toBe(201);
    let held: number[] = [];
    for (let i = 0; i < 300 && held.length === 0; i++) {
      held = await holds();
      if (held.length === 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(held).toHaveLength(1);
    expect(((await client.post(`/api/courses/${id}/generation/stop`)).json() as Run).status).toBe("stopped");
    for (let i = 0; i < 300 && (await holds()).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await holds()).toEqual([]);
    expect(((await client.get("/api/usage")).json() as { tokens: { used: number } }).tokens.used).toBe(held[0]);
  });

  it("stops between lessons keeping what is done, and resumes where it ended", async () => {
    const id = await courseOf(author, "Slow course #slow");
    await author.post(`/api/courses/${id}/generate/approve`, { outline: FAKE_OUTLINE });
    await settle(id, (r) => r.done >= 1);
    const stopped = (await author.post(`/api/courses/${id}/generation/stop`)).json() as Run;
    expect(stopped.status).toBe("stopped");
    expect(stopped.done).toBeGreaterThanOrEqual(1);
    expect(stopped.done).toBeLessThan(4);
    await new Promise((r) => setTimeout(r, 500));
    expect(((await author.get(`/api/courses/${id}/generation`)).json() as Run).done).toBe(stopped.done);
    expect((await author.post(`/api/courses/${id}/generate/approve`, { outline: FAKE_OUTLINE })).statusCode).toBe(201);
    // A second approval while one runs is refused.
    expect((await author.post(`/api/courses/${id}/generate/approve`, { outline: FAKE_OUTLINE })).statusCode).toBe(409);
    await author.post(`/api/courses/${id}/generation/stop`);
    expect((await author.post(`/api/courses/${id}/generation/resume`)).json().status).toBe("running");
    const done = await settle(id);
    expect(done.status).toBe("done");
  }, 60_000);

  it("marks a run left running by a dead instance as stopped, resumable; another user cannot touch it", async () => {
    const id = await courseOf(author, "Interrupted");
    await author.post(`/api/courses/${id}/generate/approve`, { outline: FAKE_OUTLINE });
    await author.post(`/api/courses/${id}/generation/stop`);
    await t.database.db.execute(`update course_generation_runs set status = 'running', owner = 'gone-instance' where course_id = ${id}`);
    await t.app.ctx.courseGenerations.start();
    const run = (await author.get(`/api/courses/${id}/generation`)).json() as Run;
    expect(run.status).toBe("stopped");
    expect(run.error).toMatch(/restart/);
    for (const [method, url] of [
      ["GET", `/api/courses/${id}/generation`],
      ["POST", `/api/courses/${id}/generation/resume`],
      ["POST", `/api/courses/${id}/generation/stop`],
      ["POST", `/api/courses/${id}/generate/outline`],
    ] as const) {
      const res = await free.request({ method, url, payload: {} });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
    }
    expect((await author.get("/api/courses/99999999/generation")).statusCode).toBe(404);
  });

  it("falls back to the product's template when no AI platform is usable, and says so", async () => {
    const list = (await admin.get("/api/ai-platforms")).json() as { id: number; slug: string }[];
    const openai = list.find((p) => p.slug === "openai");
    await admin.patch(`/api/admin/ai-platforms/${openai?.id}`, { status: "inactive" });
    try {
      const id = await courseOf(author, "No AI here");
      const proposal = (await author.post(`/api/courses/${id}/generate/outline`, {})).json();
      expect(proposal.source).toBe("template");
      expect(proposal.notice).toMatch(/No AI platform is set up/);
      expect(proposal.modules.map((m: { title: string; lessons: unknown[] }) => `${m.title}:${m.lessons.length}`)).toEqual([
        "Introduction:3",
        "Core Concepts:3",
        "Advanced Topics:3",
      ]);
    } finally {
      await admin.patch(`/api/admin/ai-platforms/${openai?.id}`, { status: "active" });
    }
  });

  it("lets one of several racing approvals or resumes through; the others get 409 and nothing is duplicated", async () => {
    const id = await courseOf(author, "Racing #slow");
    const approvals = await Promise.all([1, 2, 3].map(() => author.post(`/api/courses/${id}/generate/approve`, { outline: FAKE_OUTLINE })));
    expect(approvals.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const modules = (await author.get(`/api/courses/${id}/modules`)).json() as unknown[];
    expect(modules).toHaveLength(FAKE_OUTLINE.modules.length);
    await author.post(`/api/courses/${id}/generation/stop`);
    const resumes = await Promise.all([1, 2, 3].map(() => author.post(`/api/courses/${id}/generation/resume`)));
    expect(resumes.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const running = await t.database.db.execute(
      `select count(*)::int as n from course_generation_runs where course_id = ${id} and status = 'running'`,
    );
    expect((running.rows[0] as { n: number }).n).toBe(1);
    await author.post(`/api/courses/${id}/generation/stop`);
  });
});
