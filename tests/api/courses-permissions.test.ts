import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import {
  COURSE_EDIT_FORBIDDEN,
  COURSE_FORBIDDEN,
  COURSE_NOT_FOUND,
  courseAiApi,
  coursesApi,
  lessonsApi,
} from "../../src/shared/contracts/courses.js";
import type { EndpointOutput, EndpointShape } from "../../src/shared/contracts/endpoint.js";
import { FAKE_OUTLINE } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type Called, requestFor } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { multipartFile, TINY_PNG } from "../helpers/multipart.js";

// The whole course permission matrix (docs/product.md, Courses and lessons): for every course,
// module, lesson and course-AI call, each actor against each course state, on a fresh course.

const SIGN_IN = "You need to sign in to do that.";
/** An id that fits the schema but exists nowhere. */
const MISSING = 2_147_483_000;

const STATES = [
  { name: "private draft", isPublic: false, status: "draft" },
  { name: "private published", isPublic: false, status: "published" },
  { name: "public draft", isPublic: true, status: "draft" },
  { name: "public published", isPublic: true, status: "published" },
] as const;
type State = (typeof STATES)[number];

/** A course of the owner's: two modules (2 + 1 lessons), a kept version, a cover, a completion and a stopped run. */
interface Fixture {
  courseId: number;
  moduleId: number;
  lessonId: number;
  secondLessonId: number;
  versionId: number;
}

interface Call {
  name: string;
  /** Which check the server makes: "read" calls are open to anyone who may view the course, "edit" ones to owner and admin. */
  access: "read" | "edit";
  /** What the id in the path names, for the 404 message. */
  target: "course" | "module" | "lesson";
  /** The status owner and admin get. */
  ok: number;
  /** Owner/admin success visibly changes the course (checked through the owner's eyes). */
  mutates: boolean;
  request(f: Fixture): InjectOptions;
}

const NOT_FOUND = { course: COURSE_NOT_FOUND, module: "Module not found", lesson: "Lesson not found" } as const;

const lessonBody = { title: "Added lesson", type: "reading", content: "# Added" } as const;

const CALLS: Call[] = [
  // course-routes.ts
  {
    name: "GET course",
    access: "read",
    target: "course",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(coursesApi.get, { params: { id: f.courseId } }),
  },
  {
    name: "PATCH course",
    access: "edit",
    target: "course",
    ok: 200,
    mutates: true,
    request: (f) =>
      requestFor(coursesApi.update, { params: { id: f.courseId }, body: { title: "Renamed course", isPublic: true, status: "published" } }),
  },
  {
    name: "DELETE course",
    access: "edit",
    target: "course",
    ok: 204,
    mutates: true,
    request: (f) => requestFor(coursesApi.remove, { params: { id: f.courseId } }),
  },
  {
    name: "GET outline",
    access: "read",
    target: "course",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(coursesApi.outline, { params: { id: f.courseId } }),
  },
  {
    name: "GET modules",
    access: "read",
    target: "course",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(coursesApi.modules, { params: { id: f.courseId } }),
  },
  {
    name: "POST module",
    access: "edit",
    target: "course",
    ok: 201,
    mutates: true,
    request: (f) => requestFor(coursesApi.createModule, { params: { id: f.courseId }, body: { title: "Added module" } }),
  },
  {
    name: "POST cover",
    access: "edit",
    target: "course",
    ok: 200,
    mutates: true,
    request: (f) =>
      requestFor(
        coursesApi.uploadCover,
        { params: { id: f.courseId } },
        { multipart: multipartFile("file", "cover.png", "image/png", TINY_PNG) },
      ),
  },
  {
    name: "DELETE cover",
    access: "edit",
    target: "course",
    ok: 200,
    mutates: true,
    request: (f) => requestFor(coursesApi.removeCover, { params: { id: f.courseId } }),
  },
  // lesson-routes.ts: modules
  {
    name: "GET module",
    access: "read",
    target: "module",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(lessonsApi.getModule, { params: { id: f.moduleId } }),
  },
  {
    name: "PATCH module",
    access: "edit",
    target: "module",
    ok: 200,
    mutates: true,
    request: (f) => requestFor(lessonsApi.updateModule, { params: { id: f.moduleId }, body: { title: "Renamed module" } }),
  },
  {
    name: "DELETE module",
    access: "edit",
    target: "module",
    ok: 204,
    mutates: true,
    request: (f) => requestFor(lessonsApi.removeModule, { params: { id: f.moduleId } }),
  },
  {
    name: "move module",
    access: "edit",
    target: "module",
    ok: 200,
    mutates: true,
    request: (f) => requestFor(lessonsApi.moveModule, { params: { id: f.moduleId }, body: { direction: "down" } }),
  },
  {
    name: "GET lessons",
    access: "read",
    target: "module",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(lessonsApi.list, { params: { id: f.moduleId } }),
  },
  {
    name: "POST lesson",
    access: "edit",
    target: "module",
    ok: 201,
    mutates: true,
    request: (f) => requestFor(lessonsApi.create, { params: { id: f.moduleId }, body: lessonBody }),
  },
  // lesson-routes.ts: lessons
  {
    name: "GET lesson",
    access: "read",
    target: "lesson",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(lessonsApi.get, { params: { id: f.lessonId } }),
  },
  {
    name: "PATCH lesson",
    access: "edit",
    target: "lesson",
    ok: 200,
    mutates: true,
    request: (f) =>
      requestFor(lessonsApi.update, { params: { id: f.secondLessonId }, body: { title: "Renamed lesson", content: "Rewritten" } }),
  },
  {
    name: "DELETE lesson",
    access: "edit",
    target: "lesson",
    ok: 204,
    mutates: true,
    request: (f) => requestFor(lessonsApi.remove, { params: { id: f.secondLessonId } }),
  },
  {
    name: "move lesson",
    access: "edit",
    target: "lesson",
    ok: 200,
    mutates: true,
    request: (f) => requestFor(lessonsApi.move, { params: { id: f.lessonId }, body: { direction: "down" } }),
  },
  {
    name: "GET versions",
    access: "edit",
    target: "lesson",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(lessonsApi.versions, { params: { id: f.lessonId } }),
  },
  {
    name: "restore version",
    access: "edit",
    target: "lesson",
    ok: 200,
    mutates: true,
    request: (f) => requestFor(lessonsApi.restoreVersion, { params: { id: f.lessonId, versionId: f.versionId } }),
  },
  {
    name: "complete lesson",
    access: "read",
    target: "lesson",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(lessonsApi.complete, { params: { id: f.secondLessonId } }),
  },
  {
    name: "uncomplete lesson",
    access: "read",
    target: "lesson",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(lessonsApi.uncomplete, { params: { id: f.lessonId } }),
  },
  // ai-routes.ts
  {
    name: "GET generation",
    access: "edit",
    target: "course",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(courseAiApi.generation, { params: { id: f.courseId } }),
  },
  {
    name: "stop generation",
    access: "edit",
    target: "course",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(courseAiApi.stopGeneration, { params: { id: f.courseId } }),
  },
  {
    name: "resume generation",
    access: "edit",
    target: "course",
    ok: 200,
    mutates: true,
    request: (f) => requestFor(courseAiApi.resumeGeneration, { params: { id: f.courseId } }),
  },
  {
    name: "generate outline",
    access: "edit",
    target: "course",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(courseAiApi.proposeOutline, { params: { id: f.courseId }, body: { moduleCount: 2 } }),
  },
  {
    name: "approve outline",
    access: "edit",
    target: "course",
    ok: 201,
    mutates: true,
    request: (f) => requestFor(courseAiApi.approveOutline, { params: { id: f.courseId }, body: { outline: FAKE_OUTLINE } }),
  },
  {
    name: "lesson content",
    access: "edit",
    target: "module",
    ok: 200,
    mutates: false,
    request: (f) => requestFor(courseAiApi.lessonContent, { params: { id: f.moduleId }, body: { title: "A new lesson" } }),
  },
];

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let owner: CookieClient;
let ownerId: number;
let other: CookieClient;
let anonymous: CookieClient;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  // The matrix approves outlines for one owner in every state at once: the per-user limit on running AI
  // work (tests/api/ai-limits.test.ts) is not what it checks.
  t = await buildTestApp({ env: { AI_MAX_CONCURRENT_PER_USER: "1000" } });
  admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
  const ownerAccount = await registerAndSignIn(t.app);
  owner = ownerAccount.client;
  ownerId = ownerAccount.user.id;
  const otherAccount = await registerAndSignIn(t.app);
  other = otherAccount.client;
  // Both have Early Access, so an AI call is refused for the course and never for the plan.
  for (const id of [ownerId, otherAccount.user.id]) {
    expect((await admin.call(adminUsersApi.update, { params: { id }, body: { planType: "earlyAccess" } })).status).toBe(200);
  }
  anonymous = new CookieClient(t.app);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function expectStatus(client: CookieClient, options: InjectOptions, status: number) {
  const res = await client.request(options);
  expect({ call: `${options.method} ${options.url}`, status: res.statusCode, body: res.statusCode === status ? "" : res.body }).toEqual({
    call: `${options.method} ${options.url}`,
    status,
    body: "",
  });
  return res;
}

/** A set-up call that must answer `status`: its typed answer. */
async function made<E extends EndpointShape>(called: Promise<Called<E>>, status: number): Promise<EndpointOutput<E>> {
  const res = await called;
  const call = `${res.response.raw.req.method} ${res.response.raw.req.url}`;
  expect({ call, status: res.status, body: res.status === status ? "" : res.response.body }).toEqual({ call, status, body: "" });
  return res.data;
}

async function buildFixture(state: State): Promise<Fixture> {
  const created = await made(
    owner.call(coursesApi.create, { body: { title: `Course ${state.name}`, isPublic: state.isPublic, status: state.status } }),
    201,
  );
  const courseId = created.id;
  const moduleId = (
    await made(owner.call(coursesApi.createModule, { params: { id: courseId }, body: { title: "Module one", description: "First" } }), 201)
  ).id;
  const secondModuleId = (await made(owner.call(coursesApi.createModule, { params: { id: courseId }, body: { title: "Module two" } }), 201))
    .id;
  const lesson = (title: string, content: string) =>
    owner.call(lessonsApi.create, { params: { id: moduleId }, body: { title, type: "reading", content } });
  const lessonId = (await made(lesson("Lesson one", "# One"), 201)).id;
  const secondLessonId = (await made(lesson("Lesson two", "# Two"), 201)).id;
  await made(
    owner.call(lessonsApi.create, { params: { id: secondModuleId }, body: { title: "Lesson three", type: "quiz", content: "# Three" } }),
    201,
  );
  await made(owner.call(lessonsApi.update, { params: { id: lessonId }, body: { content: "# One, revised" } }), 200);
  const versions = await made(owner.call(lessonsApi.versions, { params: { id: lessonId } }), 200);
  const versionId = versions[0]?.id ?? 0;
  await made(
    owner.call(coursesApi.uploadCover, { params: { id: courseId } }, { multipart: multipartFile("file", "c.png", "image/png", TINY_PNG) }),
    200,
  );
  await made(owner.call(lessonsApi.complete, { params: { id: lessonId } }), 200);
  // A stopped run over a lesson that already has content: resuming finishes it without asking the AI.
  await t.database.db.execute(
    `insert into course_generation_runs (course_id, user_id, status, lesson_ids, hints) values (${courseId}, ${ownerId}, 'stopped', '[${lessonId}]'::jsonb, '{}'::jsonb)`,
  );
  return { courseId, moduleId, lessonId, secondLessonId, versionId };
}

async function counts(courseId: number) {
  const result = await t.database.db.execute(`select
      (select count(*)::int from course_modules where course_id = ${courseId}) as modules,
      (select count(*)::int from lessons where course_id = ${courseId}) as lessons,
      (select count(*)::int from lesson_versions v join lessons l on l.id = v.lesson_id where l.course_id = ${courseId}) as versions,
      (select count(*)::int from lesson_completions where course_id = ${courseId}) as completions,
      (select count(*)::int from course_generation_runs where course_id = ${courseId}) as runs,
      (select count(*)::int from uploads where user_id = ${ownerId}) as uploads`);
  return result.rows[0];
}

/** Everything the owner can see of the course: course, outline (orders, titles), every lesson and its versions, the run, row counts. */
async function snapshot(f: Fixture) {
  const course = await owner.call(coursesApi.get, { params: { id: f.courseId } });
  if (course.status !== 200) return { courseStatus: course.status, counts: await counts(f.courseId) };
  const outline = await owner.ok(coursesApi.outline, { params: { id: f.courseId } });
  const lessons: unknown[] = [];
  for (const id of outline.modules.flatMap((m) => m.lessons.map((l) => l.id))) {
    lessons.push(await owner.ok(lessonsApi.get, { params: { id } }), await owner.ok(lessonsApi.versions, { params: { id } }));
  }
  const run = await owner.ok(courseAiApi.generation, { params: { id: f.courseId } });
  return { course: course.data, outline, lessons, run, counts: await counts(f.courseId) };
}

describe("signed out", () => {
  it.each(CALLS)("$name answers 401 in every state and changes nothing", async (call) => {
    for (const state of STATES) {
      const f = await buildFixture(state);
      const before = await snapshot(f);
      const res = await expectStatus(anonymous, call.request(f), 401);
      expect(res.json()).toEqual({ message: SIGN_IN });
      expect(await snapshot(f)).toEqual(before);
    }
  });
});

describe.each([
  ["owner", () => owner],
  ["admin", () => admin],
] as const)("%s", (_name, actor) => {
  it.each(CALLS)("$name is allowed in every state", async (call) => {
    for (const state of STATES) {
      const f = await buildFixture(state);
      const before = await snapshot(f);
      await expectStatus(actor(), call.request(f), call.ok);
      if (call.mutates) expect(await snapshot(f)).not.toEqual(before);
    }
  });
});

describe("another signed-in user", () => {
  it.each(CALLS)("$name: read only on a public published course, never written", async (call) => {
    for (const state of STATES) {
      const f = await buildFixture(state);
      const before = await snapshot(f);
      const readable = state.isPublic && state.status === "published";
      if (call.access === "read" && readable) {
        await expectStatus(other, call.request(f), call.ok);
        continue;
      }
      const res = await expectStatus(other, call.request(f), 403);
      expect({ state: state.name, body: res.json() }).toEqual({
        state: state.name,
        body: { message: readable ? COURSE_EDIT_FORBIDDEN : COURSE_FORBIDDEN },
      });
      // The refused call left titles, contents, counts, orders, cover and run as they were.
      expect(await snapshot(f)).toEqual(before);
    }
  });

  it("sees only public published courses in the list; the admin sees all of them", async () => {
    const ids = new Map<string, number>();
    for (const state of STATES) ids.set(state.name, (await buildFixture(state)).courseId);
    const listed = async (client: CookieClient) => {
      const res = await client.ok(coursesApi.list, { query: { scope: "all", limit: 100 } });
      const seen = new Set(res.items.map((c) => c.id));
      return STATES.filter((s) => seen.has(ids.get(s.name) ?? 0)).map((s) => s.name);
    };
    expect(await listed(other)).toEqual(["public published"]);
    expect(await listed(admin)).toEqual(STATES.map((s) => s.name));
    expect(await listed(owner)).toEqual(STATES.map((s) => s.name));
  });

  it("a completion by a reader of a public course is theirs only", async () => {
    const f = await buildFixture(STATES[3]);
    await expectStatus(other, requestFor(lessonsApi.complete, { params: { id: f.secondLessonId } }), 200);
    const mine = await other.ok(coursesApi.outline, { params: { id: f.courseId } });
    expect(mine.canEdit).toBe(false);
    expect(mine.learners).toBeNull();
    expect(mine.progress).toMatchObject({ completed: 1, total: 3 });
    const owners = await owner.ok(coursesApi.outline, { params: { id: f.courseId } });
    expect(owners.progress).toMatchObject({ completed: 1, total: 3, nextLessonId: f.secondLessonId });
    // Learners are those who opened the course (course_enrollments, issue 32): the reader, not the owner.
    expect(owners.learners).toEqual({ started: 1, finished: 0 });
  });
});

describe("unknown ids", () => {
  const missing: Fixture = { courseId: MISSING, moduleId: MISSING, lessonId: MISSING, secondLessonId: MISSING, versionId: MISSING };

  it.each(CALLS)("$name answers 404 with the right message, for the owner and for anyone else", async (call) => {
    for (const client of [owner, other, admin]) {
      const res = await expectStatus(client, call.request(missing), 404);
      expect(res.json()).toEqual({ message: NOT_FOUND[call.target] });
    }
  });

  it("a version is found only through its own lesson", async () => {
    const f = await buildFixture(STATES[0]);
    const unknown = await expectStatus(
      owner,
      requestFor(lessonsApi.restoreVersion, { params: { id: f.lessonId, versionId: MISSING } }),
      404,
    );
    expect(unknown.json()).toEqual({ message: "Version not found" });
    // Another user's own lesson with the owner's version id: no way to copy the private content over.
    const course = await other.ok(coursesApi.create, { body: { title: "Other's course" } });
    const module = await other.ok(coursesApi.createModule, { params: { id: course.id }, body: { title: "Mine" } });
    const lesson = await other.ok(lessonsApi.create, {
      params: { id: module.id },
      body: { title: "Mine", type: "reading", content: "Own words" },
    });
    await other.ok(lessonsApi.update, { params: { id: lesson.id }, body: { content: "Own words, revised" } });
    const stolen = await expectStatus(
      other,
      requestFor(lessonsApi.restoreVersion, { params: { id: lesson.id, versionId: f.versionId } }),
      404,
    );
    expect(stolen.json()).toEqual({ message: "Version not found" });
    expect((await other.ok(lessonsApi.get, { params: { id: lesson.id } })).content).toBe("Own words, revised");
    // The owner's own lesson two cannot take lesson one's version either.
    await expectStatus(owner, requestFor(lessonsApi.restoreVersion, { params: { id: f.secondLessonId, versionId: f.versionId } }), 404);
  });
});
